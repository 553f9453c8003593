package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
	"github.com/upkdeps/upkdeps/native"
)

// TestReproduceTables regenerates the committed tables made from corpus
// files and compares them byte for byte. Game, generation and source are
// taken from the committed table's header; the inputs from the corpus.
func TestReproduceTables(t *testing.T) {
	corpus := testutil.Corpus(t)
	inputs := map[string][]string{
		"ut99-469": {filepath.Join(corpus, "OldUnreal__UnrealTournamentPatches", "System")},
		"ut99-436": {filepath.Join(corpus, "nrempel__ut-server", "System")},
		"undying": {
			filepath.Join(corpus, "l0m-dev__Undying-Renewal", "Engine", "Inc", "EngineClasses.h"),
			filepath.Join(corpus, "l0m-dev__Undying-Renewal", "IpDrv", "Inc", "IpDrvClasses.h"),
		},
		"ut2004-3369": {filepath.Join(corpus, "IceOfWraith__UT2004", "System")},
		// ut2004 comes from DarklightGames/UT2004-NativeSDK, which is not in the corpus.
	}
	for name, in := range inputs {
		want, err := os.ReadFile(filepath.Join("..", "tables", name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		committed, err := native.ParseTable(bytes.NewReader(want), name)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), name+".txt")
		args := append([]string{"-o", out, "-game", committed.Game, "-generation", strconv.Itoa(committed.Generation),
			"-source", strings.ReplaceAll(committed.Source, "\n", `\n`)}, in...)
		var stderr bytes.Buffer
		if code := run(context.Background(), args, &bytes.Buffer{}, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, stderr.String())
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: regenerated table differs from the committed one:\n%s", name, got)
		}
	}
}

func TestRunOutputRules(t *testing.T) {
	dir := t.TempDir()
	h := filepath.Join(dir, "X.h")
	os.WriteFile(h, []byte("DECLARE_CLASS(UFoo,UObject,0,Pkg)\n"), 0o644)
	out := filepath.Join(dir, "t.txt")
	base := []string{"-game", "ut99", "-generation", "1", "-source", "test"}
	runArgs := func(extra ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append(append(slices.Clone(base), extra...), h), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	if code, stdout, _ := runArgs("-name", "t"); code != 0 || !strings.Contains(stdout, "\nPkg Foo\n") || !strings.Contains(stdout, "# from: X.h: header, classes per package: Pkg 1\n") {
		t.Errorf("stdout: exit %d\n%s", code, stdout)
	}
	if code, _, stderr := runArgs("-o", out, "-n"); code != 0 || !strings.Contains(stderr, "would write") {
		t.Errorf("dry run: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("dry run wrote the file")
	}
	if code, _, _ := runArgs("-o", out); code != 0 {
		t.Fatal("write failed")
	}
	if code, _, stderr := runArgs("-o", out); code != 0 || !strings.Contains(stderr, "up to date") {
		t.Errorf("rewrite: exit %d: %s", code, stderr)
	}
	os.WriteFile(out, []byte("other\n"), 0o644)
	if code, _, stderr := runArgs("-o", out); code != 1 || !strings.Contains(stderr, "-force") {
		t.Errorf("differing file: exit %d: %s", code, stderr)
	}
	if code, _, _ := runArgs("-o", out, "-force"); code != 0 {
		t.Error("-force failed")
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), "# name: t\n") {
		t.Errorf("forced write: %s", b)
	}
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"-o", out}, &bytes.Buffer{}, &stderr); code != 2 {
		t.Errorf("missing flags: exit %d", code)
	}
}
