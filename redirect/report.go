package redirect

// ReportSchemaVersion is the schema_version of BuildReport's and
// VerifyReport's JSON forms (what `upkdeps redirect build --json` and
// `redirect verify --json` print; docs/json.md).
const ReportSchemaVersion = 1

// Server names the install whose package map a report is about: its game
// ini, game and file-name rules, as MapOptions.Server gave them.
type Server struct {
	Ini      string `json:"ini"`
	Game     string `json:"game"`     // the game profile, as the install labels it
	Platform string `json:"platform"` // the file-name rules: windows, linux or ""
}

// Summary counts a report's findings by severity and by kind.
type Summary struct {
	Errors   int            `json:"errors"`
	Warnings int            `json:"warnings"`
	ByKind   map[string]int `json:"by_kind"`
}

// BuildSummary counts a build's files by what happened to them
// (BuildReport.Counts; manifest.json included) and its findings.
type BuildSummary struct {
	Created int `json:"created"`
	Updated int `json:"updated"`
	Kept    int `json:"kept"`
	Failed  int `json:"failed"`
	Summary
}

// summarize counts fs.
func summarize(fs []Finding) Summary {
	s := Summary{ByKind: map[string]int{}}
	for _, f := range fs {
		if f.Severity == Error {
			s.Errors++
		} else {
			s.Warnings++
		}
		s.ByKind[string(f.Kind)]++
	}
	return s
}

// finish fills what a build's report says of the map and its counts.
func (r *BuildReport) finish(m *Map) {
	r.SchemaVersion, r.Server = ReportSchemaVersion, m.Server
	r.Maps, r.ServerPackages, r.Packages = orEmpty(m.Maps), orEmpty(m.ServerPackages), len(m.Published())
	r.Actions, r.Findings = orEmpty(r.Actions), orEmpty(r.Findings)
	r.Summary = BuildSummary{Summary: summarize(r.Findings)}
	r.Summary.Created, r.Summary.Updated, r.Summary.Kept, r.Summary.Failed = r.Counts()
}

// finish fills what a verify's report says of the map and its counts.
func (r *VerifyReport) finish(m *Map) {
	r.SchemaVersion, r.Server, r.Maps = ReportSchemaVersion, m.Server, orEmpty(m.Maps)
	r.Findings = orEmpty(r.Findings)
	r.Summary = summarize(r.Findings)
}

// orEmpty returns s, or an empty slice for nil (a JSON [], not null).
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
