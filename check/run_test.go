package check

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/demo"
)

func openDemo(t *testing.T) *install.Install {
	t.Helper()
	dir := t.TempDir()
	if err := demo.Write(dir); err != nil {
		t.Fatal(err)
	}
	in, err := install.Open(install.Options{Ini: filepath.Join(dir, demo.Ini)})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestRunCancelled: Ctrl-C (a cancelled context) stops a check with its
// error, and no report; the same install checks in full afterwards.
func TestRunCancelled(t *testing.T) {
	in := openDemo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if rep, _, err := Run(ctx, in, Options{}); !errors.Is(err, context.Canceled) || rep != nil {
		t.Fatalf("have %v, %v; want no report and context.Canceled", rep, err)
	}
	rep, c, err := Run(context.Background(), in, Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.SchemaVersion != SchemaVersion || len(rep.Findings) == 0 || c.Graph == nil || len(rep.Summary.FixFirst) != 3 {
		t.Errorf("report: schema %d, %d findings, fix first %d", rep.SchemaVersion, len(rep.Findings), len(rep.Summary.FixFirst))
	}
}

// TestArgErrors: the caller's mistakes are typed and name no flag: a
// check with the download cache and no cache folder (ErrNoCachePath), a
// mod that is neither a folder nor an archive (install.ArgError for
// With), a baseline of another schema (BaselineVersionError).
func TestArgErrors(t *testing.T) {
	in := openDemo(t)
	dir := t.TempDir()
	noCache := filepath.Join(filepath.Dir(in.IniPath), "NoCache.ini")
	data, err := os.ReadFile(in.IniPath)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(string(data), "\r\n") {
		if !strings.HasPrefix(l, "CachePath=") {
			kept = append(kept, l)
		}
	}
	if err := os.WriteFile(noCache, []byte(strings.Join(kept, "\r\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	nc, err := install.Open(install.Options{Ini: noCache})
	if err != nil {
		t.Fatal(err)
	}
	var ae install.ArgError
	if _, _, err := Run(context.Background(), nc, Options{WithCache: true}); !errors.Is(err, ErrNoCachePath) || !errors.As(err, &ae) || ae.Arg != install.ArgWithCache {
		t.Errorf("WithCache without a cache folder: %v", err)
	}
	notMod := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notMod, []byte("no mod"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, werr := RunWith(context.Background(), in, nil, notMod, WithOptions{})
	if !errors.As(werr, &ae) || ae.Arg != install.ArgWith {
		t.Errorf("a text file as a mod: %v", werr)
	}
	old := filepath.Join(dir, "baseline.json")
	if err := os.WriteFile(old, []byte(`{"schema_version": 0, "findings": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, berr := ReadBaseline(old)
	var ve *BaselineVersionError
	if !errors.As(berr, &ve) || ve.Have != 0 || ve.Path != old {
		t.Errorf("a baseline of schema 0: %v", berr)
	}
	for _, err := range []error{ErrNoCachePath, werr, berr} {
		if err != nil && strings.Contains(err.Error(), "--") {
			t.Errorf("%q names a flag", err)
		}
	}
}

// TestMostNeeded: the demo's missing packages, most needed first, as
// many as asked for; each counts its importers and ini lines.
func TestMostNeeded(t *testing.T) {
	rep, _, err := Run(context.Background(), openDemo(t), Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	missing := rep.MissingPackages()
	all := rep.MostNeeded(100)
	if len(missing) < 2 || len(all) != len(missing) {
		t.Fatalf("%d most needed of %d missing", len(all), len(missing))
	}
	need := map[string]int{}
	for _, f := range missing {
		need[f.Package] = len(f.NeededBy) + len(f.Roots)
	}
	for i, n := range all {
		if n.Need != need[n.Package] || i > 0 && n.Need > all[i-1].Need {
			t.Errorf("%d: %v (need %d), after %v", i, n, need[n.Package], all[:i])
		}
	}
	if one := rep.MostNeeded(1); len(one) != 1 || one[0] != all[0] || one[0].String() != fmt.Sprintf("%s (%d)", all[0].Package, all[0].Need) {
		t.Errorf("MostNeeded(1) = %v, want %v", one, all[:1])
	}
}
