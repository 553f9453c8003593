package uscript

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeTree writes files (slash-separated paths relative to root).
func writeTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// relDiagnostics renders diagnostics with paths relative to root.
func relDiagnostics(root string, ds []Diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		if rel, err := filepath.Rel(root, d.File); err == nil {
			d.File = filepath.ToSlash(rel)
		}
		d.Msg = strings.ReplaceAll(d.Msg, root+string(filepath.Separator), "")
		out = append(out, d.String())
	}
	return out
}

func classNames(p *Package) []string {
	out := []string{}
	for _, c := range p.Classes {
		out = append(out, c.Name)
	}
	return out
}

func TestScanPackage(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"MyMod/Classes/Zeta.uc":         "class Zeta extends Object;",
		"MyMod/Classes/alpha.UC":        "class Alpha extends Zeta;",
		"MyMod/Classes/Beta.uc":         "class Beta extends Object;",
		"MyMod/Classes/Wrong.uc":        "class NotWrong extends Object;",
		"MyMod/Classes/Empty.uc":        "// nothing here\n",
		"MyMod/Classes/Dup.uc":          "class Beta extends Object;",
		"MyMod/Classes/notes.txt":       "class Ignored extends Object;",
		"MyMod/Classes/MyMod.upkg":      "[Flags]\nAllowDownload=False\nServerSideOnly=True\n",
		"MyMod/Classes/Sub/Nested.uc":   "class Nested extends Object;",
		"lower/classes/Lower.uc":        "class Lower extends Object;",
		"lower/classes/LOWER.upkg":      "[Flags]\nClientOptional=1\n",
		"NoClasses/Textures/readme":     "",
		"EmptyClasses/Classes/x.txt":    "",
		"Twice/Classes/A.uc":            "class A extends Object;",
		"twice/Classes/B.uc":            "class B extends Object;",
		"Other/classes/Exact.uc":        "class Exact extends Object;",
		"Other/Classes/FromExactDir.uc": "class FromExactDir extends Object;",
	})
	myModDiags := []string{
		"MyMod/Classes/Dup.uc:1: class Beta is declared in a file named Dup.uc (ucc make requires them to match)",
		"MyMod/Classes/Dup.uc:1: class Beta is also declared in Beta.uc",
		"MyMod/Classes/Empty.uc:1: no class declaration",
		"MyMod/Classes/Wrong.uc:1: class NotWrong is declared in a file named Wrong.uc (ucc make requires them to match)",
	}
	tests := []struct {
		pkg        string
		dir        string
		hasSources bool
		classes    []string
		hasUpkg    bool
		flags      UpkgFlags
		diags      []string
	}{
		{
			pkg: "MyMod", dir: "MyMod", hasSources: true,
			// Sub/Nested.uc comes last, read but marked Subfolder.
			classes: []string{"Alpha", "Beta", "Beta", "NotWrong", "Zeta", "Nested"},
			hasUpkg: true, flags: UpkgFlags{ServerSideOnly: true},
			diags: myModDiags,
		},
		{pkg: "mymod", dir: "MyMod", hasSources: true, classes: []string{"Alpha", "Beta", "Beta", "NotWrong", "Zeta", "Nested"}, hasUpkg: true, flags: UpkgFlags{ServerSideOnly: true}, diags: myModDiags},
		{pkg: "Lower", dir: "lower", hasSources: true, classes: []string{"Lower"}, hasUpkg: true, flags: UpkgFlags{AllowDownload: true, ClientOptional: true}},
		{pkg: "NoClasses", dir: "NoClasses", flags: DefaultUpkgFlags},
		{pkg: "EmptyClasses", dir: "EmptyClasses", flags: DefaultUpkgFlags, classes: []string{}},
		{pkg: "Missing", flags: DefaultUpkgFlags},
		{pkg: "Twice", dir: "Twice", hasSources: true, classes: []string{"A"}, flags: DefaultUpkgFlags},
		{pkg: "TWICE", dir: "Twice", hasSources: true, classes: []string{"A"}, flags: DefaultUpkgFlags,
			diags: []string{"Twice: 2 folders match TWICE ignoring case (Twice, twice); using the first"}},
		{pkg: "Other", dir: "Other", hasSources: true, classes: []string{"FromExactDir"}, flags: DefaultUpkgFlags},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			p, err := ScanPackage(root, tt.pkg)
			if err != nil {
				t.Fatal(err)
			}
			dir := ""
			if p.Dir != "" {
				dir, _ = filepath.Rel(root, p.Dir)
			}
			if p.Name != tt.pkg || dir != tt.dir || p.HasSources != tt.hasSources || p.HasUpkg != tt.hasUpkg || p.Flags != tt.flags {
				t.Errorf("have name %q dir %q sources %v upkg %v %v\nwant name %q dir %q sources %v upkg %v %v",
					p.Name, dir, p.HasSources, p.HasUpkg, p.Flags, tt.pkg, tt.dir, tt.hasSources, tt.hasUpkg, tt.flags)
			}
			if tt.classes != nil && !slices.Equal(classNames(p), tt.classes) {
				t.Errorf("classes: have %q, want %q", classNames(p), tt.classes)
			}
			for _, c := range p.Classes {
				if want := strings.Contains(filepath.ToSlash(c.File), "/Classes/Sub/"); c.Subfolder != want {
					t.Errorf("%s: Subfolder %v, want %v", c.File, c.Subfolder, want)
				}
			}
			if tt.diags == nil {
				tt.diags = []string{}
			}
			if have := relDiagnostics(root, p.Diagnostics); !slices.Equal(have, tt.diags) {
				t.Errorf("diagnostics:\nhave %q\nwant %q", have, tt.diags)
			}
		})
	}
}

func TestScanPackageErrors(t *testing.T) {
	root := t.TempDir()
	for _, pkg := range []string{"", ".", "..", "a/b", `a\b`} {
		if _, err := ScanPackage(root, pkg); err == nil {
			t.Errorf("ScanPackage(%q): no error", pkg)
		}
	}
	if _, err := ScanPackage(filepath.Join(root, "nowhere"), "Pkg"); err == nil {
		t.Error("missing game root: no error")
	}
}

func TestScanPackageBadUpkg(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"P/Classes/P.uc": "class P extends Object;"})
	// A folder where the .upkg file should be cannot be read as one.
	if err := os.Mkdir(filepath.Join(root, "P", "Classes", "P.upkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := ScanPackage(root, "P")
	if err != nil {
		t.Fatal(err)
	}
	if p.HasUpkg || p.Flags != DefaultUpkgFlags {
		t.Errorf("a folder named P.upkg: have upkg %v flags %v", p.HasUpkg, p.Flags)
	}
}

func TestScanFileTooLarge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "Big.uc")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = ScanFile(path)
	if err == nil || !strings.Contains(err.Error(), "more than the 16777216-byte limit") {
		t.Errorf("have %v, want the size limit error", err)
	}
	if _, err := ScanFile(filepath.Join(t.TempDir(), "missing.uc")); err == nil {
		t.Error("missing file: no error")
	}
}
