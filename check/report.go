package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/index"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/search"
)

// SchemaVersion is the Report's schema_version: it grows when a field
// changes meaning or goes away (a new field does not change it).
const SchemaVersion = 3

// Report is the result of a check: what `upkdeps check --json` prints,
// field for field, and the data of the HTML report. Slices are [] in JSON,
// never null; findings are sorted (graph.SortFindings).
type Report struct {
	SchemaVersion  int    `json:"schema_version"`
	Ini            string `json:"ini"`             // the ini file checked
	Game           string `json:"game"`            // "UT99, UE1": the profile and engine generation
	Platform       string `json:"platform"`        // the file-name rules: "windows" or "linux"
	PlatformReason string `json:"platform_reason"` // why those rules
	// PackagesScanned are the package files read (missing ones not
	// counted); PackagesReadable those whose header and tables parse;
	// GitLFSPointers the scanned files that are Git LFS pointers.
	PackagesScanned  int `json:"packages_scanned"`
	PackagesReadable int `json:"packages_readable"`
	GitLFSPointers   int `json:"git_lfs_pointers"`
	// MissingPaths are the Paths entries whose folder does not exist, as
	// the ini writes them.
	MissingPaths []string        `json:"missing_paths"`
	CaseNotes    []CaseNote      `json:"case_notes"`
	Summary      Summary         `json:"summary"`
	Findings     []graph.Finding `json:"findings"`
	// WithCache is set by Options.WithCache; Index holds what Candidates
	// returns, With what RunWith returns.
	WithCache *WithCache `json:"with_cache,omitempty"`
	Index     *Index     `json:"index,omitempty"`
	With      *With      `json:"with,omitempty"`
	// Suppressed is set by ApplyBaseline and Disable.
	Suppressed *Suppressed `json:"suppressed,omitempty"`
	// roots maps the findings' root evidence to its ini line, for Ranked.
	roots map[string]ini.Reference
}

// Index is what Candidates returns: the candidates of each finding the
// index can help with, in finding order.
type Index struct {
	DB         string              `json:"db"`
	Candidates []FindingCandidates `json:"candidates"`
}

// FindingCandidates are the indexed copies that could fix one finding: for
// missing_package, the copies of the package (same GUID first when the
// install's download cache knows the GUID); for missing_object and
// class_mismatch, per object, the copies that export it with the class
// wanted.
type FindingCandidates struct {
	Kind       graph.FindingKind `json:"kind"`
	Package    string            `json:"package"`
	Object     string            `json:"object,omitempty"` // group path below the package
	Class      string            `json:"class,omitempty"`  // class wanted
	GUID       string            `json:"guid,omitempty"`   // the GUID a download cache pins
	Candidates []index.Package   `json:"candidates"`
	// Archive are the Unreal Archive's versions of a missing package
	// (items of the install's game only), after the local copies.
	Archive []index.ArchiveVersionSummary `json:"archive,omitempty"`
}

// Best returns the first candidate (the best: same GUID first, newest), or
// nil.
func (c FindingCandidates) Best() *index.Package {
	if len(c.Candidates) == 0 {
		return nil
	}
	return &c.Candidates[0]
}

// WithCache says what the download cache changes (Options.WithCache).
type WithCache struct {
	Cache             string     `json:"cache"` // the cache folder, relative to the game root
	PackagesInCache   int        `json:"packages_in_cache"`
	ResolvedFromCache []CacheUse `json:"resolved_from_cache"`
	// FindingsRemoved are the findings of a plain check that the cache
	// makes go away (or changes).
	FindingsRemoved []graph.Finding `json:"findings_removed"`
}

// CacheUse is a package the check found in the download cache.
type CacheUse struct {
	Name string `json:"name"`
	File string `json:"file"`
}

// Summary counts the findings.
type Summary struct {
	Errors   int                       `json:"errors"`
	Warnings int                       `json:"warnings"`
	ByKind   map[graph.FindingKind]int `json:"by_kind"`
	// ErrorsByKind and WarningsByKind split ByKind by severity.
	ErrorsByKind   map[graph.FindingKind]int `json:"errors_by_kind"`
	WarningsByKind map[graph.FindingKind]int `json:"warnings_by_kind"`
	// FixFirst are the three most important findings (Ranked), what the
	// text report leads with.
	FixFirst []FixFirst `json:"fix_first"`
}

// FixFirst names one of the most important findings and why it ranks so.
type FixFirst struct {
	Kind     graph.FindingKind `json:"kind"`
	Severity graph.Severity    `json:"severity"`
	Package  string            `json:"package"`
	Why      string            `json:"why"`
}

// CaseNote is a search.CaseNote in the report.
type CaseNote struct {
	Setting string   `json:"setting"`
	Value   string   `json:"value"`
	Kind    string   `json:"kind"`
	Want    string   `json:"want"`
	Have    string   `json:"have"`
	Folder  string   `json:"folder"`
	Files   []string `json:"files"`
	Count   int      `json:"count"`
	Message string   `json:"message"`
}

// caseNotes returns the install's case notes, [] when none.
func caseNotes(s *search.Searcher) []CaseNote {
	out := []CaseNote{}
	for _, n := range s.CaseNotes() {
		files := n.Files
		if files == nil {
			files = []string{}
		}
		out = append(out, CaseNote{Setting: n.Setting, Value: n.Value, Kind: n.Kind, Want: n.Want, Have: n.Have,
			Folder: n.Folder, Files: files, Count: n.Count, Message: n.Message})
	}
	return out
}

// Ranked returns the report's findings in the order the text report
// shows them (errors that stop a server first, then by severity and the packages touched).
func (r *Report) Ranked() []graph.Finding {
	ranked := rankFindings(r.Findings, r.roots)
	out := make([]graph.Finding, len(ranked))
	for i, f := range ranked {
		out[i] = f.Finding
	}
	return out
}

// MissingPackages returns the report's missing_package findings, in
// finding order: the packages the install lacks, each with what needs it
// (NeededBy: the importers; Roots: the ini lines and maps).
func (r *Report) MissingPackages() []graph.Finding {
	var out []graph.Finding
	for _, f := range r.Findings {
		if f.Kind == graph.MissingPackage {
			out = append(out, f)
		}
	}
	return out
}

// Needed is a missing package and how many importers and ini lines need
// it.
type Needed struct {
	Package string
	Need    int
}

// String is "Name (N)", as the text and HTML reports list it.
func (n Needed) String() string { return fmt.Sprintf("%s (%d)", n.Package, n.Need) }

// MostNeeded returns at most n missing packages with the most importers
// and ini lines, most first (ties in finding order); the game's own
// packages that a stock_missing finding lists are left to it (listed
// apart).
func (r *Report) MostNeeded(n int) []Needed {
	stock := map[string]bool{}
	for _, f := range r.Findings {
		if f.Kind == graph.StockMissing {
			for _, p := range f.Packages {
				stock[strings.ToLower(p)] = true
			}
		}
	}
	var out []Needed
	for _, f := range r.MissingPackages() {
		if !stock[strings.ToLower(f.Package)] {
			out = append(out, Needed{f.Package, len(f.NeededBy) + len(f.Roots)})
		}
	}
	slices.SortStableFunc(out, func(a, b Needed) int { return b.Need - a.Need })
	return out[:min(n, len(out))]
}
