package check

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/demo"
)

// TestEditMissingOutsidePaths: an edit_missing package whose file is in
// the install, in a folder no Paths entry names, says where it is and that
// Paths does not reach it; without the file the message is as before.
func TestEditMissingOutsidePaths(t *testing.T) {
	msg := func(t *testing.T, dir string) string {
		t.Helper()
		in, err := install.Open(install.Options{Ini: filepath.Join(dir, demo.Ini)})
		if err != nil {
			t.Fatal(err)
		}
		rep, _, err := Run(context.Background(), in, Options{Jobs: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.Findings {
			if f.Kind == graph.EditMissing && f.Package == "DemoFXLib" {
				return f.Message
			}
		}
		t.Fatal("no edit_missing finding of DemoFXLib")
		return ""
	}
	dir := t.TempDir()
	if err := demo.Write(dir); err != nil {
		t.Fatal(err)
	}
	const plain = "DemoBase uses DemoFXLib (1 line), which is neither listed before it in EditPackages nor present as a compiled package"
	if have := msg(t, dir); have != plain {
		t.Errorf("without the file:\nhave %q\nwant %q", have, plain)
	}
	data, err := os.ReadFile(filepath.Join(dir, "System", "DemoBase.u"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "Unused"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Unused", "demofxlib.u"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	want := plain + ": Unused/demofxlib.u is in the install, but no Paths entry reaches it"
	if have := msg(t, dir); have != want {
		t.Errorf("with Unused/demofxlib.u:\nhave %q\nwant %q", have, want)
	}
}

// TestNoteOutsidePathsResource: the message of a texture package no Paths
// finds ("no package file of that name is present") names the file
// instead.
func TestNoteOutsidePathsResource(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "Textures"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "Textures", "Walls.utx"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	fs := []graph.Finding{
		{Kind: graph.EditMissing, Package: "Walls", Message: "Mod uses Walls (1 line), and no package file of that name is present"},
		{Kind: graph.EditMissing, Package: "Gone", Message: "Mod uses Gone (1 line), and no package file of that name is present"},
	}
	noteOutsidePaths(fs, root)
	if have, want := fs[0].Message, "Mod uses Walls (1 line): Textures/Walls.utx is in the install, but no Paths entry reaches it"; have != want {
		t.Errorf("have %q\nwant %q", have, want)
	}
	if have, want := fs[1].Message, "Mod uses Gone (1 line), and no package file of that name is present"; have != want {
		t.Errorf("have %q\nwant %q", have, want)
	}
}
