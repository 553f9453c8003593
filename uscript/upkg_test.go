package uscript

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

func TestReadUpkg(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want UpkgFlags
	}{
		{"empty", nil, UpkgFlags{AllowDownload: true}},
		{"no flags section", []byte("[Package_Description]\nServerSideOnly=True\n"), UpkgFlags{AllowDownload: true}},
		{"all set", []byte("[Flags]\nAllowDownload=False\nClientOptional=True\nServerSideOnly=True\n"),
			UpkgFlags{ClientOptional: true, ServerSideOnly: true}},
		{"numbers and case", []byte("[flags]\nallowdownload=0\nCLIENTOPTIONAL=1\nServerSideOnly=TRUE\n"),
			UpkgFlags{ClientOptional: true, ServerSideOnly: true}},
		{"engine GetBool: only True or 1 is true", []byte("[Flags]\nAllowDownload=yes\nClientOptional=01\nServerSideOnly=2\n"),
			UpkgFlags{ClientOptional: true}},
		{"empty value keeps the default", []byte("[Flags]\nAllowDownload=\n"), UpkgFlags{AllowDownload: true}},
		{"last line wins", []byte("[Flags]\nServerSideOnly=True\nServerSideOnly=False\n"), UpkgFlags{AllowDownload: true}},
		{"crlf and comments", []byte("; comment\r\n[Flags]\r\nAllowDownload=False\r\n"), UpkgFlags{}},
		{"utf-16", utf16LE("[Flags]\r\nServerSideOnly=True\r\n", true), UpkgFlags{AllowDownload: true, ServerSideOnly: true}},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, filepath.Base(t.Name())+string(rune('a'+i))+".upkg")
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			have, err := ReadUpkg(path)
			if err != nil {
				t.Fatal(err)
			}
			if have != tt.want {
				t.Errorf("have %v\nwant %v", have, tt.want)
			}
		})
	}
	if _, err := ReadUpkg(filepath.Join(dir, "missing.upkg")); err == nil {
		t.Error("missing file: no error")
	}
}

func TestUpkgBits(t *testing.T) {
	for flags, want := range map[UpkgFlags]uint32{
		{}:                     0,
		DefaultUpkgFlags:       FlagAllowDownload,
		{ServerSideOnly: true}: FlagServerSideOnly,
		{true, true, true}:     FlagAllowDownload | FlagClientOptional | FlagServerSideOnly,
	} {
		if have := flags.Bits(); have != want {
			t.Errorf("%v: have %#x, want %#x", flags, have, want)
		}
	}
}

func TestReadUpkgCorpus(t *testing.T) {
	path := testutil.CorpusFile(t, "elmuerte__UT2004-ServerExt/Classes/ServerExt.upkg")
	have, err := ReadUpkg(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := (UpkgFlags{ServerSideOnly: true}); have != want {
		t.Errorf("have %v\nwant %v", have, want)
	}
}
