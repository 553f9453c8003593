package check

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/demo"
)

// TestGameEngineSubclassSections: with GameEngine= naming a subclass that
// has no section of its own (SWAT 4's stock inis), the ServerPackages of
// [Engine.GameEngine] are what the engine reads: every absent one is a
// missing_package error from its line, and no line is ini_section. With a
// section of the subclass that has ServerPackages, its lines win and the
// parent's are the ini_section warning naming the line that wins.
func TestGameEngineSubclassSections(t *testing.T) {
	run := func(t *testing.T, ini string) []graph.Finding {
		t.Helper()
		dir := t.TempDir()
		if err := demo.Write(dir); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, demo.Ini)
		if err := os.WriteFile(path, []byte(ini), 0o644); err != nil {
			t.Fatal(err)
		}
		in, err := install.Open(install.Options{Ini: path})
		if err != nil {
			t.Fatal(err)
		}
		rep, _, err := Run(context.Background(), in, Options{Jobs: 1})
		if err != nil {
			t.Fatal(err)
		}
		return rep.Findings
	}
	base := "[Engine.Engine]\r\nGameEngine=Sub.SubGameEngine\r\n[Core.System]\r\nPaths=../System/*.u\r\n" +
		"[Engine.GameEngine]\r\nServerPackages=DemoGame\r\nServerPackages=AbsentOne\r\nServerPackages=AbsentTwo\r\n"
	// kinds lists the findings of a kind; of missing_package, those of
	// ServerPackages lines (the demo's own are beside the point here).
	kinds := func(fs []graph.Finding, kind graph.FindingKind) []string {
		var out []string
		for _, f := range fs {
			if f.Kind == kind && (kind != graph.MissingPackage || strings.Contains(strings.Join(f.Roots, ","), "ServerPackages")) {
				out = append(out, string(f.Severity)+" "+f.Package+" "+strings.Join(f.Roots, ","))
			}
		}
		slices.Sort(out)
		return out
	}
	t.Run("no section of the subclass", func(t *testing.T) {
		fs := run(t, base)
		if have, want := kinds(fs, graph.MissingPackage), []string{
			"error AbsentOne Demo.ini:7 ServerPackages=AbsentOne", "error AbsentTwo Demo.ini:8 ServerPackages=AbsentTwo"}; !slices.Equal(have, want) {
			t.Errorf("missing_package:\nhave %q\nwant %q", have, want)
		}
		if have := kinds(fs, graph.IniSection); len(have) > 0 {
			t.Errorf("ini_section: have %q, want none", have)
		}
	})
	t.Run("the subclass's own ServerPackages win", func(t *testing.T) {
		fs := run(t, base+"[Sub.SubGameEngine]\r\nServerPackages=DemoGame\r\nServerPackages=AbsentOwn\r\n")
		if have, want := kinds(fs, graph.MissingPackage), []string{"error AbsentOwn Demo.ini:11 ServerPackages=AbsentOwn"}; !slices.Equal(have, want) {
			t.Errorf("missing_package:\nhave %q\nwant %q", have, want)
		}
		win := "Demo.ini:10 ServerPackages=DemoGame"
		if have, want := kinds(fs, graph.IniSection), []string{
			"warning AbsentOne Demo.ini:7 ServerPackages=AbsentOne," + win,
			"warning AbsentTwo Demo.ini:8 ServerPackages=AbsentTwo," + win,
			"warning DemoGame Demo.ini:6 ServerPackages=DemoGame," + win}; !slices.Equal(have, want) {
			t.Errorf("ini_section:\nhave %q\nwant %q", have, want)
		}
	})
}
