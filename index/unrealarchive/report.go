package unrealarchive

// PlanSchemaVersion is the schema_version of PlanReport's JSON form (what
// `upkdeps plan --json` prints; docs/json.md). 2: the index's file is
// "index" (it was "db").
const PlanSchemaVersion = 2

// Install names the install a plan is for and the index it was made from.
type Install struct {
	Ini      string `json:"ini"`
	Game     string `json:"game"`     // the game profile, as the install labels it
	Platform string `json:"platform"` // the file-name rules: windows, linux or ""
	Index    string `json:"index"`    // the package index's file
}

// PlanReport is a plan as `upkdeps plan --json` prints it: the install,
// the items it was chosen from, the missing packages asked for, the
// downloads in the plan's order and what no item provides.
type PlanReport struct {
	SchemaVersion int `json:"schema_version"`
	Install
	Games      []string       `json:"archive_games"` // the archive's games whose items were used
	ItemsKnown int            `json:"items_known"`   // items of those games in the index
	Missing    []string       `json:"missing"`       // the packages asked for, in the request's order
	Downloads  []PlanDownload `json:"downloads"`
	Unprovided []string       `json:"unprovided"`
	Exact      bool           `json:"exact"`
	Bound      float64        `json:"bound,omitempty"` // PlanResult.Bound, for a greedy plan
}

// PlanDownload is one item of a PlanReport.
type PlanDownload struct {
	Item   Summary  `json:"item"`
	Brings []string `json:"brings"`
	// Needed are those of Brings only the chosen items' own files need.
	Needed []string `json:"needed_by_others"`
}

// NewPlanReport returns the report of res, planned for req from known
// items of req.Games, for the install in.
func NewPlanReport(in Install, known int, req PlanRequest, res PlanResult) PlanReport {
	rep := PlanReport{SchemaVersion: PlanSchemaVersion, Install: in, Games: req.Games, ItemsKnown: known,
		Missing: []string{}, Downloads: []PlanDownload{}, Unprovided: orEmpty(res.Unprovided), Exact: res.Exact, Bound: res.Bound}
	for _, n := range req.Missing {
		rep.Missing = append(rep.Missing, n.Name)
	}
	for _, c := range res.Choices {
		rep.Downloads = append(rep.Downloads, PlanDownload{Item: c.Item.Summary(), Brings: c.Brings, Needed: orEmpty(c.Needed)})
	}
	return rep
}

// orEmpty returns s, or an empty slice for nil (a JSON [], not null).
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
