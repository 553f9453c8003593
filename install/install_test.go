package install

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/upkdeps/upkdeps/internal/demo"
	"github.com/upkdeps/upkdeps/livemap"
)

func openDemo(t *testing.T) *Install {
	t.Helper()
	dir := t.TempDir()
	if err := demo.Write(dir); err != nil {
		t.Fatal(err)
	}
	in, err := Open(Options{Ini: filepath.Join(dir, demo.Ini)})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestOpenArgError: an unknown game or platform, a folder without a game
// ini and no ini where none is given are the caller's errors (ArgError,
// naming the option, which a command turns into exit 2 with a usage
// hint), in words free of flag syntax.
func TestOpenArgError(t *testing.T) {
	in := openDemo(t)
	empty := t.TempDir()
	t.Chdir(empty)
	for _, c := range []struct {
		opt Options
		arg string
	}{
		{Options{Ini: in.IniPath, Game: "nosuchgame"}, ArgGame},
		{Options{Ini: in.IniPath, Platform: "amiga"}, ArgPlatform},
		{Options{Ini: empty}, ArgIni},
		{Options{}, ArgIni},
	} {
		var ae ArgError
		_, err := Open(c.opt)
		if !errors.As(err, &ae) || ae.Arg != c.arg {
			t.Errorf("%+v: have %v, want an ArgError for %s", c.opt, err, c.arg)
			continue
		}
		if strings.Contains(err.Error(), "--") {
			t.Errorf("%+v: %q names a flag", c.opt, err)
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
		got, err := Open(Options{Ini: dir})
		if err != nil {
			t.Errorf("Open(%s): %v", dir, err)
		} else if got.IniPath != want {
			t.Errorf("Open(%s): ini %s, want %s", dir, got.IniPath, want)
		}
	}
	t.Chdir(filepath.Dir(system))
	if got, err := Open(Options{}); err != nil || !strings.EqualFold(filepath.Base(got.IniPath), "UnrealTournament.ini") {
		t.Errorf("Open in the game folder: %v", err)
	}
}

// TestOpenNames: the warnings that advise an option name it as the
// caller does (Options.Name), by its Arg name otherwise.
func TestOpenNames(t *testing.T) {
	dir := t.TempDir()
	iniPath := filepath.Join(dir, "System", "Game.ini")
	if err := os.MkdirAll(filepath.Dir(iniPath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(iniPath, []byte("[Core.System]\r\nPaths+=../System/*.u\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name func(string) string
		want string
	}{
		{nil, "give Game swrc"},
		{func(arg string) string { return "--" + strings.ToLower(arg) }, "give --game swrc"},
	} {
		var warned []string
		if _, err := Open(Options{Ini: iniPath, Game: "ut2004", Name: c.name, Warn: func(m string) { warned = append(warned, m) }}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(warned, "\n"), c.want) {
			t.Errorf("warnings %q, want %q in one", warned, c.want)
		}
	}
}

// TestPlace: a package goes to the folder of the first Paths entry for
// its extension; a name no entry takes has no place.
func TestPlace(t *testing.T) {
	in := openDemo(t)
	root := in.Search.Root()
	for name, want := range map[string]string{"Foo.u": "System", "DM-Foo.unr": "Maps", "Foo.utx": "Textures"} {
		dir, ok := in.Place(name)
		if !ok || !sameDir(dir, filepath.Join(root, want)) {
			t.Errorf("Place(%s) = %s, %v; want %s", name, dir, ok, filepath.Join(root, want))
		}
	}
	if dir, ok := in.Place("Foo.nosuchext"); ok {
		t.Errorf("Place(Foo.nosuchext) = %s, want none", dir)
	}
}

func sameDir(a, b string) bool { return strings.EqualFold(filepath.Clean(a), filepath.Clean(b)) }

// TestOrder: the demo's EditPackages order is checked from its sources
// (DemoGame's edit_order error, with the ini lines of an entry listed
// twice), and the sources of the graph are read once.
func TestOrder(t *testing.T) {
	in := openDemo(t)
	ctx := context.Background()
	g, err := in.Graph(ctx, GraphOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	res, src, err := in.Order(ctx, g, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Valid || len(res.Findings) == 0 || src == nil {
		t.Fatalf("order: valid %v, %d findings, sources %v", res.Valid, len(res.Findings), src)
	}
	again, nat, err := in.Sources(ctx, g)
	if err != nil || again != src || nat == nil {
		t.Errorf("sources read again: %p, want %p (%v)", again, src, err)
	}
	clean, _, err := in.Order(ctx, g, true)
	if err != nil || len(clean.Rebuilt) <= len(res.Rebuilt) {
		t.Errorf("clean: rebuilt %v of %v (%v)", clean.Rebuilt, clean.EditPackages, err)
	}
}

// TestOrderReportText: the order report of the demo (an order that is not
// valid) as order prints it: the EditPackages line, the entries read from
// sources, the verdict, the suggested order or the cycle's sentence, and
// with explain one line per constraint under their
// count; without explain no constraint is listed.
func TestOrderReportText(t *testing.T) {
	in := openDemo(t)
	ctx := context.Background()
	g, err := in.Graph(ctx, GraphOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := in.ReportOrder(ctx, g, false)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Valid || len(rep.Constraints) == 0 || len(rep.Sources) == 0 {
		t.Fatalf("the demo's order: valid %v, %d constraints, sources %v", rep.Valid, len(rep.Constraints), rep.Sources)
	}
	var plain, explained strings.Builder
	if err := rep.WriteText(&plain, false); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteText(&explained, true); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"upkdeps order: " + rep.Ini + "\n",
		fmt.Sprintf("EditPackages (%d): %s\n", len(rep.EditPackages), strings.Join(rep.EditPackages, " ")),
		"Read from sources (Classes/*.uc): " + strings.Join(rep.Sources, " ") + "\n",
		rep.Verdict + "\n",
	}
	if rep.Suggested == nil { // the demo has a cycle
		want = append(want, "\nNo order can work until the cycle above is broken.\n")
	} else {
		want = append(want, "\nSuggested order (paste into [Editor.EditorEngine]):\n")
		for _, n := range rep.Suggested {
			want = append(want, "EditPackages="+n+"\n")
		}
	}
	for _, w := range want {
		if !strings.Contains(plain.String(), w) {
			t.Errorf("the text lacks %q:\n%s", w, plain.String())
		}
	}
	if strings.Contains(plain.String(), "Constraints (") {
		t.Errorf("constraints listed without explain:\n%s", plain.String())
	}
	tail, ok := strings.CutPrefix(explained.String(), plain.String())
	if !ok {
		t.Fatalf("explain changes the text before the constraints:\n%s", explained.String())
	}
	lines := strings.Split(strings.TrimSuffix(tail, "\n"), "\n")
	if lines[0] != "" || lines[1] != fmt.Sprintf("Constraints (%d):", len(rep.Constraints)) || len(lines) != 2+len(rep.Constraints) {
		t.Fatalf("the constraints part: %q", lines)
	}
	for i, c := range rep.Constraints {
		if want := fmt.Sprintf("  %s needs %s: %s", c.Package, c.On, c.Evidence); lines[2+i] != want {
			t.Errorf("constraint %d: %q, want %q", i, lines[2+i], want)
		}
	}
}

// TestLiveMapOnce: the live map is read once, and goroutines of a check
// asking at once (under -race) get that one read.
func TestLiveMapOnce(t *testing.T) {
	in := openDemo(t)
	maps := make([]*livemap.Map, 8)
	var wg sync.WaitGroup
	for i := range maps {
		wg.Go(func() {
			m, err := in.LiveMap()
			if err != nil {
				t.Error(err)
			}
			maps[i] = m
		})
	}
	wg.Wait()
	for _, m := range maps {
		if m == nil || m != maps[0] {
			t.Fatalf("LiveMap gave %p and %p: read more than once", m, maps[0])
		}
	}
}

// TestNativesOnce: StartNatives and Natives from several goroutines read
// the binaries once, give one set, and pass a binary's warning on once,
// from a Natives call (not from StartNatives' goroutine, whose read may
// end while a graph is still being built).
func TestNativesOnce(t *testing.T) {
	dir := t.TempDir()
	if err := demo.Write(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "System", "Broken.dll"), []byte("MZ not really a PE file"), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var warnings []string
	in, err := Open(Options{Ini: filepath.Join(dir, demo.Ini), Warn: func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		warnings = append(warnings, msg)
	}})
	if err != nil {
		t.Fatal(err)
	}
	wait := in.StartNatives()
	wait()
	mu.Lock()
	before := len(warnings)
	mu.Unlock()
	if before != 0 {
		t.Fatalf("StartNatives passed warnings on before Natives: %q", warnings)
	}
	sets := make([]any, 8)
	var wg sync.WaitGroup
	for i := range sets {
		wg.Go(func() {
			defer in.StartNatives()()
			s, err := in.Natives()
			if err != nil {
				t.Error(err)
			}
			sets[i] = s
		})
	}
	wg.Wait()
	for _, s := range sets {
		if s == nil || s != sets[0] {
			t.Fatalf("Natives gave %p and %p: read more than once", s, sets[0])
		}
	}
	n := 0
	for _, w := range warnings {
		if strings.Contains(w, "Broken.dll") && strings.Contains(w, "its native classes are not used") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d warnings about Broken.dll in %d calls, want 1: %q", n, len(sets), warnings)
	}
}

// TestParseServerURL: the map before the first "?", then the first Game=
// and Mutator= options in any case (GameInfo.ParseOption's rule), the
// mutators split at commas; spaces are an error.
func TestParseServerURL(t *testing.T) {
	for _, c := range []struct {
		url  string
		want ServerURL
		err  bool
	}{
		{"DM-Deck16][?Game=Botpack.DeathMatchPlus?mutator=A.B,C.D?Mutator=E.F?listen", ServerURL{"DM-Deck16][", "Botpack.DeathMatchPlus", []string{"A.B", "C.D"}}, false},
		{"DM-Rankin.ut2?GAME=XGame.xDeathMatch?game=Other.G", ServerURL{"DM-Rankin.ut2", "XGame.xDeathMatch", nil}, false},
		{"?Mutator=A.B,", ServerURL{"", "", []string{"A.B"}}, false},
		{"?Mutator=,A.B", ServerURL{"", "", []string{",A.B"}}, false},
		{"CTF-Face", ServerURL{Map: "CTF-Face"}, false},
		{"ucc server DM-Deck16][", ServerURL{}, true},
	} {
		got, err := ParseServerURL(c.url)
		if (err != nil) != c.err || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %+v, %v; want %+v (error %v)", c.url, got, err, c.want, c.err)
		}
	}
}
