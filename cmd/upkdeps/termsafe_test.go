package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
)

// TestHostileNamesEscaped: archive members whose names hold terminal
// escape sequences (clear the screen, set the window title) print with
// the sequences escaped through index add, find and check --with, on
// stdout and stderr alike.
func TestHostileNamesEscaped(t *testing.T) {
	game, _ := fixWorld(t)
	ini := filepath.Join(game, "System", "Game.ini")
	const evil = "System/\x1b]0;owned\x07Evil\x1b[2J.u"
	pkg := fixPkg(t, 50)
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for name, data := range map[string][]byte{evil: pkg, "System/\x1b[2JBroken.u": pkg[:40]} {
		w, _ := zw.Create(name)
		w.Write(data)
	}
	zw.Close()
	mod := filepath.Join(t.TempDir(), "mod.zip")
	writeFixFile(t, mod, zb.Bytes())
	db := filepath.Join(t.TempDir(), "index.db")
	guid := format.GUID{0xF1C0 + 50, 50, 250, 0xC0DE}.String()
	for _, args := range [][]string{
		{"index", "add", "--db", db, "--no-progress", mod},
		{"find", "--db", db, guid},
		{"check", "--ini", ini, "--game", "ut99", "--with", mod, "--no-progress"},
	} {
		out, errOut, _ := runCLI(t, args...)
		if strings.ContainsAny(out+errOut, "\x1b\x07") {
			t.Errorf("%v printed a raw escape sequence:\n%q\n%q", args[:2], out, errOut)
		}
		if !strings.Contains(out, `\x1b]0;owned\x07Evil\x1b[2J`) && !strings.Contains(out, `\x1b[2JBroken.u`) {
			t.Errorf("%v: the escaped name is not shown:\n%s", args[:2], out)
		}
	}
}

// TestHostileNamesEverywhere: a package whose name table holds an escape
// sequence, a C1 CSI and a bidi override: info prints them escaped, and
// its JSON still decodes to the names as they are.
func TestHostileNamesEverywhere(t *testing.T) {
	t.Chdir(t.TempDir())
	const evil = "\x1b[2JEvil\u009b2J\u202etxt"
	b := format.NewBuilder(69, 0)
	b.ExportSpec(evil+":Class", 64)
	data, err := format.Marshal(b.File)
	if err != nil {
		t.Fatal(err)
	}
	writeFixFile(t, "X.u", data)
	out, errOut, code := runCLI(t, "info", "--names", "--exports", "X.u")
	if code != exitOK || strings.ContainsAny(out+errOut, "\x1b\u009b\u202e") || !strings.Contains(out, `\x1b[2JEvil\u009b2J\u202etxt`) {
		t.Errorf("info: code %d\n%q\n%q", code, out, errOut)
	}
	out, _, _ = runCLI(t, "info", "--names", "--json", "X.u")
	if strings.ContainsAny(out, "\x1b\u009b\u202e") || !json.Valid([]byte(out)) || !strings.Contains(out, `\u001b[2JEvil\u009b2J\u202etxt`) {
		t.Errorf("info --json:\n%s", out)
	}
}
