package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

// demoIni is the demo install's ini, from cmd/upkdeps.
var demoIni = filepath.Join("..", "..", "testdata", "demo", "System", "Demo.ini")

// copyDemo copies the demo install to a temporary folder and returns its
// root.
func copyDemo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "demo")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "testdata", "demo"))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestCheckSARIF: check --format sarif on the demo validates against the
// SARIF 2.1.0 schema; every finding is a result located in the
// repository, with a line for those resting on an ini line or a source
// line, and one rule per kind.
func TestCheckSARIF(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "check", "--ini", demoIni, "--format", "sarif", "--root-dir", root)
	if code != exitFindings {
		t.Fatalf("code %d, stderr %s", code, errOut)
	}
	testutil.ValidateSARIF(t, []byte(out))
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct{ Rules []struct{ ID string } }
			}
			Results []struct {
				RuleID    string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           *struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	jsonOut, _, _ := runCLI(t, "check", "--ini", demoIni, "--json")
	var rep check.Report
	if err := json.Unmarshal([]byte(jsonOut), &rep); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if len(run.Results) != len(rep.Findings) {
		t.Fatalf("%d results for %d findings", len(run.Results), len(rep.Findings))
	}
	if len(run.Tool.Driver.Rules) < len(rep.Summary.ByKind) {
		t.Errorf("%d rules for %d kinds", len(run.Tool.Driver.Rules), len(rep.Summary.ByKind))
	}
	// A finding with roots or a source line in its chain must have a line.
	needsLine := map[string]bool{}
	for _, f := range rep.Findings {
		src := false
		for _, c := range f.Chain {
			src = src || regexp.MustCompile(`\.uc:[0-9]+: `).MatchString(c)
		}
		if len(f.Roots) > 0 || src {
			needsLine[f.Package+": "+f.Message] = true
		}
	}
	lines := 0
	for _, r := range run.Results {
		if len(r.Locations) != 1 {
			t.Errorf("%s: %d locations", r.Message.Text, len(r.Locations))
			continue
		}
		pl := r.Locations[0].PhysicalLocation
		if !strings.HasPrefix(pl.ArtifactLocation.URI, "testdata/demo/") {
			t.Errorf("%s: uri %q, want one relative to the repository root", r.Message.Text, pl.ArtifactLocation.URI)
		}
		if needsLine[r.Message.Text] {
			lines++
			if pl.Region == nil || pl.Region.StartLine < 1 {
				t.Errorf("%s: no line", r.Message.Text)
			}
		}
		if strings.HasPrefix(r.Message.Text, "DemoVoices:") && (pl.ArtifactLocation.URI != "testdata/demo/System/Demo.ini" || pl.Region == nil || pl.Region.StartLine != 25) {
			t.Errorf("DemoVoices at %+v, want Demo.ini line 25", pl)
		}
	}
	if lines < 5 {
		t.Errorf("only %d results need a line", lines)
	}
}

// TestCheckGitHub: --format github prints one workflow command per
// finding, the ServerPackages line's finding on that ini line.
func TestCheckGitHub(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	out, _, code := runCLI(t, "check", "--ini", demoIni, "--format", "github", "--root-dir", root)
	if code != exitFindings {
		t.Fatalf("code %d", code)
	}
	cmd := regexp.MustCompile(`^::(error|warning|notice) ((?:[a-z]+=[^,:]*)(?:,[a-z]+=[^,:]*)*)::(.+)$`)
	found := false
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		m := cmd.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("not a workflow command: %q", line)
		}
		if strings.HasPrefix(m[3], "DemoVoices:") {
			found = true
			if !strings.Contains(m[2], "file=testdata/demo/System/Demo.ini,line=25") || m[1] != "error" {
				t.Errorf("DemoVoices: %q", line)
			}
		}
	}
	if !found {
		t.Error("no DemoVoices annotation")
	}
	if _, errOut, code := runCLI(t, "check", "--ini", demoIni, "--format", "github", "--json"); code != exitError || !strings.Contains(errOut, "use one") {
		t.Errorf("--json with --format github: code %d, %s", code, errOut)
	}
	if _, errOut, code := runCLI(t, "check", "--ini", demoIni, "--format", "xml"); code != exitError || !strings.Contains(errOut, "checkstyle") {
		t.Errorf("--format xml: code %d, %s", code, errOut)
	}
}

// TestCheckBaseline: a baseline of today's findings makes the next check
// clean (exit 0, no findings); deleting one more package file brings back
// exactly the findings it causes.
func TestCheckBaseline(t *testing.T) {
	demo := copyDemo(t)
	ini := filepath.Join(demo, "System", "Demo.ini")
	b := filepath.Join(t.TempDir(), "b.json")
	if _, errOut, code := runCLI(t, "check", "--ini", ini, "--write-baseline", b); code != exitOK || !strings.Contains(errOut, "wrote") {
		t.Fatalf("--write-baseline: code %d, %s", code, errOut)
	}
	out, errOut, code := runCLI(t, "check", "--ini", ini, "--baseline", b, "--json")
	if code != exitOK {
		t.Fatalf("--baseline: code %d, %s", code, errOut)
	}
	var rep check.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 0 || rep.Suppressed == nil || rep.Suppressed.InBaseline == 0 || rep.Suppressed.Fixed != 0 {
		t.Fatalf("with the baseline: %d findings, suppressed %+v", len(rep.Findings), rep.Suppressed)
	}
	// Writing again: the same bytes are fine, other bytes are refused.
	if _, errOut, code := runCLI(t, "check", "--ini", ini, "--write-baseline", b); code != exitOK {
		t.Fatalf("same baseline again: code %d, %s", code, errOut)
	}
	if err := os.Remove(filepath.Join(demo, "Textures", "DemoTex.utx")); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "check", "--ini", ini, "--write-baseline", b); code != exitError || !strings.Contains(errOut, "--force") {
		t.Fatalf("different baseline without --force: code %d, %s", code, errOut)
	}
	plainOut, _, _ := runCLI(t, "check", "--ini", ini, "--json")
	var plain check.Report
	if err := json.Unmarshal([]byte(plainOut), &plain); err != nil {
		t.Fatal(err)
	}
	out, _, code = runCLI(t, "check", "--ini", ini, "--baseline", b, "--json")
	if code != exitFindings {
		t.Fatalf("after deleting DemoTex.utx: code %d", code)
	}
	rep = check.Report{}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	// The new findings: DemoTex is missing now; its missing object is gone
	// (counted as fixed).
	var got []string
	for _, f := range rep.Findings {
		got = append(got, string(f.Kind)+" "+f.Package)
	}
	if strings.Join(got, ",") != "missing_package DemoTex" {
		t.Errorf("new findings %v, want [missing_package DemoTex]", got)
	}
	if rep.Suppressed.Fixed != 1 || rep.Suppressed.InBaseline != len(plain.Findings)-1 {
		t.Errorf("suppressed %+v; plain check %d findings", rep.Suppressed, len(plain.Findings))
	}
	// --fail-on none exits 0 with the same findings; a broken baseline is
	// an error naming the file.
	if _, _, code := runCLI(t, "check", "--ini", ini, "--baseline", b, "--fail-on", "none"); code != exitOK {
		t.Errorf("--fail-on none: code %d", code)
	}
	if err := os.WriteFile(b, []byte("{\"schema_version\": 1, \"findings\": [}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "check", "--ini", ini, "--baseline", b); code != exitError || !strings.Contains(errOut, b) {
		t.Errorf("broken baseline: code %d, %s", code, errOut)
	}
}

// TestCheckDisable: --disable leaves kinds out (also from upkdeps.yaml),
// --enable brings one back, a misspelt kind is a usage error with a hint,
// and --fail-on warning fails on warnings alone.
func TestCheckDisable(t *testing.T) {
	ini, _ := filepath.Abs(demoIni)
	kinds := func(args ...string) (map[string]bool, int) {
		t.Helper()
		out, errOut, code := runCLI(t, append([]string{"check", "--ini", ini, "--json"}, args...)...)
		if code == exitError {
			t.Fatalf("%v: %s", args, errOut)
		}
		var rep check.Report
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		m := map[string]bool{}
		for _, f := range rep.Findings {
			m[string(f.Kind)] = true
		}
		return m, code
	}
	all, _ := kinds()
	if !all["missing_package"] || !all["shadowed"] {
		t.Fatalf("demo kinds: %v", all)
	}
	got, _ := kinds("--disable", "shadowed,collision")
	if got["shadowed"] || got["collision"] || !got["missing_package"] {
		t.Errorf("--disable shadowed,collision: %v", got)
	}
	t.Chdir(t.TempDir())
	if err := os.WriteFile("upkdeps.yaml", []byte("disable: [shadowed, cycle]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, _ = kinds()
	if got["shadowed"] || got["cycle"] {
		t.Errorf("config disable: %v", got)
	}
	got, _ = kinds("--enable", "cycle")
	if got["shadowed"] || !got["cycle"] {
		t.Errorf("config disable, --enable cycle: %v", got)
	}
	if _, errOut, code := runCLI(t, "check", "--ini", ini, "--disable", "shadowd"); code != exitError || !strings.Contains(errOut, "did you mean shadowed") {
		t.Errorf("misspelt kind: code %d, %s", code, errOut)
	}
	errorKinds := "missing_package,missing_object,edit_order,server_side_only,unreadable"
	if _, code := kinds("--disable", errorKinds); code != exitOK {
		t.Errorf("warnings only: code %d, want 0", code)
	}
	if _, code := kinds("--disable", errorKinds, "--fail-on", "warning"); code != exitFindings {
		t.Errorf("warnings only, --fail-on warning: code %d, want 1", code)
	}
}

// TestOtherCommandsFormat: order, headers --check and redirect verify
// print valid SARIF and workflow commands located at the cause.
func TestOtherCommandsFormat(t *testing.T) {
	githubLine := regexp.MustCompile(`^::(error|warning|notice) [^:]*::.+$`)
	check := func(name string, code int, sarif, github string, want string) {
		t.Helper()
		if code != exitFindings {
			t.Errorf("%s: code %d, want 1", name, code)
		}
		testutil.ValidateSARIF(t, []byte(sarif))
		found := false
		for _, line := range strings.Split(strings.TrimSuffix(github, "\n"), "\n") {
			if !githubLine.MatchString(line) {
				t.Errorf("%s: not a workflow command: %q", name, line)
			}
			found = found || strings.Contains(line, want)
		}
		if !found {
			t.Errorf("%s: no annotation with %q in\n%s", name, want, github)
		}
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	run := func(f string, args ...string) (string, int) {
		out, errOut, code := runCLI(t, append(args, "--format", f, "--root-dir", root)...)
		if code == exitError {
			t.Fatalf("%v: %s", args, errOut)
		}
		return out, code
	}
	s, code := run("sarif", "order", "--ini", demoIni)
	g, _ := run("github", "order", "--ini", demoIni)
	check("order", code, s, g, "file=testdata/demo/DemoGame/Classes/DemoGameInfo.uc,line=6,")

	// headers --check: a stale header, its change at the source line.
	hroot := writeHeaderTree(t, headerTree)
	if _, errOut, code := runHeaders(t, hroot, "--root", hroot, "Core", "Engine", "Extra"); code != exitOK {
		t.Fatalf("write headers: %s", errOut)
	}
	edited := strings.Replace(headerTree["Engine/Classes/Actor.uc"], "var float Mass;\nvar name Tag;\n", "var name Tag;\nvar int Mass;\nvar byte Team;\n", 1)
	if err := os.WriteFile(filepath.Join(hroot, "Engine", "Classes", "Actor.uc"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	hargs := []string{"headers", "--root", hroot, "Core", "Engine", "Extra", "--check", "--root-dir", hroot}
	s, _, code = runCLI(t, append(hargs, "--format", "sarif")...)
	g, _, _ = runCLI(t, append(hargs, "--format", "github")...)
	check("headers", code, s, g, "file=Engine/Classes/Actor.uc,line=")
	if _, errOut, code := runCLI(t, "headers", "--root", hroot, "Core", "--format", "sarif"); code != exitError || !strings.Contains(errOut, "--check") {
		t.Errorf("headers --format sarif without --check: code %d, %s", code, errOut)
	}

	// redirect verify of an empty folder: every file missing.
	demo := copyDemo(t)
	dir := filepath.Join(t.TempDir(), "redirect")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	vargs := []string{"redirect", "verify", "--ini", filepath.Join(demo, "System", "Demo.ini"), "-o", dir, "--root-dir", filepath.Dir(dir)}
	s, _, code = runCLI(t, append(vargs, "--format", "sarif")...)
	g, _, _ = runCLI(t, append(vargs, "--format", "github")...)
	check("redirect verify", code, s, g, "::error file=redirect/DemoBase.u.uz,")
}
