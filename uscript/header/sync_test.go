package header

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
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
	} else if p := rep.Packages[1]; p.Diagnostic != "the file there is not a generated header" || p.Remedy != RemedyForce {
		t.Errorf("a hand-written file: diagnostic %q, remedy %q; want Force named apart", p.Diagnostic, p.Remedy)
	}
	if rep := run(ModeWrite, true); rep.Packages[1].Status != StatusWritten || rep.Written != 1 {
		t.Errorf("--force: have %s, want written", rep.Packages[1].Status)
	}
	// A header of a package without native classes, and nothing that
	// lists its native classes: the game would tell, named apart.
	extra := filepath.Join(root, "Extra", "Inc", "ExtraClasses.h")
	if err := os.MkdirAll(filepath.Dir(extra), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(extra, []byte("// generated\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := run(ModeCheck, false).Packages[2]; p.Status != StatusOrphaned || p.Remedy != RemedyGame ||
		!strings.HasSuffix(p.Diagnostic, "no binary, header or table of the game lists Extra's native classes") {
		t.Errorf("orphaned header: %s, diagnostic %q, remedy %q", p.Status, p.Diagnostic, p.Remedy)
	}
	for _, r := range []Remedy{RemedyForce, RemedyGame} {
		if s := r.String(); s == "" || strings.Contains(s, "--") {
			t.Errorf("remedy %s: %q", r, s)
		}
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

// TestNotRegistered: why a class declared without native is not exported,
// by what says which classes are registered; only "nothing does" has a
// remedy, named apart from the words.
func TestNotRegistered(t *testing.T) {
	for _, tc := range []struct {
		from   Evidence
		why    string
		remedy Remedy
	}{
		{EvidenceBinary, "Engine's binary does not register it", ""},
		{EvidenceTable, "the game's table does not list it: give the binaries beside the ini", ""},
		{EvidenceNone, "no binary or table of the game registers it", RemedyGame},
	} {
		why, remedy := registration{from: tc.from}.notRegistered("Engine")
		if why != tc.why || remedy != tc.remedy {
			t.Errorf("%q: have %q, %q; want %q, %q", tc.from, why, remedy, tc.why, tc.remedy)
		}
	}
}
