package unrealarchive

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestNewPlanReport: the report of a plan names the install first, lists
// the missing packages in the request's order, each download with its
// item's summary, and prints [] for lists the plan left nil.
func TestNewPlanReport(t *testing.T) {
	items := []Item{item(1, "pack-ab", true, true, "A.utx", "B.u")}
	req := PlanRequest{Missing: []Need{{Name: "B", Code: true}, {Name: "A"}}, Games: []string{"Unreal Tournament"}}
	in := Install{Ini: "Server.ini", Game: "ut99", Platform: "linux", Index: "index.db"}
	rep := NewPlanReport(in, 7, req, Plan(items, req))
	if rep.SchemaVersion != PlanSchemaVersion || rep.Install != in || rep.ItemsKnown != 7 || !slices.Equal(rep.Missing, []string{"B", "A"}) ||
		len(rep.Downloads) != 1 || rep.Downloads[0].Item.Name != "pack-ab" || rep.Downloads[0].Needed == nil || rep.Unprovided == nil || !rep.Exact {
		t.Errorf("report: %+v", rep)
	}
	js, err := json.Marshal(rep)
	if err != nil || !strings.HasPrefix(string(js), `{"schema_version":2,"ini":"Server.ini","game":"ut99","platform":"linux","index":"index.db","archive_games":`) ||
		strings.Contains(string(js), "null") || strings.Contains(string(js), "bound") {
		t.Errorf("JSON %s, %v", js, err)
	}
	empty := NewPlanReport(in, 0, PlanRequest{}, PlanResult{})
	if empty.Missing == nil || empty.Downloads == nil || empty.Unprovided == nil {
		t.Errorf("empty report: %+v", empty)
	}
}
