package cache

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/upkdeps/upkdeps/internal/textw"
	"github.com/upkdeps/upkdeps/search"
)

// View is an opened cache as the cache commands show it: the folder its
// paths are shown relative to, the game its header names and, when it was
// opened through an install (install.Install.OpenCache), the Searcher its
// entries were classified against.
type View struct {
	*Cache
	// Root is the folder paths are shown relative to: the game root, or
	// the cache's parent for a bare cache folder.
	Root string
	// Game labels the cache in the header: the install's game and rules,
	// or "UE1"/"UE2" for a bare cache folder.
	Game string
	// Search is the installation the entries were classified against; nil
	// for a bare cache folder.
	Search *search.Searcher
}

// OpenView opens a bare cache folder (Open), with no installation: its
// paths are shown relative to its parent and its game is its generation.
func OpenView(ctx context.Context, dir string, opt Options) (*View, error) {
	c, err := Open(ctx, dir, opt)
	if err != nil {
		return nil, err
	}
	return &View{Cache: c, Root: filepath.Dir(c.Dir), Game: fmt.Sprintf("UE%d", c.Generation)}, nil
}

// Rel shows path relative to the view's Root with "/", or as it is when
// it lies outside; "" stays "".
func (v *View) Rel(path string) string {
	if path == "" {
		return ""
	}
	r, err := filepath.Rel(v.Root, path)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(r)
}

// Header is the first line of the text of cache list and verify: the
// folder, the game, the cache file names and cache.ini.
func (v *View) Header() string {
	files := "GUID" + v.Ext
	if v.Generation == 2 {
		files = "GUID-Gen" + v.Ext
	}
	ini := "no cache.ini"
	if v.HasIni() {
		ini = v.Rel(v.IniPath())
	}
	return fmt.Sprintf("Cache: %s (%s; files %s; %s)\n", v.Rel(v.Dir), v.Game, files, ini)
}

// PlanExtract is Cache.PlanExtract with the Paths and System folder of the
// view's installation, when it has one.
func (v *View) PlanExtract(opt ExtractOptions) *Plan {
	if v.Search != nil {
		opt.Paths = v.Search.PlacementPaths()
		opt.SystemDir = v.Search.Dir()
	}
	return v.Cache.PlanExtract(opt)
}

// PlanClean is Cache.PlanClean against the view's installation, when it
// has one.
func (v *View) PlanClean(opt CleanOptions) *Plan {
	if v.Search != nil {
		opt.Installation = v.Search
	}
	return v.Cache.PlanClean(opt)
}

// WriteList writes the entries and strays as cache list prints them
// without --json: the header, a table of the entries (key, state, size,
// version, original name and, for an installed one, the installed file),
// the stray download files and a count per state.
func (v *View) WriteList(w io.Writer) error {
	bw := &textw.Writer{W: w}
	bw.Printf("%s", v.Header())
	entries := v.Entries()
	keyW := len("KEY")
	for _, e := range entries {
		keyW = max(keyW, len(e.Key))
	}
	counts := map[State]int{}
	if len(entries) > 0 {
		bw.Printf("%-*s  %-15s  %9s  %3s  %s\n", keyW, "KEY", "STATE", "SIZE", "VER", "NAME")
	}
	for _, e := range entries {
		counts[e.State]++
		size, ver := "-", "-"
		if e.File != "" {
			size = fmt.Sprint(e.Size)
		}
		if e.Version != 0 {
			ver = fmt.Sprint(e.Version)
		}
		name := Printable(e.Name)
		if e.Name == "" {
			name = "-"
		}
		if e.Installed != "" && (e.State == StateInstalledSame || e.State == StateInstalledOther) {
			name += "  (installed: " + e.Installed + ")"
		}
		bw.Printf("%-*s  %-15s  %9s  %3s  %s\n", keyW, e.Key, e.State, size, ver, name)
	}
	strays := v.Strays()
	if len(strays) > 0 {
		bw.Printf("\nStray download files:\n")
		for _, s := range strays {
			what := s.Kind
			if s.Original != "" {
				what += " of " + Printable(s.Original)
			}
			bw.Printf("  %s  %d bytes  %s\n", v.Rel(s.File), s.Size, what)
		}
	}
	bw.Printf("\n%s\n", listSummary(len(entries), counts, len(strays)))
	return bw.Err
}

// stateOrder lists the states in the order cache list counts them.
var stateOrder = []State{StateOK, StateInstalledSame, StateInstalledOther,
	StateMissingFile, StateEmptyEntry, StateOrphanFile, StateGUIDMismatch, StateNotAPackage}

// listSummary is the last line of cache list: the entries, per state, and
// the stray download files.
func listSummary(n int, counts map[State]int, strays int) string {
	var parts []string
	for _, s := range stateOrder {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
		}
	}
	s := fmt.Sprintf("%d entries", n)
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	return s + fmt.Sprintf("; %d stray download %s", strays, textw.Plural(strays, "file", "files"))
}

// WriteVerify writes rep (the view's Verify) as cache verify prints it
// without --json: the header, one line per problem (severity, state,
// subject, message) and the counts.
func (v *View) WriteVerify(w io.Writer, rep VerifyReport) error {
	bw := &textw.Writer{W: w}
	bw.Printf("%s", v.Header())
	for _, p := range rep.Problems {
		subject := p.Subject
		if subject == "" && p.File != nil {
			subject = v.Rel(*p.File)
		}
		bw.Printf("%-7s  %-15s  %s: %s\n", p.Severity, p.State, subject, p.Message)
	}
	bw.Printf("%d entries: %d errors, %d warnings\n", rep.Summary.Entries, rep.Summary.Errors, rep.Summary.Warnings)
	return bw.Err
}
