package redirect

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestReports: Build's and Verify's reports carry what their JSON form
// prints: the server as the map's options named it, the map's maps and
// ServerPackages, the published count, lists that are [] and not null,
// and summaries that count the actions and findings.
func TestReports(t *testing.T) {
	s := modServer(t, 1)
	srv := Server{Ini: "Server.ini", Game: "ut99", Platform: "linux"}
	m := s.mapOf(t, MapOptions{Server: srv, Maps: "DM-*"})
	out := filepath.Join(t.TempDir(), "redirect")
	rep := build(t, m, BuildOptions{Out: out})
	created, updated, kept, failed := rep.Counts()
	sum := rep.Summary
	if rep.SchemaVersion != ReportSchemaVersion || rep.Server != srv || rep.Packages != len(m.Published()) ||
		len(rep.Maps) != 1 || rep.Maps[0] != "DM-Gen" || rep.ServerPackages == nil ||
		sum.Created != created || sum.Updated != updated || sum.Kept != kept || sum.Failed != failed || created == 0 {
		t.Errorf("build report: %+v", rep)
	}
	if sum.Errors+sum.Warnings != len(rep.Findings) || sum.ByKind[string(Stock)] == 0 {
		t.Errorf("build summary %+v of %d findings", sum, len(rep.Findings))
	}
	js, err := json.Marshal(rep)
	if err != nil || !strings.HasPrefix(string(js), `{"schema_version":1,"ini":"Server.ini","game":"ut99","platform":"linux","out":`) ||
		strings.Contains(string(js), "null") || strings.Contains(string(js), "removed") {
		t.Errorf("build JSON %s, %v", js, err)
	}

	v := verify(t, m, out)
	if v.SchemaVersion != ReportSchemaVersion || v.Server != srv || len(v.Maps) != 1 || v.Summary.Errors != 0 ||
		v.Summary.Warnings != len(v.Findings) {
		t.Errorf("verify report: %+v", v)
	}
	js, err = json.Marshal(v)
	if err != nil || !strings.HasPrefix(string(js), `{"schema_version":1,"ini":"Server.ini","game":"ut99","platform":"linux","dir":`) {
		t.Errorf("verify JSON %s, %v", js, err)
	}

	// An empty map still prints lists.
	dry := build(t, &Map{}, BuildOptions{Out: out, DryRun: true})
	if dry.Maps == nil || dry.ServerPackages == nil || dry.Actions == nil || dry.Summary.ByKind == nil {
		t.Errorf("empty map's build report: %+v", dry)
	}
}
