package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/cache"
	"github.com/upkdeps/upkdeps/internal/textw"
)

// writerLock is the lock description a cache command passes to openCache:
// none for a dry run, which only reads.
func writerLock(dryRun bool, what string) string {
	if dryRun {
		return ""
	}
	return what
}

// runPlan prints the plan (dry run) or runs it, printing each action as it
// completes: both print the same lines. Refusals make exit 1.
func (a *app) runPlan(cmd *cobra.Command, v *cache.View, p *cache.Plan, dryRun bool) error {
	w := cmd.OutOrStdout()
	bw := &textw.Writer{W: w}
	show := func(act cache.Action) { bw.Printf("%s\n", act.FormatWith(v.Rel, cacheHint)) }
	if dryRun {
		for _, act := range p.Actions {
			show(act)
		}
		fmt.Fprintln(a.stderr, "dry run: nothing was changed")
	} else if err := p.Run(cmd.Context(), show); err != nil {
		return err
	}
	if bw.Err != nil {
		return bw.Err
	}
	if len(p.Actions) == 0 {
		fmt.Fprintln(a.stderr, "nothing to do")
	}
	if p.Refusals() > 0 {
		return errFindings
	}
	return nil
}

// cacheFlags are the flags of the options a cache.Hint names.
var cacheFlags = map[cache.Option]string{cache.OptionForce: "--force", cache.OptionTo: "--to"}

// cacheHint names a plan's hint by its flag: " (use --force to replace
// it)", " (use --to)", or ", --force" for a replacement it made.
func cacheHint(h cache.Hint) string {
	flag := cacheFlags[h.Option]
	switch {
	case flag == "":
		return h.String()
	case h.Used:
		return ", " + flag
	case h.Option == cache.OptionTo:
		return " (use " + flag + ")"
	}
	return " (use " + flag + " to " + h.Would + ")"
}
