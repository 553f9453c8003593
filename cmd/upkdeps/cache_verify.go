package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/cache"
)

func newCacheVerifyCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "verify [--ini INI | --cache DIR] [--json]",
		Short: "Report the cache's problems; exit 1 if there are any",
		Long: `verify reports what is wrong in the cache. Errors (exit 1): a file that is not a package
(not_a_package), a file whose header GUID is not its name (guid_mismatch), an entry the engine
would never use because the install has another version of the package (installed_other).
Warnings (exit 0): cache.ini lines without their file (missing_file: PurgeCacheDays leaves
these), files without a cache.ini name (orphan_file), [Cache] lines that are not cache keys,
and stray download files (????.tmp; .uz data when the server's redirect compresses).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := a.openCache(cmd.Context(), "")
			if err != nil {
				return err
			}
			rep := v.verify()
			return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return v.writeVerify(w, rep) }, rep.Summary.Errors > 0)
		},
	}
	cmd.Flags().Bool("json", false, "print the problems as JSON")
	return cmd
}

// cacheVerifyJSON is `cache verify --json` output (docs/json.md).
type cacheVerifyJSON struct {
	SchemaVersion int                `json:"schema_version"`
	Cache         string             `json:"cache"`
	Problems      []cacheProblemJSON `json:"problems"`
	Summary       cacheVerifySummary `json:"summary"`
}

type cacheProblemJSON struct {
	Severity   string  `json:"severity"`
	State      string  `json:"state"`
	GUID       *string `json:"guid"`
	Generation int     `json:"generation"`
	Name       *string `json:"name"`
	File       *string `json:"file"`
	Message    string  `json:"message"`
	subject    string  // text output: key and name, or the file
}

type cacheVerifySummary struct {
	Entries  int `json:"entries"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
}

// verify collects problems: errors first, then warnings, each in entry
// order, strays and bad lines last.
func (v *cacheView) verify() cacheVerifyJSON {
	rep := cacheVerifyJSON{SchemaVersion: 1, Cache: v.c.Dir, Problems: []cacheProblemJSON{}}
	entries := v.c.Entries()
	rep.Summary.Entries = len(entries)
	var errs, warns []cacheProblemJSON
	for _, e := range entries {
		p := cacheProblemJSON{State: string(e.State), GUID: ptr(e.GUID), Generation: e.Generation, Name: ptr(e.Name), File: ptr(e.File),
			subject: strings.TrimSpace(e.Key + " " + cache.Printable(e.Name))}
		switch e.State {
		case cache.StateNotAPackage:
			p.Message = "not a package: " + e.Detail
		case cache.StateGUIDMismatch:
			p.Message = fmt.Sprintf("the file is named %s but its header says %s", e.GUID, e.HeaderGUID)
		case cache.StateInstalledOther:
			p.Message = fmt.Sprintf("the engine loads %s (%s) instead: clients get a version mismatch", e.Installed, e.Detail)
		case cache.StateMissingFile:
			p.Message = "cache.ini names it but the file is gone (purged?)"
		case cache.StateOrphanFile:
			p.Message = "the file has no name in cache.ini"
		default:
			continue
		}
		if e.State.IsProblem() {
			p.Severity = "error"
			errs = append(errs, p)
		} else {
			p.Severity = "warning"
			warns = append(warns, p)
		}
	}
	for _, b := range v.c.BadLines() {
		warns = append(warns, cacheProblemJSON{Severity: "warning", State: "bad_key", File: ptr(v.c.IniPath()),
			Message: fmt.Sprintf("line %d: key %s is not a cache key", b.Line, cache.Printable(b.Key)), subject: v.rel(v.c.IniPath())})
	}
	for _, s := range v.c.Strays() {
		msg := "stray download file: " + s.Kind
		if s.Original != "" {
			msg += " of " + cache.Printable(s.Original)
		}
		warns = append(warns, cacheProblemJSON{Severity: "warning", State: "stray", File: ptr(s.File), Message: msg, subject: v.rel(s.File)})
	}
	rep.Problems = append(append(rep.Problems, errs...), warns...)
	rep.Summary.Errors, rep.Summary.Warnings = len(errs), len(warns)
	return rep
}

func (v *cacheView) writeVerify(w io.Writer, rep cacheVerifyJSON) error {
	bw := &errWriter{w: w}
	bw.printf("%s", v.header())
	for _, p := range rep.Problems {
		bw.printf("%-7s  %-15s  %s: %s\n", p.Severity, p.State, p.subject, p.Message)
	}
	bw.printf("%d entries: %d errors, %d warnings\n", rep.Summary.Entries, rep.Summary.Errors, rep.Summary.Warnings)
	return bw.err
}
