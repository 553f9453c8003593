package check

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/internal/suggest"
)

// KindError is a finding kind that Rules does not list; Near is the
// nearest kind it does ("" when none is near).
type KindError struct {
	Kind, Near string
}

func (e *KindError) Error() string {
	msg := fmt.Sprintf("unknown finding kind %q", e.Kind)
	if e.Near != "" {
		msg += fmt.Sprintf("; did you mean %s?", e.Near)
	}
	return msg
}

// ParseKinds reads finding kinds by their rule IDs (Rules), as a config
// or a command line lists them for Report.Disable: spaces around a kind
// are trimmed and empty entries skipped. An unknown kind is a *KindError.
func ParseKinds(list []string) ([]graph.FindingKind, error) {
	var ids []string
	for _, r := range Rules() {
		ids = append(ids, r.ID)
	}
	var out []graph.FindingKind
	for _, s := range list {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if !slices.Contains(ids, s) {
			return nil, &KindError{Kind: s, Near: suggest.Nearest(s, ids)}
		}
		out = append(out, graph.FindingKind(s))
	}
	return out, nil
}

// ErrFailOn is FailsAt's error for a level it does not know.
var ErrFailOn = errors.New("want error, warning or none")

// FailsAt says whether the report fails a check that fails on findings of
// level or worse: "error" (also ""), "warning", or "none" (never).
// Another level is ErrFailOn.
func (r *Report) FailsAt(level string) (bool, error) {
	switch level {
	case "", "error":
		return r.Summary.Errors > 0, nil
	case "warning":
		return r.Summary.Errors+r.Summary.Warnings > 0, nil
	case "none":
		return false, nil
	}
	return false, ErrFailOn
}
