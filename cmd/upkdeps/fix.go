package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/archive"
	"github.com/upkdeps/upkdeps/cache"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/index"
	"github.com/upkdeps/upkdeps/internal/dirlock"
	"github.com/upkdeps/upkdeps/internal/fsutil"
)

func newFixCmd(a *app) *cobra.Command {
	var dryRun, newest bool
	var picks []string
	cmd := &cobra.Command{
		Use:   "fix [--ini INI] [--db FILE] [--dry-run] [--pick NAME=GUID]... [--newest]",
		Short: "Copy every missing package, and what those need, from the package index into the install",
		Long: `fix runs check, looks every missing package up in the package index (see 'upkdeps index')
and copies the best copy into the Paths folder the engine searches for its extension (the
rule 'cache extract' uses), from folders and archives alike, atomically. A package it brings
can import packages the install lacks too: fix plans against the install as it will be and
adds what the new packages need, until the index has nothing more to give. Then it checks
again and prints what is left (exit 1 while errors remain).

Of the copies of a name it takes the one with the GUID the install's download cache pins, or
--pick NAME=GUID (or a SHA-256 prefix); copies with different GUIDs and no pin are refused
(--newest takes the newest). It never replaces an installed file. --dry-run prints the whole
plan, each copy with the package that needs it, and changes nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			pins := map[string]string{}
			for _, p := range picks {
				name, val, ok := strings.Cut(p, "=")
				if !ok || name == "" || val == "" {
					return usagef("--pick %q: want NAME=GUID", p)
				}
				pins[strings.ToLower(name)] = val
			}
			return a.fix(cmd, pins, newest, dryRun)
		},
	}
	cmd.Flags().String("db", "", "the index database (default: the config key db, else upkdeps/index.db in the user cache folder)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the plan, change nothing")
	cmd.Flags().BoolVar(&newest, "newest", false, "of copies with different GUIDs, take the newest instead of refusing")
	cmd.Flags().StringArrayVar(&picks, "pick", nil, "NAME=GUID (or SHA-256 prefix): the copy to take for NAME (repeatable)")
	cmd.Flags().Bool("json", false, "print the report as JSON")
	return cmd
}

// fixReport is the output of fix.
type fixReport struct {
	SchemaVersion int                `json:"schema_version"`
	Ini           string             `json:"ini"`
	DB            string             `json:"db"`
	DryRun        bool               `json:"dry_run"`
	MissingBefore int                `json:"missing_before"`
	Copies        []fixCopy          `json:"copies"`
	Unresolved    []index.Unresolved `json:"unresolved"`
	// After is the check after the copies (not in a dry run): the findings
	// left.
	MissingAfter *int            `json:"missing_after,omitempty"`
	Left         []graph.Finding `json:"left,omitempty"`
	ErrorsAfter  int             `json:"errors_after"`
	// RemovedTemps are the temporary files an earlier, killed fix left
	// beside the files this one writes, removed before it copies.
	RemovedTemps []string `json:"removed_temps"`
}

// fixCopy is one planned copy.
type fixCopy struct {
	index.Step
	To     string `json:"to"`     // the file to write, relative to the game root
	Status string `json:"status"` // "planned", "copied", "present" (same content there), "refused", "interrupted"
	Reason string `json:"reason,omitempty"`
	// Binaries are the native binaries of the package (Name.dll, Name.so)
	// beside it in its source, brought with it into the same folder.
	Binaries []fixBinary `json:"binaries,omitempty"`
	dst      string      // the absolute path of To
}

// fixBinary is a native binary copied with its package.
type fixBinary struct {
	From   string `json:"from"`   // the file, or "archive!member"
	To     string `json:"to"`     // relative to the game root
	Status string `json:"status"` // as fixCopy's
	Reason string `json:"reason,omitempty"`
	src    index.Package
}

func (a *app) fix(cmd *cobra.Command, pins map[string]string, newest, dryRun bool) error {
	ctx := cmd.Context()
	in, err := a.openInstall()
	if err != nil {
		return err
	}
	if !dryRun {
		// One fix at a time per install: two would both publish.
		lock, err := dirlock.Dir(in.search.Root(), "upkdeps fix")
		if err != nil {
			return err
		}
		defer lock.Unlock()
	}
	rep, err := a.check(cmd, in, false)
	if err != nil {
		return err
	}
	db, err := a.openDB(dryRun)
	if err != nil && !dryRun {
		// An index fix may not write (another user's) is read as it is:
		// fix writes to it only to mark a changed source for re-reading.
		if ro, rerr := a.openDB(true); rerr == nil {
			db, err = ro, nil
		}
	}
	if err != nil {
		return err
	}
	defer db.Close()
	var needs []index.Need
	for _, f := range rep.Findings {
		if f.Kind == graph.MissingPackage {
			needs = append(needs, index.Need{Name: f.Package, NeededBy: append(append([]string{}, f.NeededBy...), f.Roots...)})
		}
	}
	installed := func(name string) bool { return in.search.Find(name).File != "" }
	plan, err := db.Plan(ctx, needs, index.PlanOptions{Installed: installed, Pins: pins, Prefer: a.cachePins(in), Newest: newest})
	if err != nil {
		return err
	}
	out := &fixReport{SchemaVersion: 1, Ini: in.iniPath, DB: db.Path(), DryRun: dryRun, MissingBefore: len(needs),
		Copies: []fixCopy{}, Unresolved: plan.Unresolved, RemovedTemps: []string{}}
	paths := in.placementPaths()
	var dsts []string
	for _, s := range plan.Steps {
		c := fixCopy{Step: s, Status: "planned"}
		dir, ok := cache.TargetDir(s.Copy.FileName, paths, in.search.Dir())
		switch {
		case fsutil.SafeFileName(s.Copy.FileName) != nil:
			c.Status, c.Reason = "refused", "unsafe file name"
		case !ok:
			c.Status, c.Reason = "refused", fmt.Sprintf("no Paths entry takes %q files", filepath.Ext(s.Copy.FileName))
		default:
			dst := filepath.Join(dir, s.Copy.FileName)
			c.To, c.dst = filepath.ToSlash(in.search.Rel(dst)), dst
			dsts = append(dsts, dst)
			for _, b := range nativeBinaries(ctx, &s.Copy) {
				b.To = filepath.Join(dir, path.Base(b.src.FileName))
				dsts = append(dsts, b.To)
				c.Binaries = append(c.Binaries, b)
			}
		}
		out.Copies = append(out.Copies, c)
	}
	if !dryRun {
		// What a killed fix left: its temporary files beside the files it
		// writes (the lock says no other fix is writing them now).
		removed, err := fsutil.RemoveStaleTemps(dsts)
		if err != nil {
			return err
		}
		for _, r := range removed {
			out.RemovedTemps = append(out.RemovedTemps, filepath.ToSlash(in.search.Rel(r)))
		}
	}
	for i := range out.Copies {
		c := &out.Copies[i]
		if c.Status != "planned" {
			continue
		}
		if ctx.Err() != nil {
			c.Status, c.Reason = "interrupted", "not copied: interrupted"
			continue
		}
		dst := c.dst
		if same, exists := sameAsIndexed(dst, c.Copy.SHA256); exists {
			c.Status = "present"
			if !same {
				c.Status, c.Reason = "refused", "a file with other content is installed there"
			}
		} else if !dryRun {
			err := copyPackage(ctx, db, &c.Copy, dst)
			switch {
			case err == nil:
				c.Status = "copied"
			case ctx.Err() != nil:
				c.Status, c.Reason = "interrupted", "not copied: interrupted"
			default:
				c.Status, c.Reason = "refused", err.Error()
			}
		}
		if c.Status == "refused" || c.Status == "interrupted" {
			for j := range c.Binaries {
				c.Binaries[j].Status, c.Binaries[j].Reason = "refused", "its package is not copied"
			}
			c.Binaries = relBinaries(in, c.Binaries)
			continue
		}
		for j := range c.Binaries {
			b := &c.Binaries[j]
			b.Status = "planned"
			if _, err := os.Lstat(b.To); err == nil {
				b.Status = "present"
				if sum, err := index.CopyTo(ctx, io.Discard, &b.src, archive.Limits{}); err != nil || !hasSum(b.To, sum) {
					b.Status, b.Reason = "refused", "a file with other content is installed there"
				}
			} else if !dryRun {
				if err := copyPackage(ctx, db, &b.src, b.To); err != nil {
					b.Status, b.Reason = "refused", err.Error()
				} else {
					b.Status = "copied"
				}
			}
		}
		c.Binaries = relBinaries(in, c.Binaries)
	}
	if err := ctx.Err(); err != nil {
		// Say what was done before the interruption, then exit 2.
		if werr := a.emit(cmd.OutOrStdout(), out, func(w io.Writer) error { return writeFixText(w, out) }, false); werr != nil {
			return werr
		}
		return err
	}
	if !dryRun {
		in2, err := a.openInstall()
		if err != nil {
			return err
		}
		after, err := a.check(cmd, in2, false)
		if err != nil {
			return err
		}
		n := 0
		out.Left = []graph.Finding{}
		for _, f := range after.Findings {
			if f.Kind == graph.MissingPackage {
				n++
				out.Left = append(out.Left, f)
			}
		}
		out.MissingAfter = &n
		out.ErrorsAfter = after.Summary.Errors
	} else {
		out.ErrorsAfter = rep.Summary.Errors
	}
	failed := out.ErrorsAfter > 0
	for _, c := range out.Copies {
		failed = failed || c.Status == "refused"
		for _, b := range c.Binaries {
			failed = failed || b.Status == "refused"
		}
	}
	return a.emit(cmd.OutOrStdout(), out, func(w io.Writer) error { return writeFixText(w, out) }, failed)
}

// relBinaries makes the binaries' destinations relative to the game root.
func relBinaries(in *install, bs []fixBinary) []fixBinary {
	for i := range bs {
		bs[i].To = filepath.ToSlash(in.search.Rel(bs[i].To))
	}
	return bs
}

// nativeBinaries returns the native binaries of the package p in its source:
// the files (or members of the same archive folder) named like the package
// with the extension .dll or .so, any case, sorted. The engine loads a
// package's native code from the binary of its name: a .u copied without it
// loses its native classes.
func nativeBinaries(ctx context.Context, p *index.Package) []fixBinary {
	if !p.HasBytes || p.Path == "" || p.Compressed != "" {
		return nil
	}
	name := strings.TrimSuffix(p.FileName, filepath.Ext(p.FileName))
	isBinary := func(base string) bool {
		ext := strings.ToLower(path.Ext(base))
		return (ext == ".dll" || ext == ".so") && strings.EqualFold(strings.TrimSuffix(base, path.Ext(base)), name) &&
			fsutil.SafeFileName(base) == nil
	}
	var out []fixBinary
	if p.Member == "" {
		ents, err := os.ReadDir(filepath.Dir(p.Path))
		if err != nil {
			return nil
		}
		for _, e := range ents {
			if e.Type().IsRegular() && isBinary(e.Name()) {
				src := filepath.Join(filepath.Dir(p.Path), e.Name())
				out = append(out, fixBinary{From: src, src: index.Package{FileName: e.Name(), Path: src, HasBytes: true, Source: p.Source}})
			}
		}
		return out
	}
	outer, inner := "", p.Member
	if i := strings.LastIndex(p.Member, "!"); i >= 0 {
		outer, inner = p.Member[:i], p.Member[i+1:]
	}
	dir := path.Dir(inner)
	archive.Walk(p.Path, archive.Limits{}, func(m *archive.Member) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if m.Err == nil && m.Nested == outer && path.Dir(m.Name) == dir && isBinary(path.Base(m.Name)) {
			bp := index.Package{FileName: path.Base(m.Name), Path: p.Path, Member: m.Path(), HasBytes: true, Source: p.Source}
			out = append(out, fixBinary{From: bp.Where(), src: bp})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].From < out[j].From })
	return out
}

// sameAsIndexed reports whether dst exists and, if so, whether it has the
// content whose SHA-256 is sum.
func sameAsIndexed(dst, sum string) (same, exists bool) {
	f, err := fsutil.OpenRegular(dst) // a named pipe there: refused, not read
	if errors.Is(err, fs.ErrNotExist) {
		return false, false
	}
	if err != nil {
		return false, true
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false, true
	}
	return hex.EncodeToString(h.Sum(nil)) == sum, true
}

// hasSum reports whether the file dst has the SHA-256 sum.
func hasSum(dst, sum string) bool {
	same, _ := sameAsIndexed(dst, sum)
	return same
}

// copyPackage streams the indexed copy p to dst atomically (the bytes are
// checked against the index before dst appears); it never replaces a file
// (one that appeared since the plan is refused). When the bytes changed
// since they were indexed, the index is told to read the source again on
// its next add, so the advice in the error works.
func copyPackage(ctx context.Context, db *index.DB, p *index.Package, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if _, err := os.Lstat(dst); err == nil {
		return fmt.Errorf("%s appeared meanwhile: not replaced", dst)
	}
	err := fsutil.WriteAtomicFunc(dst, 0o644, func(f *os.File) error {
		_, err := index.CopyTo(ctx, f, p, archive.Limits{})
		return err
	})
	if errors.Is(err, index.ErrChanged) && p.ID > 0 {
		db.ForgetContent(ctx, p) // best effort: a read-only index keeps its rows
	}
	return err
}

func writeFixText(w io.Writer, rep *fixReport) error {
	bw := &errWriter{w: w}
	verb := "copies"
	if rep.DryRun {
		verb = "would copy (dry run)"
	}
	bw.printf("upkdeps fix: %s, index %s\n", rep.Ini, rep.DB)
	if len(rep.RemovedTemps) > 0 {
		bw.printf("removed %d temporary file(s) an interrupted fix left: %s\n", len(rep.RemovedTemps), strings.Join(rep.RemovedTemps, ", "))
	}
	bw.printf("%d missing package(s); %s %d package(s), %d of them needed by the packages it brings\n",
		rep.MissingBefore, verb, countStatus(rep.Copies, ""), countClosure(rep.Copies))
	for _, c := range rep.Copies {
		tag := "  "
		if !c.Direct {
			tag = "+ "
		}
		line := fmt.Sprintf("%s%-8s %s <- %s", tag, c.Status, c.To, c.Copy.Where())
		if c.To == "" {
			line = fmt.Sprintf("%s%-8s %s <- %s", tag, c.Status, c.Copy.FileName, c.Copy.Where())
		}
		bw.printf("%s\n", line)
		bw.printf("      GUID %s, needed by %s\n", guidOr(c.Copy.GUID), strings.Join(c.NeededBy, ", "))
		if c.Reason != "" {
			bw.printf("      %s\n", c.Reason)
		}
		for _, b := range c.Binaries {
			bw.printf("      with its native binary: %-8s %s <- %s\n", b.Status, b.To, b.From)
			if b.Reason != "" {
				bw.printf("        %s\n", b.Reason)
			}
		}
	}
	if len(rep.Unresolved) > 0 {
		bw.printf("%d package(s) cannot be brought:\n", len(rep.Unresolved))
		for _, u := range rep.Unresolved {
			bw.printf("  %s: %s (needed by %s)\n", u.Name, u.Reason, strings.Join(u.NeededBy, ", "))
		}
	}
	if rep.MissingAfter != nil {
		bw.printf("After the copies, check reports %d missing package(s) and %d error(s)", *rep.MissingAfter, rep.ErrorsAfter)
		if len(rep.Left) > 0 {
			var names []string
			for _, f := range rep.Left {
				names = append(names, f.Package)
			}
			bw.printf(": %s", strings.Join(names, ", "))
		}
		bw.printf("\n")
	}
	return bw.err
}

// countStatus counts the copies that are not refused or present ("" for
// planned or copied).
func countStatus(cs []fixCopy, _ string) int {
	n := 0
	for _, c := range cs {
		if c.Status == "planned" || c.Status == "copied" {
			n++
		}
	}
	return n
}

func countClosure(cs []fixCopy) int {
	n := 0
	for _, c := range cs {
		if !c.Direct && (c.Status == "planned" || c.Status == "copied") {
			n++
		}
	}
	return n
}
