package cache

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestVerify: on the UE1 fixture (every entry state, a bad line), errors
// come first, each problem has its severity by state, and the JSON form
// keeps null for what an entry lacks.
func TestVerify(t *testing.T) {
	f := newUE1Fixture(t)
	c := open(t, f.cache, Options{}, f.ini)
	rep := c.Verify()
	if rep.SchemaVersion != VerifySchemaVersion || rep.Cache != c.Dir || rep.Summary.Entries != len(c.Entries()) {
		t.Errorf("header: %+v", rep)
	}
	severity := map[string]string{"not_a_package": "error", "guid_mismatch": "error", "installed_other": "error",
		"missing_file": "warning", "orphan_file": "warning", "bad_key": "warning", "stray": "warning"}
	errs, warns, seenWarning := 0, 0, false
	states := map[string]int{}
	for _, p := range rep.Problems {
		states[p.State]++
		if want := severity[p.State]; p.Severity != want {
			t.Errorf("%s %s: severity %s, want %s", p.State, p.Subject, p.Severity, want)
		}
		switch p.Severity {
		case "error":
			errs++
			if seenWarning {
				t.Errorf("error %s after a warning: errors come first", p.State)
			}
		case "warning":
			warns++
			seenWarning = true
		}
		if p.Message == "" {
			t.Errorf("%s %s: no message", p.State, p.Subject)
		}
		if (p.State == "bad_key" || p.State == "stray") != (p.Subject == "") {
			t.Errorf("%s: subject %q (an entry's problem has one, a line's or stray's does not)", p.State, p.Subject)
		}
	}
	if rep.Summary.Errors != errs || rep.Summary.Warnings != warns || errs == 0 {
		t.Errorf("summary %+v, counted %d errors %d warnings", rep.Summary, errs, warns)
	}
	for _, s := range []string{"installed_other", "missing_file", "orphan_file", "bad_key"} {
		if states[s] == 0 {
			t.Errorf("no %s problem in the fixture's report: %v", s, states)
		}
	}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"name":null`) || strings.Contains(string(data), "Subject") {
		t.Errorf("JSON: want null names for nameless entries and no subject: %s", data)
	}
}
