package uscript

import (
	"fmt"
	"strings"

	"github.com/upkdeps/upkdeps/ini"
)

// UpkgFlags are the package flags a Classes/<Package>.upkg file asks
// ucc make to set.
type UpkgFlags struct {
	AllowDownload  bool // clients may download the package (default true)
	ClientOptional bool // clients may play without it
	ServerSideOnly bool // never sent to clients; nothing a client loads may import it
}

// Package flag bits in a compiled package header.
const (
	FlagAllowDownload  = 0x0001
	FlagClientOptional = 0x0002
	FlagServerSideOnly = 0x0004
)

// DefaultUpkgFlags are the flags of a package built without a .upkg file.
var DefaultUpkgFlags = UpkgFlags{AllowDownload: true}

// Bits returns the flags as the package header bits (FlagAllowDownload, ...)
// for comparison with a compiled package.
func (f UpkgFlags) Bits() uint32 {
	var b uint32
	if f.AllowDownload {
		b |= FlagAllowDownload
	}
	if f.ClientOptional {
		b |= FlagClientOptional
	}
	if f.ServerSideOnly {
		b |= FlagServerSideOnly
	}
	return b
}

func (f UpkgFlags) String() string {
	return fmt.Sprintf("AllowDownload=%t ClientOptional=%t ServerSideOnly=%t",
		f.AllowDownload, f.ClientOptional, f.ServerSideOnly)
}

// ReadUpkg reads the [Flags] section of a .upkg file. A key that is absent
// (or empty) keeps its default: AllowDownload=True, the others False. Values
// are read like the engine's GetBool: True in any case, or a number equal to
// 1, is true; anything else (False, 0, a typo) is false. When a key is
// written twice the last line counts, as in the engine's config lookup.
func ReadUpkg(path string) (UpkgFlags, error) {
	f, err := ini.Load(path)
	if err != nil {
		return DefaultUpkgFlags, fmt.Errorf("uscript: reading upkg: %w", err)
	}
	flags := DefaultUpkgFlags
	for _, k := range []struct {
		key string
		dst *bool
	}{
		{"AllowDownload", &flags.AllowDownload},
		{"ClientOptional", &flags.ClientOptional},
		{"ServerSideOnly", &flags.ServerSideOnly},
	} {
		if v, ok := f.Last("Flags", k.key); ok {
			*k.dst = upkgBool(v)
		}
	}
	return flags, nil
}

// upkgBool reads a boolean as the engine's GetBool does.
func upkgBool(v string) bool {
	v = strings.TrimSpace(v)
	if strings.EqualFold(v, "true") {
		return true
	}
	v = strings.TrimPrefix(v, "+")
	v = strings.TrimLeft(v, "0")
	return v == "1" || len(v) > 1 && v[0] == '1' && (v[1] < '0' || v[1] > '9')
}
