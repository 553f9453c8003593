package check

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/check/cifmt"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

// TestRulesCoverKinds: every kind docs/check.md lists has a rule, with
// every text set, and no rule names a kind the docs do not.
func TestRulesCoverKinds(t *testing.T) {
	root, err := testutil.ProjectRoot()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "check.md"))
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|").FindAllStringSubmatch(string(doc), -1) {
		documented[m[1]] = true
	}
	if len(documented) < 15 {
		t.Fatalf("found %d kinds in docs/check.md", len(documented))
	}
	rules := map[string]bool{}
	for _, r := range Rules() {
		rules[r.ID] = true
		if r.Short == "" || r.Full == "" || r.Help == "" || (r.Level != cifmt.Error && r.Level != cifmt.Warning) {
			t.Errorf("rule %s incomplete: %+v", r.ID, r)
		}
		if !documented[r.ID] {
			t.Errorf("rule %s is not a kind of docs/check.md", r.ID)
		}
	}
	for k := range documented {
		if !rules[k] {
			t.Errorf("kind %s has no rule", k)
		}
	}
}

// TestLocateDemo: findings named by an ini line point at it, source
// findings at their .uc line, a missing package's at its importer, the
// others at their package file.
func TestLocateDemo(t *testing.T) {
	in := openDemo(t)
	rep, _, err := Run(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	root := in.Search.Root()
	got := map[string]string{}
	for _, f := range rep.Findings {
		l := in.Locate(f)
		rel, err := filepath.Rel(root, l.File)
		if err != nil || strings.HasPrefix(rel, "..") {
			t.Errorf("%s %s: %s outside the install", f.Kind, f.Package, l.File)
		}
		key := string(f.Kind) + " " + f.Package
		if _, dup := got[key]; !dup {
			got[key] = filepath.ToSlash(rel) + ":" + strconv.Itoa(l.Line)
		}
	}
	for key, want := range map[string]string{
		"missing_package DemoVoices": "System/Demo.ini:25",
		"missing_package DemoStats":  "System/Demo.ini:27",
		"missing_object DemoGame":    "System/Demo.ini:6",
		"edit_missing DemoFXLib":     "DemoBase/Classes/DemoActor.uc:11",
		"missing_package CityTex":    "Maps/DM-Demo.unr:0",
		"missing_package DemoExtras": "System/DemoGame.u:0",
		"unreadable Broken":          "System/Broken.u:0",
		"missing_object DemoTex":     "Textures/DemoTex.utx:0",
	} {
		if got[key] != want {
			t.Errorf("%s at %q, want %q", key, got[key], want)
		}
	}
	// The whole log validates as SARIF.
	var buf bytes.Buffer
	if err := cifmt.WriteSARIF(&buf, CILog(in, rep, "test", root)); err != nil {
		t.Fatal(err)
	}
	testutil.ValidateSARIF(t, buf.Bytes())
}

// TestFingerprint: the line number of the ini line and the message do not
// change it; the kind, package, objects and the ini line's text do.
func TestFingerprint(t *testing.T) {
	base := graph.Finding{Kind: graph.MissingPackage, Severity: graph.Error, Package: "Foo",
		Roots: []string{"Game.ini:25 ServerPackages=Foo"}, Message: "named by 1 ini line(s)", NeededBy: []string{"A"}}
	same := base
	same.Roots = []string{"Game.ini:31 ServerPackages=Foo"}
	same.Message = "named by 1 ini line(s) and imported by 2"
	same.NeededBy = []string{"A", "B"}
	if Fingerprint(base) != Fingerprint(same) {
		t.Error("a moved ini line or a new importer changed the fingerprint")
	}
	for name, change := range map[string]func(*graph.Finding){
		"kind":     func(f *graph.Finding) { f.Kind = graph.CaseMismatch },
		"package":  func(f *graph.Finding) { f.Package = "Bar" },
		"objects":  func(f *graph.Finding) { f.Objects = []graph.Object{{Package: "Foo", Path: "X", Class: "Class"}} },
		"ini line": func(f *graph.Finding) { f.Roots = []string{"Game.ini:25 ServerActors=Foo.X"} },
		"packages": func(f *graph.Finding) { f.Packages = []string{"Foo", "Baz"} },
	} {
		f := base
		change(&f)
		if Fingerprint(f) == Fingerprint(base) {
			t.Errorf("changing the %s keeps the fingerprint", name)
		}
	}
}

// TestHintMisspeltServerPackage: a ServerPackages line that names no file
// but a close one gets "did you mean"; the demo's own missing ones
// (nothing close) do not.
func TestHintMisspeltServerPackage(t *testing.T) {
	in := openDemo(t)
	data, err := os.ReadFile(in.IniPath)
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), "ServerPackages=DemoVoices", "ServerPackages=DemoBsae\r\nServerPackages=DemoVoices", 1)) // the demo ini has CRLF
	if err := os.WriteFile(in.IniPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	in, err = install.Open(install.Options{Ini: in.IniPath})
	if err != nil {
		t.Fatal(err)
	}
	rep, _, err := Run(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	hinted := 0
	for _, f := range rep.Findings {
		if f.Kind != graph.MissingPackage {
			continue
		}
		has := strings.Contains(f.Message, "did you mean")
		switch f.Package {
		case "DemoBsae":
			if !strings.HasSuffix(f.Message, "; did you mean DemoBase (System/DemoBase.u)?") {
				t.Errorf("DemoBsae: %q", f.Message)
			}
			hinted++
		default:
			if has {
				t.Errorf("%s: %q", f.Package, f.Message)
			}
		}
	}
	if hinted != 1 {
		t.Errorf("%d hinted findings", hinted)
	}
}

// TestHintNamesOnlyWhenAsked: findings that no ServerPackages or
// EditPackages line names (the usual check) cost addHints no list of the
// install's package names.
func TestHintNamesOnlyWhenAsked(t *testing.T) {
	in := openDemo(t)
	fs := []graph.Finding{
		{Kind: graph.MissingPackage, Package: "Nope", Roots: []string{"Maps/DM-Demo.unr"}},
		{Kind: graph.MissingObject, Package: "DemoBase"},
	}
	if allocs := testing.AllocsPerRun(20, func() { addHints(in, fs) }); allocs != 0 {
		t.Errorf("addHints allocates %v times without a finding that asks, want 0", allocs)
	}
	if strings.Contains(fs[0].Message, "did you mean") {
		t.Errorf("hinted without an ini line: %q", fs[0].Message)
	}
}
