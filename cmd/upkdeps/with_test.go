package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/internal/demo"
)

func TestCheckWith(t *testing.T) {
	game, _ := fixWorld(t)
	ini := filepath.Join(game, "System", "Game.ini")
	// An installed map already lacks Absent; the mod's map needs it too.
	writeFixFile(t, filepath.Join(game, "Maps", "DM-Old.unr"), fixPkg(t, 40, "Absent"))
	// The mod brings ModA (which needs ModB, absent) and Tex, a new map
	// that needs Gone, its own Core.u (another GUID: it replaces the
	// installed one), and a .int that is set aside.
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for _, m := range []struct {
		name string
		data []byte
	}{
		{"System/ModA.u", fixPkg(t, 10, "ModB")},
		{"Textures/Tex.utx", fixPkg(t, 13)},
		{"Maps/DM-New.unr", fixPkg(t, 30, "ModA", "Gone", "Absent")},
		{"System/Core.u", fixPkg(t, 31)},
		{"System/ModA.int", []byte("[Public]\r\n")},
		{"Help/ReadMe.txt", []byte("hello")},
	} {
		w, _ := zw.Create(m.name)
		w.Write(m.data)
	}
	zw.Close()
	mod := filepath.Join(t.TempDir(), "mod.zip")
	writeFixFile(t, mod, zb.Bytes())
	before, _ := os.ReadDir(filepath.Join(game, "System"))

	out, _, code := runCLI(t, "check", "--ini", ini, "--game", "ut99", "--with", mod, "--json", "--no-progress")
	if code != exitFindings {
		t.Errorf("check --with: code %d, want %d (the mod adds errors)", code, exitFindings)
	}
	var rep check.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	w := rep.With
	var placed []string
	for _, p := range w.Packages {
		placed = append(placed, p.Member+">"+p.To)
	}
	if have, want := strings.Join(placed, " "), "Maps/DM-New.unr>Maps/DM-New.unr System/Core.u>System/Core.u System/ModA.u>System/ModA.u Textures/Tex.utx>Textures/Tex.utx"; have != want {
		t.Errorf("placed: have %q, want %q", have, want)
	}
	if len(w.Replaces) != 1 || w.Replaces[0].Name != "Core" || w.Replaces[0].How != "replaces" || w.Replaces[0].InstalledGUID == w.Replaces[0].ModGUID {
		t.Errorf("replaces: %+v", w.Replaces)
	}
	if strings.Join(w.SetAside, ",") != "Help/ReadMe.txt,System/ModA.int" {
		t.Errorf("set aside: %q", w.SetAside)
	}
	var removed, added []string
	for _, f := range w.FindingsRemoved {
		removed = append(removed, string(f.Kind)+":"+f.Package)
	}
	for _, f := range w.FindingsAdded {
		added = append(added, string(f.Kind)+":"+f.Package)
	}
	if have, want := strings.Join(removed, " "), "missing_package:ModA missing_package:Tex"; have != want {
		t.Errorf("removed: have %q, want %q", have, want)
	}
	if have, want := strings.Join(added, " "), "missing_package:Gone missing_package:ModB"; have != want {
		t.Errorf("added: have %q, want %q", have, want)
	}
	if len(w.FindingsChanged) != 1 || w.FindingsChanged[0].Package != "Absent" || strings.Join(w.FindingsChanged[0].NeededBy, ",") != "DM-New,DM-Old" {
		t.Errorf("changed: %+v", w.FindingsChanged)
	}
	after, _ := os.ReadDir(filepath.Join(game, "System"))
	if len(after) != len(before) {
		t.Error("check --with wrote into the install")
	}
	text, _, code := runCLI(t, "check", "--ini", ini, "--game", "ut99", "--with", mod, "--no-progress")
	if code != exitFindings {
		t.Errorf("check --with text: code %d", code)
	}
	for _, want := range []string{"With " + mod + " installed:", "replaces System/Core.u", "The mod adds 2 finding(s), removes 2 and changes 1.",
		"removed: missing_package ModA", "ERROR missing_package: ModB"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	// A folder works the same; a file that is no archive is a usage error.
	dir := t.TempDir()
	writeFixFile(t, filepath.Join(dir, "System", "ModA.u"), fixPkg(t, 10, "ModB"))
	text, _, code = runCLI(t, "check", "--ini", ini, "--game", "ut99", "--with", dir, "--no-progress")
	if code != exitFindings || !strings.Contains(text, "adds     System/ModA.u") || !strings.Contains(text, "removed: missing_package ModA") {
		t.Errorf("--with a folder: code %d\n%s", code, text)
	}
	if _, errOut, code := runCLI(t, "check", "--ini", ini, "--with", mod, "--index", ""); code != exitError || !strings.Contains(errOut, "one at a time") {
		t.Errorf("--with and --index: code %d, %s", code, errOut)
	}
	if _, _, code := runCLI(t, "check", "--ini", ini, "--with", ini); code != exitError {
		t.Errorf("--with an ini: code %d", code)
	}
}

// TestCheckWithCorruptMember: a corrupt package and an unsafe member in a
// mod are reported, each by its member, and the rest of the mod is checked
// (the first used to end check --with with no report).
func TestCheckWithCorruptMember(t *testing.T) {
	game, _ := fixWorld(t)
	ini := filepath.Join(game, "System", "Game.ini")
	good := fixPkg(t, 10)
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for _, m := range []struct {
		name string
		data []byte
	}{
		{"System/Broken.u", good[:40]},
		{"../evil/Evil.u", good},
		{"System/ModA.u", good},
		{"System/moda.u", fixPkg(t, 11)},
	} {
		w, _ := zw.CreateRaw(&zip.FileHeader{Name: m.name, Method: zip.Store, CRC32: crc32.ChecksumIEEE(m.data),
			CompressedSize64: uint64(len(m.data)), UncompressedSize64: uint64(len(m.data))})
		w.Write(m.data)
	}
	zw.Close()
	mod := filepath.Join(t.TempDir(), "mod.zip")
	writeFixFile(t, mod, zb.Bytes())
	out, errOut, code := runCLI(t, "check", "--ini", ini, "--game", "ut99", "--with", mod, "--no-progress")
	if code != exitFindings {
		t.Errorf("code %d, want 1\n%s", code, errOut)
	}
	for _, want := range []string{
		"adds     System/ModA.u",
		"unreadable, checked without it: System/Broken.u: format: ",
		`unreadable, checked without it: ../evil/Evil.u: "../evil/Evil.u": insecure member name`,
		"unreadable, checked without it: System/moda.u: another member is named System/moda.u too: only the first is checked",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestCheckWithDemoSame: check --with compares findings by identity
// (check.ID): a mod that brings a copy of a package the demo already has
// changes nothing and exits 0, and the README's example (the demo's
// DemoMutator) reports only the one finding the mod removes, though the
// demo has several findings of one kind and package (DemoGame's
// edit_order and cycle).
func TestCheckWithDemoSame(t *testing.T) {
	dir := t.TempDir()
	if err := demo.Write(dir); err != nil {
		t.Fatal(err)
	}
	ini := filepath.Join(dir, demo.Ini)
	data, err := os.ReadFile(filepath.Join(dir, "Textures", "DemoTex.utx"))
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	writeFixFile(t, filepath.Join(mod, "Textures", "DemoTex.utx"), data)
	text, _, code := runCLI(t, "check", "--ini", ini, "--with", mod, "--no-progress")
	if code != exitOK || !strings.Contains(text, "The mod adds 0 finding(s), removes 0 and changes 0.") {
		t.Errorf("a copy of DemoTex.utx: code %d\n%s", code, text)
	}
	text, _, code = runCLI(t, "check", "--ini", ini, "--with", filepath.Join(dir, "Collection", "DemoMutator"), "--no-progress")
	if code != exitOK || !strings.Contains(text, "The mod adds 0 finding(s), removes 1 and changes 0.\n  removed: missing_package DemoStats:") {
		t.Errorf("the README's example: code %d\n%s", code, text)
	}
}
