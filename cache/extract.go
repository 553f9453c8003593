package cache

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/fsutil"
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
	p := c.newWritePlan()
	var sel map[string]bool
	if opt.Keys != nil {
		sel = map[string]bool{}
		for _, k := range opt.Keys {
			sel[strings.ToUpper(k)] = true
		}
	}
	// Each selected entry becomes either a move or one skip/refuse line;
	// the plan keeps entry order.
	type item struct {
		e       *Entry
		skip    *Action
		dst     string
		recover bool // only the cache.ini line is left to do
	}
	var items []item
	for i := range c.entries {
		e := &c.entries[i]
		if sel != nil && !sel[e.Key] {
			continue
		}
		skip := func(op Op, reason string) {
			items = append(items, item{e: e, skip: &Action{Op: op, Subject: subject(e), Reason: reason}})
		}
		skipOther := func(op Op, reason, other, note string) {
			items = append(items, item{e: e, skip: &Action{Op: op, Subject: subject(e), Reason: reason, Other: other, Note: note}})
		}
		switch e.State {
		case StateEmptyEntry:
			if sel != nil {
				skip(OpSkip, "already moved (cache.ini has no name for it)")
			}
			continue
		case StateOrphanFile:
			skip(OpSkip, "cache.ini has no name for this file")
			continue
		case StateNotAPackage:
			skip(OpRefuse, "not a package: "+e.Detail)
			continue
		case StateGUIDMismatch:
			skip(OpRefuse, "the file holds another package: "+e.Detail)
			continue
		}
		if err := fsutil.SafeFileName(e.Name); err != nil {
			var ne *fsutil.NameError
			reason := err.Error()
			if errors.As(err, &ne) {
				reason = ne.Reason
			}
			skip(OpRefuse, "unsafe file name: "+reason)
			continue
		}
		dir, index := opt.To, -1
		if dir == "" {
			if dir, index = targetDir(e.Name, opt.Paths, opt.SystemDir); index < 0 {
				if e.State != StateMissingFile || sel != nil {
					skip(OpRefuse, fmt.Sprintf("no Paths entry takes %q files (use --to)", filepath.Ext(e.Name)))
				}
				continue
			}
		}
		dst := filepath.Join(dir, e.Name)
		if filepath.Dir(dst) != filepath.Clean(dir) {
			skip(OpRefuse, "unsafe file name") // SafeFileName makes this unreachable
			continue
		}
		if note := controlTarget(dst); note != "" {
			skipOther(OpRefuse, "", dst, note)
			continue
		}
		if e.State == StateMissingFile {
			if !opt.Keep && headerGUID(dst) == e.GUID {
				items = append(items, item{e: e, dst: dst, recover: true})
			} else if sel != nil {
				skip(OpSkip, "no file in the cache")
			}
			continue
		}
		// Another installed file that the engine finds for the name: the
		// same package makes the copy pointless; another version hides the
		// copy unless the copy's Paths entry comes first (the name as given
		// and --to folders count as coming after).
		if e.InstalledFile != "" && !samePath(e.InstalledFile, dst) {
			hidden := index < 0 || e.installedIndex < index
			switch {
			case e.State == StateInstalledSame:
				skipOther(OpSkip, "already installed as ", e.InstalledFile, "")
				continue
			case e.State == StateInstalledOther && hidden && !opt.Force:
				skipOther(OpRefuse, "the engine would still load ", e.InstalledFile,
					fmt.Sprintf(" (GUID %s) first (use --force to copy anyway)", e.InstalledGUID))
				continue
			}
		}
		items = append(items, item{e: e, dst: dst})
	}

	// Two entries landing on one file (two versions of a package, or names
	// differing only in case) are refused together: which one the user
	// wants is not ours to guess.
	byDst := map[string][]int{}
	for i, it := range items {
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
			keys = append(keys, items[i].e.Key)
		}
		sort.Strings(keys)
		for _, i := range idx {
			items[i].skip = &Action{Op: OpRefuse, Subject: subject(items[i].e),
				Reason: fmt.Sprintf("%d entries (%s) would be extracted to ", len(idx), strings.Join(keys, ", ")),
				Other:  items[i].dst, Note: ": name one by its GUID"}
		}
	}

	// The temporary files of copies to these targets that a killed run
	// left: only those of this plan's own targets, as another process may
	// be writing other files in an install folder at this moment.
	targets := map[string][]string{} // folder -> target names
	for _, it := range items {
		if it.skip == nil && !it.recover && !samePath(filepath.Dir(it.dst), c.Dir) {
			dir := filepath.Dir(it.dst)
			targets[dir] = append(targets[dir], filepath.Base(it.dst))
		}
	}
	dirs := make([]string, 0, len(targets))
	for dir := range targets {
		dirs = append(dirs, dir)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		temps, _ := fsutil.StaleTemps(dir, targets[dir])
		for _, tmp := range temps {
			p.Actions = append(p.Actions, Action{Op: OpRemove, Src: tmp, Reason: "left by an interrupted upkdeps write"})
		}
	}

	madeDir := map[string]bool{}
	for _, it := range items {
		e := it.e
		if it.skip != nil {
			p.Actions = append(p.Actions, *it.skip)
			continue
		}
		if it.recover {
			p.Actions = append(p.Actions, c.iniAction(e.Key, "", e.Name, false))
			continue
		}
		refuse := func(note string) {
			p.Actions = append(p.Actions, Action{Op: OpRefuse, Subject: subject(e), Other: it.dst, Note: note})
		}
		copyOp, reason := OpCopy, ""
		if st, err := os.Stat(it.dst); err == nil {
			same, err := fsutil.SameContent(e.File, it.dst)
			switch {
			case st.IsDir():
				refuse(" is a folder")
				continue
			case err != nil:
				refuse(": " + err.Error())
				continue
			case same:
				copyOp = OpExists
			case !opt.Force:
				refuse(" exists with other content" + guidNote(it.dst) + " (use --force to replace it)")
				continue
			default:
				copyOp, reason = OpReplace, "other content"+guidNote(it.dst)+", --force"
			}
		}
		dir := filepath.Dir(it.dst)
		if !madeDir[dir] {
			madeDir[dir] = true
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				p.Actions = append(p.Actions, Action{Op: OpMkdir, Dst: dir})
			}
		}
		p.Actions = append(p.Actions, Action{Op: copyOp, Src: e.File, Dst: it.dst, Reason: reason})
		if opt.Keep {
			continue
		}
		p.Actions = append(p.Actions,
			Action{Op: OpRemove, Src: e.File, Reason: "moved to the install"},
			c.iniAction(e.Key, "", e.Name, false))
	}
	return p
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
