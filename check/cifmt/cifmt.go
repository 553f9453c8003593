package cifmt

import (
	"cmp"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
)

// Format is an output format of a report.
type Format string

// Formats. Text and JSON are each command's own; the others are this
// package's.
const (
	Text       Format = "text"
	JSON       Format = "json"
	SARIF      Format = "sarif"
	GitHub     Format = "github"
	Checkstyle Format = "checkstyle"
)

// Formats lists every format, in the order --help shows them.
var Formats = []Format{Text, JSON, SARIF, GitHub, Checkstyle}

// ParseFormat returns the format named s (case aside).
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if strings.EqualFold(s, string(f)) {
			return f, nil
		}
	}
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return "", fmt.Errorf("unknown format %q: want %s", s, strings.Join(names, ", "))
}

// CI reports whether f is one of this package's formats (not text or JSON).
func (f Format) CI() bool { return f == SARIF || f == GitHub || f == Checkstyle }

// Level is how serious a result is, in SARIF's words.
type Level string

// Levels.
const (
	Error   Level = "error"
	Warning Level = "warning"
	Note    Level = "note"
)

// Rule describes one kind of result.
type Rule struct {
	ID    string // the kind, as in the JSON output: "missing_package"
	Short string // one line
	Full  string // what it means
	Help  string // what to do about it
	Level Level  // the level of most results of the kind
}

// Result is one finding.
type Result struct {
	Rule    string // a Rule's ID
	Level   Level
	Message string
	File    string // absolute, or relative to Log.Root; "" when nowhere
	Line    int    // 1-based; 0 for the whole file
	// Fingerprint identifies the result across runs (SARIF
	// partialFingerprints); "" for none.
	Fingerprint string
}

// Log is what one run of a command reports.
type Log struct {
	Tool    string // "upkdeps"
	Version string
	URI     string // the tool's home page
	Root    string // the repository root file names are made relative to
	Rules   []Rule
	Results []Result
}

// Write prints l in format f (SARIF, GitHub or Checkstyle).
func Write(w io.Writer, f Format, l *Log) error {
	switch f {
	case SARIF:
		return WriteSARIF(w, l)
	case GitHub:
		return WriteGitHub(w, l)
	case Checkstyle:
		return WriteCheckstyle(w, l)
	}
	return fmt.Errorf("cifmt: %s is not a CI format", f)
}

// rel returns file relative to l.Root with "/", or file with "/" when it
// is outside Root (or Root is "").
func (l *Log) rel(file string) string {
	if file == "" {
		return ""
	}
	if !filepath.IsAbs(file) {
		return filepath.ToSlash(file)
	}
	if l.Root != "" {
		root, err := filepath.Abs(l.Root)
		if err == nil {
			if r, err := filepath.Rel(root, file); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				return filepath.ToSlash(r)
			}
		}
	}
	return filepath.ToSlash(file)
}

// sorted returns l's results ordered by file, line, rule and message, so
// that every format is deterministic.
func (l *Log) sorted() []Result {
	out := slices.Clone(l.Results)
	slices.SortStableFunc(out, func(a, b Result) int {
		return cmp.Or(strings.Compare(l.rel(a.File), l.rel(b.File)), cmp.Compare(a.Line, b.Line),
			strings.Compare(a.Rule, b.Rule), strings.Compare(a.Message, b.Message))
	})
	return out
}
