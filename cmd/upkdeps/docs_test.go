package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/spf13/cobra/doc"
)

// TestCommandDocs keeps docs/commands, one Markdown page per command
// generated from the cobra tree, equal to what --help says: it fails when
// a flag, a usage line or a description changed without the pages.
// Regenerate with go generate ./cmd/upkdeps (this test with -update).
func TestCommandDocs(t *testing.T) {
	dir := filepath.Join(goldenRoot, "..", "..", "..", "docs", "commands")
	fresh := t.TempDir()
	if err := writeCommandDocs(fresh); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(dir, os.DirFS(fresh)); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, have := readDir(t, fresh), readDir(t, dir)
	for _, name := range sortedKeys(want) {
		if have[name] != want[name] {
			t.Errorf("docs/commands/%s is stale: run go generate ./cmd/upkdeps", name)
		}
	}
	for _, name := range sortedKeys(have) {
		if _, ok := want[name]; !ok {
			t.Errorf("docs/commands/%s is no command's page: run go generate ./cmd/upkdeps", name)
		}
	}
}

// writeCommandDocs writes the Markdown page of every command under dir.
func writeCommandDocs(dir string) error {
	root := newRootCmd(&app{})
	root.DisableAutoGenTag = true // no date: the pages change only with the commands
	root.InitDefaultCompletionCmd()
	root.InitDefaultHelpCmd()
	return doc.GenMarkdownTree(root, dir)
}

func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestDocsLinks follows every relative link of README.md, CONTRIBUTING.md
// and docs/*.md: the file must exist and a #fragment must be a heading of
// it (GitHub's anchors), so moving a section cannot leave a dead link.
func TestDocsLinks(t *testing.T) {
	root := filepath.Join(goldenRoot, "..", "..", "..")
	pages := []string{"README.md", "CONTRIBUTING.md"}
	for _, dir := range []string{"docs", "docs/commands"} {
		entries, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".md") {
				pages = append(pages, dir+"/"+e.Name())
			}
		}
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, page := range pages {
		text, err := os.ReadFile(filepath.Join(root, page))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(stripCode(string(text)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := filepath.Join(root, filepath.Dir(page), file)
			if file == "" {
				path = filepath.Join(root, page)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: link %s: %v", page, target, err)
				continue
			}
			if frag != "" && strings.HasSuffix(path, ".md") {
				b, _ := os.ReadFile(path)
				if !slices.Contains(anchors(string(b)), frag) {
					t.Errorf("%s: link %s: no heading with that anchor", page, target)
				}
			}
		}
	}
}

// TestContributingPackageMap: CONTRIBUTING.md names every package of the
// module, each linked to its doc comment's file.
func TestContributingPackageMap(t *testing.T) {
	root := filepath.Join(goldenRoot, "..", "..", "..")
	text, err := os.ReadFile(filepath.Join(root, "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() && filepath.Base(filepath.Dir(path)) == "third_party" {
			rel, _ := filepath.Rel(root, path)
			if want := "| `" + filepath.ToSlash(rel) + "/` | ["; !strings.Contains(string(text), want) {
				t.Errorf("CONTRIBUTING.md has no row for vendored %s/", rel)
			}
			return filepath.SkipDir // vendored code: one row, not one per package
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		if want := "| `" + filepath.ToSlash(rel) + "/` | ["; !strings.Contains(string(text), want) {
			t.Errorf("CONTRIBUTING.md has no row for package %s/", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// anchors returns GitHub's anchors of the Markdown headings in text.
func anchors(text string) []string {
	var out []string
	for _, line := range strings.Split(stripCode(text), "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		var b strings.Builder
		for _, r := range h {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		out = append(out, b.String())
	}
	return out
}

// stripCode blanks the fenced code blocks of Markdown text.
func stripCode(text string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.SplitAfter(text, "\n") {
		if strings.HasPrefix(line, "```") {
			in = !in
			continue
		}
		if !in {
			b.WriteString(line)
		}
	}
	return b.String()
}
