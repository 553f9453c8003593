package header

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/native"
)

// TestRegistrationsOrder: the binary, else the header (its classes, and
// UE2's registrants), else the game's own table.
func TestRegistrationsOrder(t *testing.T) {
	table := native.NewSet()
	table.AddTable(&native.Table{Name: "own", Packages: map[string][]string{"Engine": {"Pickup"}, "Fire": {"FireTexture"}}})
	reg := registrations{
		binaries: native.NewSet(),
		headers:  map[string]*File{"engine": {Classes: []*Class{{Name: "ASavedMove"}}, Registrants: []string{"ACarriedObject", "UChannel"}}},
		table:    table,
	}
	for _, c := range []struct {
		pkg, class string
		from       string
		want       bool
	}{
		{"Engine", "SavedMove", "header", true}, {"Engine", "CarriedObject", "header", true}, {"Engine", "channel", "header", true},
		{"Engine", "Pickup", "header", false}, // the header is the evidence: the table is not asked
		{"Fire", "FireTexture", "table", true}, {"Fire", "Other", "table", false},
		{"Mod", "Thing", "", false},
	} {
		r := reg.of(c.pkg)
		if r.from != Evidence(c.from) || r.has(c.class) != c.want {
			t.Errorf("%s.%s: from %q has %v, want %q %v", c.pkg, c.class, r.from, r.has(c.class), c.from, c.want)
		}
	}
}

// TestSyncStatuses: write, then check and dry-run on the written header,
// a header that is not generated refused without Force, and a cancelled
// run stopped.
func TestSyncStatuses(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"Core/Classes/Object.uc":  "class Object native noexport;\n",
		"Engine/Classes/Actor.uc": "class Actor extends Object native;\nvar int Health;\n",
		"Extra/Classes/Plain.uc":  "class Plain extends Object;\nvar int X;\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs := []string{"Core", "Engine", "engine", "Extra"} // Engine twice: once
	run := func(mode Mode, force bool) *SyncReport {
		t.Helper()
		rep, err := Sync(context.Background(), SyncOptions{Root: root, Packages: pkgs, Mode: mode, Force: force})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	statuses := func(rep *SyncReport) []Status {
		var out []Status
		for _, p := range rep.Packages {
			out = append(out, p.Status)
		}
		return out
	}
	for _, c := range []struct {
		mode   Mode
		force  bool
		want   []Status
		failed bool
	}{
		{ModeCheck, false, []Status{StatusNone, StatusMissing, StatusNone}, true},
		{ModeDryRun, false, []Status{StatusNone, StatusWouldWrite, StatusNone}, false},
		{ModeWrite, false, []Status{StatusNone, StatusWritten, StatusNone}, false},
		{ModeCheck, false, []Status{StatusNone, StatusCurrent, StatusNone}, false},
		{ModeWrite, false, []Status{StatusNone, StatusUnchanged, StatusNone}, false},
	} {
		rep := run(c.mode, c.force)
		if got := statuses(rep); !equalStatuses(got, c.want) || rep.Failed() != c.failed {
			t.Errorf("%s: have %v failed %v, want %v failed %v", c.mode, got, rep.Failed(), c.want, c.failed)
		}
	}
	hdr := filepath.Join(root, "Engine", "Inc", "EngineClasses.h")
	if err := os.WriteFile(hdr, []byte("// my own file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if rep := run(ModeWrite, false); rep.Packages[1].Status != StatusRefused || !rep.Failed() {
		t.Errorf("a hand-written file: have %s, want refused", rep.Packages[1].Status)
	}
	if rep := run(ModeWrite, true); rep.Packages[1].Status != StatusWritten || rep.Written != 1 {
		t.Errorf("--force: have %s, want written", rep.Packages[1].Status)
	}
	if _, err := Sync(context.Background(), SyncOptions{Root: root, Packages: pkgs, Selected: []string{"Nope"}}); err == nil {
		t.Error("a selected package not in the list: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Sync(ctx, SyncOptions{Root: root, Packages: pkgs}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: have %v, want context.Canceled", err)
	}
}

func equalStatuses(a, b []Status) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
