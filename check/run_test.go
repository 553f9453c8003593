package check

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/internal/demo"
)

func openDemo(t *testing.T) *Install {
	t.Helper()
	dir := t.TempDir()
	if err := demo.Write(dir); err != nil {
		t.Fatal(err)
	}
	in, err := Open(OpenOptions{Ini: filepath.Join(dir, demo.Ini)})
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

// TestOpenUsageError: an unknown game or platform is the caller's error
// (UsageError, which the command turns into exit 2 with a usage hint).
func TestOpenUsageError(t *testing.T) {
	in := openDemo(t)
	for _, opt := range []OpenOptions{{Ini: in.IniPath, Game: "nosuchgame"}, {Ini: in.IniPath, Platform: "amiga"}} {
		var ue UsageError
		if _, err := Open(opt); !errors.As(err, &ue) {
			t.Errorf("%+v: have %v, want a UsageError", opt, err)
		}
	}
}

// TestOpenFolder: the library opens an install from its folder or its
// System folder, as the command line's --ini does.
func TestOpenFolder(t *testing.T) {
	in := openDemo(t)
	system := filepath.Dir(in.IniPath)
	data, err := os.ReadFile(in.IniPath)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(system, "UnrealTournament.ini") // a name the lookup knows
	if err := os.WriteFile(want, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Dir(system), system} {
		got, err := Open(OpenOptions{Ini: dir})
		if err != nil {
			t.Errorf("Open(%s): %v", dir, err)
		} else if got.IniPath != want {
			t.Errorf("Open(%s): ini %s, want %s", dir, got.IniPath, want)
		}
	}
}
