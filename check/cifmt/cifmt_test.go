package cifmt

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// testLog has a result of each shape: an ini line, a source line in a
// folder with a space, a whole file, a file outside the root, one with
// no file, and a message with every character the formats escape.
func testLog(t *testing.T) *Log {
	root := t.TempDir()
	return &Log{Tool: "upkdeps", Version: "v1.2.3", URI: "https://example.org/upkdeps", Root: root,
		Rules: []Rule{
			{ID: "missing_package", Short: "Missing package", Full: "full", Help: "help", Level: Error},
			{ID: "shadowed", Short: "Shadowed", Full: "full", Help: "help", Level: Warning},
		},
		Results: []Result{
			{Rule: "missing_package", Level: Error, Message: "Foo: named but missing", File: filepath.Join(root, "System", "Game.ini"), Line: 25, Fingerprint: "abc"},
			{Rule: "shadowed", Level: Warning, Message: "100% broken,\r\nreally: yes", File: filepath.Join(root, "My Mod", "Classes", "A.uc"), Line: 3},
			{Rule: "shadowed", Level: Warning, Message: "<&\"'>", File: filepath.Join(root, "Maps", "DM-A,b:c.unr")},
			{Rule: "missing_package", Level: Error, Message: "outside", File: filepath.Join(filepath.Dir(root), "elsewhere.u")},
			{Rule: "other", Level: Note, Message: "nowhere"},
		}}
}

// TestSARIFValidates checks the SARIF log against the OASIS SARIF 2.1.0
// schema (testdata/ORIGIN.md says where it comes from) and that each
// result keeps its rule, level and location.
func TestSARIFValidates(t *testing.T) {
	l := testLog(t)
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, l); err != nil {
		t.Fatal(err)
	}
	testutil.ValidateSARIF(t, buf.Bytes())
	var got struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID                   string
						DefaultConfiguration struct{ Level string }
					}
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex *int
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           *struct{ StartLine int }
					}
				}
				PartialFingerprints map[string]string
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	run := got.Runs[0]
	if len(run.Tool.Driver.Rules) != 2 || run.Tool.Driver.Rules[1].DefaultConfiguration.Level != "warning" {
		t.Errorf("rules: %+v", run.Tool.Driver.Rules)
	}
	where := map[string]string{}
	for _, r := range run.Results {
		loc := ""
		if len(r.Locations) > 0 {
			loc = r.Locations[0].PhysicalLocation.ArtifactLocation.URI
			if rg := r.Locations[0].PhysicalLocation.Region; rg != nil {
				loc += "#" + strings.Repeat("L", 1) + itoa(rg.StartLine)
			}
		}
		where[r.Message.Text] = loc
		if (r.RuleIndex == nil) != (r.RuleID == "other") {
			t.Errorf("%s: ruleIndex %v", r.RuleID, r.RuleIndex)
		}
	}
	want := map[string]string{
		"Foo: named but missing":      "System/Game.ini#L25",
		"100% broken,\r\nreally: yes": "My%20Mod/Classes/A.uc#L3",
		"<&\"'>":                      "Maps/DM-A,b:c.unr",
		"nowhere":                     "",
	}
	for msg, w := range want {
		if where[msg] != w {
			t.Errorf("%q located at %q, want %q", msg, where[msg], w)
		}
	}
	if !strings.HasPrefix(where["outside"], "file:///") {
		t.Errorf("a file outside the root: %q, want a file: URI", where["outside"])
	}
	for _, r := range run.Results {
		want := ""
		if r.Message.Text == "Foo: named but missing" {
			want = "abc"
		}
		if r.PartialFingerprints[FingerprintKey] != want {
			t.Errorf("%q: fingerprints %v, want %q", r.Message.Text, r.PartialFingerprints, want)
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestSchemaRejects makes sure the validation can fail: a log without
// version, and a result whose level SARIF does not know.
func TestSchemaRejects(t *testing.T) {
	s := testutil.SARIFSchema(t)
	for _, bad := range []string{
		`{"runs": []}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal"}]}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a"}, "region": {"startLine": 0}}}]}]}]}`,
	} {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if s.Validate(doc) == nil {
			t.Errorf("validates, want an error: %s", bad)
		}
	}
}

// workflowCommand is GitHub's "::cmd k=v,k=v::data" line.
var workflowCommand = regexp.MustCompile(`^::([a-z]+)(?: ([^:]*))?::(.*)$`)

// unescape undoes GitHub's escaping (the runner's rules, in reverse).
func unescape(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%").Replace(s)
}

// ParseWorkflowCommand splits a workflow command line into its command,
// properties and message, unescaped; ok is false when it is not one.
func ParseWorkflowCommand(line string) (cmd string, props map[string]string, msg string, ok bool) {
	m := workflowCommand.FindStringSubmatch(line)
	if m == nil {
		return "", nil, "", false
	}
	props = map[string]string{}
	if m[2] != "" {
		for _, kv := range strings.Split(m[2], ",") {
			k, v, found := strings.Cut(kv, "=")
			if !found {
				return "", nil, "", false
			}
			props[k] = unescape(v)
		}
	}
	return m[1], props, unescape(m[3]), true
}

func TestGitHub(t *testing.T) {
	l := testLog(t)
	var buf bytes.Buffer
	if err := WriteGitHub(&buf, l); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != len(l.Results) {
		t.Fatalf("%d lines for %d results:\n%s", len(lines), len(l.Results), buf.String())
	}
	type ann struct{ cmd, file, line, msg string }
	got := map[string]ann{}
	for _, line := range lines {
		cmd, props, msg, ok := ParseWorkflowCommand(line)
		if !ok {
			t.Fatalf("not a workflow command: %q", line)
		}
		if strings.ContainsAny(line, "\r\n") {
			t.Errorf("raw line break in %q", line)
		}
		got[msg] = ann{cmd, props["file"], props["line"], msg}
	}
	for msg, w := range map[string]ann{
		"Foo: named but missing":      {"error", "System/Game.ini", "25", ""},
		"100% broken,\r\nreally: yes": {"warning", "My Mod/Classes/A.uc", "3", ""},
		"<&\"'>":                      {"warning", "Maps/DM-A,b:c.unr", "", ""},
		"nowhere":                     {"notice", "", "", ""},
	} {
		g := got[msg]
		if g.cmd != w.cmd || g.file != w.file || g.line != w.line {
			t.Errorf("%q: got %+v, want %+v", msg, g, w)
		}
	}
	if e := EscapeProperty("a%b:c,d\r\ne"); e != "a%25b%3Ac%2Cd%0D%0Ae" {
		t.Errorf("EscapeProperty: %q", e)
	}
	if e := EscapeData("a%b:c,d\r\ne"); e != "a%25b:c,d%0D%0Ae" {
		t.Errorf("EscapeData: %q", e)
	}
}

func TestCheckstyle(t *testing.T) {
	l := testLog(t)
	var buf bytes.Buffer
	if err := WriteCheckstyle(&buf, l); err != nil {
		t.Fatal(err)
	}
	var got csRoot
	if err := xml.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	n := 0
	byMsg := map[string]string{}
	for _, f := range got.Files {
		for _, e := range f.Errors {
			n++
			byMsg[e.Message] = f.Name + ":" + itoa(e.Line) + ":" + e.Severity + ":" + e.Source
		}
	}
	if n != len(l.Results) {
		t.Fatalf("%d errors for %d results", n, len(l.Results))
	}
	for msg, w := range map[string]string{
		"Foo: named but missing":      "System/Game.ini:25:error:upkdeps.missing_package",
		"100% broken,\r\nreally: yes": "My Mod/Classes/A.uc:3:warning:upkdeps.shadowed",
		"<&\"'>":                      "Maps/DM-A,b:c.unr:0:warning:upkdeps.shadowed",
		"nowhere":                     ":0:info:upkdeps.other",
	} {
		if byMsg[msg] != w {
			t.Errorf("%q: %q, want %q", msg, byMsg[msg], w)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range Formats {
		if g, err := ParseFormat(strings.ToUpper(string(f))); err != nil || g != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, g, err)
		}
	}
	if _, err := ParseFormat("xml"); err == nil || !strings.Contains(err.Error(), "sarif") {
		t.Errorf("ParseFormat(xml): %v", err)
	}
}
