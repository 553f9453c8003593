package cache

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/search"
)

// ExtractOptions say which entries PlanExtract moves and where.
type ExtractOptions struct {
	// Paths are the ini's [Core.System] Paths as written, in order, and
	// SystemDir is the folder they are relative to (the ini's folder): the
	// engine's rule picks each entry's folder from them (see TargetDir).
	Paths     []string
	SystemDir string
	// To, when set, is the folder for every entry instead.
	To string
	// Keys selects entries (see Select); nil means every entry with a file.
	Keys []string
	// Force replaces an installed file that has other content.
	Force bool
	// Keep copies only: the cache file and its cache.ini line stay.
	Keep bool
}

// PlanExtract plans moving cache entries into the installation as the
// engine's MoveCacheEntry does: the file is copied to the target folder
// under its original name, the cache file removed and its cache.ini value
// emptied ("GUID=" in UE1, "GUID-Gen=" in UE2: the engine keeps the key with
// an empty value). Unlike the engine, it refuses a name that is not a plain
// file name, never replaces a file with other content unless forced, and
// refuses two entries that would land on the same file.
//
// An entry without a file whose target already holds a package with the
// entry's GUID is a move that was interrupted after the copy: the plan only
// marks it moved. Classify first, so that entries shadowed by another
// installed version are recognised.
//
// With every entry selected, entries without a file (missing, empty) are
// left out of the plan; named ones get a skip line.
func (c *Cache) PlanExtract(opt ExtractOptions) *Plan {
	x := &extractPlanner{c: c, opt: opt}
	if opt.Keys != nil {
		x.sel = map[string]bool{}
		for _, k := range opt.Keys {
			x.sel[strings.ToUpper(k)] = true
		}
	}
	for i := range c.entries {
		e := &c.entries[i]
		if x.sel == nil || x.sel[e.Key] {
			x.classify(e)
		}
	}
	x.refuseShared()
	p := c.newWritePlan()
	x.removeStaleTemps(p)
	x.emit(p)
	return p
}

// extractPlanner makes one extraction plan in steps: classify each
// selected entry as a move, a recovery or a skip line (classify), refuse
// entries that would land on one file (refuseShared), then write the plan
// (removeStaleTemps, emit). The plan keeps entry order.
type extractPlanner struct {
	c     *Cache
	opt   ExtractOptions
	sel   map[string]bool // selected keys, upper-cased; nil: every entry
	items []extractItem
}

// extractItem is what one entry becomes.
type extractItem struct {
	e       *Entry
	skip    *Action // a skip or refuse line instead of a move
	dst     string
	recover bool // only the cache.ini line is left to do
}

func (x *extractPlanner) skip(e *Entry, op Op, why Reason) {
	x.items = append(x.items, extractItem{e: e, skip: &Action{Op: op, Subject: subject(e), Why: why}})
}

// classify decides what becomes of one selected entry.
func (x *extractPlanner) classify(e *Entry) {
	if why, op, ok := x.unmovable(e); ok {
		if why != nil {
			x.skip(e, op, *why)
		}
		return
	}
	dst, index, ok := x.target(e)
	if !ok {
		return
	}
	if e.State == StateMissingFile {
		if !x.opt.Keep && headerGUID(dst) == e.GUID {
			x.items = append(x.items, extractItem{e: e, dst: dst, recover: true})
		} else if x.sel != nil {
			x.skip(e, OpSkip, because("no file in the cache"))
		}
		return
	}
	// Another installed file that the engine finds for the name: the same
	// package makes the copy pointless; another version hides the copy
	// unless the copy's Paths entry comes first (the name as given and --to
	// folders count as coming after).
	if e.InstalledFile != "" && !samePath(e.InstalledFile, dst) {
		hidden := index < 0 || e.installedIndex < index
		switch {
		case e.State == StateInstalledSame:
			x.skip(e, OpSkip, becausePath("already installed as ", e.InstalledFile, ""))
			return
		case e.State == StateInstalledOther && hidden && !x.opt.Force:
			x.skip(e, OpRefuse, becausePath("the engine would still load ", e.InstalledFile,
				fmt.Sprintf(" (GUID %s) first", e.InstalledGUID)).with(Hint{Option: OptionForce, Would: "copy anyway"}))
			return
		}
	}
	x.items = append(x.items, extractItem{e: e, dst: dst})
}

// unmovable reports (ok) whether the entry's state or name rules out a
// move, with the line to show for it (nil: none, for entries left out of
// a plan of every entry).
func (x *extractPlanner) unmovable(e *Entry) (*Reason, Op, bool) {
	refuse := func(text string) (*Reason, Op, bool) { r := because(text); return &r, OpRefuse, true }
	switch e.State {
	case StateEmptyEntry:
		if x.sel != nil {
			r := because("already moved (cache.ini has no name for it)")
			return &r, OpSkip, true
		}
		return nil, OpSkip, true
	case StateOrphanFile:
		r := because("cache.ini has no name for this file")
		return &r, OpSkip, true
	case StateNotAPackage:
		return refuse("not a package: " + e.Detail)
	case StateGUIDMismatch:
		return refuse("the file holds another package: " + e.Detail)
	}
	if err := fsutil.SafeFileName(e.Name); err != nil {
		var ne *fsutil.NameError
		reason := err.Error()
		if errors.As(err, &ne) {
			reason = ne.Reason
		}
		return refuse("unsafe file name: " + reason)
	}
	return nil, "", false
}

// target returns the file an entry is extracted to and the Paths entry
// it comes through (-1 for --to); ok is false when it has none, after
// adding the line that says why.
func (x *extractPlanner) target(e *Entry) (dst string, index int, ok bool) {
	dir, index := x.opt.To, -1
	if dir == "" {
		if dir, index = search.PlacementDir(e.Name, x.opt.Paths, x.opt.SystemDir); index < 0 {
			if e.State != StateMissingFile || x.sel != nil {
				x.skip(e, OpRefuse, because(fmt.Sprintf("no Paths entry takes %q files", filepath.Ext(e.Name))).
					with(Hint{Option: OptionTo, Would: "name a folder for them"}))
			}
			return "", 0, false
		}
	}
	dst = filepath.Join(dir, e.Name)
	if filepath.Dir(dst) != filepath.Clean(dir) {
		x.skip(e, OpRefuse, because("unsafe file name")) // SafeFileName makes this unreachable
		return "", 0, false
	}
	if note := controlTarget(dst); note != "" {
		x.skip(e, OpRefuse, becausePath("", dst, note))
		return "", 0, false
	}
	return dst, index, true
}

// refuseShared refuses together the entries landing on one file (two
// versions of a package, or names differing only in case): which one the
// user wants is not ours to guess.
func (x *extractPlanner) refuseShared() {
	byDst := map[string][]int{}
	for i, it := range x.items {
		if it.skip == nil {
			k := strings.ToLower(it.dst)
			byDst[k] = append(byDst[k], i)
		}
	}
	for _, idx := range byDst {
		if len(idx) < 2 {
			continue
		}
		var keys []string
		for _, i := range idx {
			keys = append(keys, x.items[i].e.Key)
		}
		sort.Strings(keys)
		for _, i := range idx {
			it := &x.items[i]
			it.skip = &Action{Op: OpRefuse, Subject: subject(it.e),
				Why: becausePath(fmt.Sprintf("%d entries (%s) would be extracted to ", len(idx), strings.Join(keys, ", ")),
					it.dst, ": name one by its GUID")}
		}
	}
}

// removeStaleTemps adds the removal of the temporary files that a killed
// run left for this plan's own targets: only those, as another process
// may be writing other files in an install folder at this moment.
func (x *extractPlanner) removeStaleTemps(p *Plan) {
	targets := map[string][]string{} // folder -> target names
	for _, it := range x.items {
		if it.skip == nil && !it.recover && !samePath(filepath.Dir(it.dst), x.c.Dir) {
			dir := filepath.Dir(it.dst)
			targets[dir] = append(targets[dir], filepath.Base(it.dst))
		}
	}
	dirs := make([]string, 0, len(targets))
	for dir := range targets {
		dirs = append(dirs, dir)
	}
	slices.SortFunc(dirs, fsutil.ComparePaths)
	for _, dir := range dirs {
		temps, _ := fsutil.StaleTemps(dir, targets[dir])
		for _, tmp := range temps {
			p.Actions = append(p.Actions, Action{Op: OpRemove, Src: tmp, Why: because("left by an interrupted upkdeps write")})
		}
	}
}

// emit writes each item's actions: its skip line, or the mkdir, copy,
// removal and cache.ini line of a move.
func (x *extractPlanner) emit(p *Plan) {
	madeDir := map[string]bool{}
	for _, it := range x.items {
		switch {
		case it.skip != nil:
			p.Actions = append(p.Actions, *it.skip)
			continue
		case it.recover:
			p.Actions = append(p.Actions, x.c.iniAction(it.e.Key, "", it.e.Name, false))
			continue
		}
		copyAction, ok := x.copyAction(it)
		if !ok {
			p.Actions = append(p.Actions, copyAction)
			continue
		}
		dir := filepath.Dir(it.dst)
		if !madeDir[dir] {
			madeDir[dir] = true
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				p.Actions = append(p.Actions, Action{Op: OpMkdir, Dst: dir})
			}
		}
		p.Actions = append(p.Actions, copyAction)
		if !x.opt.Keep {
			p.Actions = append(p.Actions,
				Action{Op: OpRemove, Src: it.e.File, Why: because("moved to the install")},
				x.c.iniAction(it.e.Key, "", it.e.Name, false))
		}
	}
}

// copyAction returns the copy of a move as the target is now (a copy, an
// existing identical file, a forced replacement), or, with ok false, the
// refusal to touch the target.
func (x *extractPlanner) copyAction(it extractItem) (Action, bool) {
	e := it.e
	refuse := func(note string, h Hint) (Action, bool) {
		return Action{Op: OpRefuse, Subject: subject(e), Why: becausePath("", it.dst, note).with(h)}, false
	}
	st, err := os.Stat(it.dst)
	if err != nil {
		return Action{Op: OpCopy, Src: e.File, Dst: it.dst}, true
	}
	same, err := fsutil.SameContent(e.File, it.dst)
	switch {
	case st.IsDir():
		return refuse(" is a folder", Hint{})
	case err != nil:
		return refuse(": "+err.Error(), Hint{})
	case same:
		return Action{Op: OpExists, Src: e.File, Dst: it.dst}, true
	case !x.opt.Force:
		return refuse(" exists with other content"+guidNote(it.dst), Hint{Option: OptionForce, Would: "replace it"})
	}
	return Action{Op: OpReplace, Src: e.File, Dst: it.dst, Why: because("other content" + guidNote(it.dst)).with(Hint{Option: OptionForce, Used: true})}, true
}

// headerGUID returns the GUID in the package header of path, or "".
func headerGUID(path string) string {
	f, err := format.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	return f.GUID.String()
}

// guidNote describes the package at path for a conflict message.
func guidNote(path string) string {
	if g := headerGUID(path); g != "" {
		return ", GUID " + g
	}
	return ", not a package"
}
