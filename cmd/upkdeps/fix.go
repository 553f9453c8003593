package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/index"
	"github.com/upkdeps/upkdeps/internal/dirlock"
)

func newFixCmd(a *app) *cobra.Command {
	var dryRun, newest bool
	var picks []string
	cmd := &cobra.Command{
		Use:   "fix [--ini INI] [--index FILE] [--dry-run] [--pick NAME=GUID]... [--newest]",
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
	addIndexFlag(cmd.Flags(), "the package index database", true)
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the plan, change nothing")
	cmd.Flags().BoolVar(&newest, "newest", false, "of copies with different GUIDs, take the newest instead of refusing")
	cmd.Flags().StringArrayVar(&picks, "pick", nil, "NAME=GUID (or SHA-256 prefix): the copy to take for NAME (repeatable)")
	cmd.Flags().Bool("json", false, "print the report as JSON")
	return cmd
}

// fix checks the install, plans the missing packages from the index,
// applies the plan (index.DB.Apply) and checks again.
func (a *app) fix(cmd *cobra.Command, pins map[string]string, newest, dryRun bool) error {
	ctx := cmd.Context()
	in, err := a.openInstall()
	if err != nil {
		return err
	}
	if !dryRun {
		// One fix at a time per install: two would both publish.
		lock, err := dirlock.Dir(in.Search.Root(), "upkdeps fix")
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
	installed := func(name string) bool { return in.Search.Find(name).File != "" }
	out, err := db.Fix(ctx, rep.Findings, index.FixOptions{Ini: in.IniPath,
		Plan:  index.PlanOptions{Installed: installed, Pins: pins, Prefer: in.CachePins(ctx, a.cfg.Jobs), Newest: newest},
		Apply: index.ApplyOptions{Place: in.Place, Rel: in.Search.Rel, DryRun: dryRun}})
	if err != nil {
		return err
	}
	pickHint(out.Unresolved)
	if err := ctx.Err(); err != nil {
		// Say what was done before the interruption, then exit 130.
		if werr := a.emit(cmd.OutOrStdout(), out, func(w io.Writer) error { return out.WriteText(w) }, false); werr != nil {
			return werr
		}
		return err
	}
	if dryRun {
		out.ErrorsAfter = rep.Summary.Errors
	} else if err := a.checkAfterFix(cmd, out); err != nil {
		return err
	}
	failed := out.ErrorsAfter > 0 || out.Refused()
	return a.emit(cmd.OutOrStdout(), out, func(w io.Writer) error { return out.WriteText(w) }, failed)
}

// pickHint words the way to choose among an ambiguous package's copies
// as fix's flag.
func pickHint(us []index.Unresolved) {
	for i := range us {
		var ae *index.AmbiguousError
		if errors.As(us[i].Err, &ae) {
			us[i].Reason = fmt.Sprintf("%s; choose one with --pick %s=GUID", ae, ae.Name)
		}
	}
}

// checkAfterFix checks the install again and puts what is left in out.
func (a *app) checkAfterFix(cmd *cobra.Command, out *index.FixReport) error {
	in, err := a.openInstall()
	if err != nil {
		return err
	}
	after, err := a.check(cmd, in, false)
	if err != nil {
		return err
	}
	out.After(after.Findings, after.Summary.Errors)
	return nil
}
