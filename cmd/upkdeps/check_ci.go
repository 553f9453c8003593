package main

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/check/cifmt"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// checkCI is what check's CI flags ask for: the output format, a baseline
// to read or write, when to fail, the kinds left out.
type checkCI struct {
	out           outputFormat
	baseline      string
	writeBaseline string
	force, dryRun bool
}

// addCheckCIFlags defines check's --format, --root-dir, --baseline,
// --write-baseline, --force, --dry-run, --fail-on, --disable and --enable
// (the last three are config keys too: Config.FailOn, Disable, Enable).
func addCheckCIFlags(cmd *cobra.Command, c *checkCI) {
	addFormatFlags(cmd, &c.out)
	f := cmd.Flags()
	f.StringVar(&c.baseline, "baseline", "", "report and fail on only the findings not in this baseline file (see --write-baseline)")
	f.StringVar(&c.writeBaseline, "write-baseline", "", "write today's findings to this baseline file (then exit 0 unless the write fails)")
	f.BoolVar(&c.force, "force", false, "with --write-baseline: overwrite a baseline file that differs")
	f.BoolVar(&c.dryRun, "dry-run", false, "with --write-baseline: say what would be written, write nothing")
	f.String("fail-on", "error", "exit 1 on findings of this severity or worse: error, warning or none")
	f.StringSlice("disable", nil, "leave out findings of these kinds (KIND,...; see docs/check.md)")
	f.StringSlice("enable", nil, "keep these kinds even if the config file disables them")
	_ = cmd.RegisterFlagCompletionFunc("fail-on", fixedCompletion("error", "warning", "none"))
	kinds := func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		var ids []string
		for _, r := range check.Rules() {
			ids = append(ids, r.ID+"\t"+r.Short)
		}
		return ids, cobra.ShellCompDirectiveNoFileComp
	}
	_ = cmd.RegisterFlagCompletionFunc("disable", kinds)
	_ = cmd.RegisterFlagCompletionFunc("enable", kinds)
}

// fixedCompletion completes a flag from a fixed list of values.
func fixedCompletion(values ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	}
}

// disabledKinds returns the kinds --disable and the config key disable
// name, less those --enable names; an unknown kind is a usage error.
func disabledKinds(cfg Config) ([]graph.FindingKind, error) {
	dis, err := check.ParseKinds(cfg.Disable)
	if err != nil {
		return nil, usagef("--disable: %w", err)
	}
	en, err := check.ParseKinds(cfg.Enable)
	if err != nil {
		return nil, usagef("--enable: %w", err)
	}
	return slices.DeleteFunc(dis, func(k graph.FindingKind) bool { return slices.Contains(en, k) }), nil
}

// failOn returns whether rep fails the check under --fail-on.
func failOn(level string, rep *check.Report) (bool, error) {
	failed, err := rep.FailsAt(level)
	if err != nil {
		return false, usagef("--fail-on %q: %w", level, err)
	}
	return failed, nil
}

// finishCheck applies the CI flags to a plain check's report and prints it:
// kinds disabled, the baseline written (exit 0) or applied, the report in
// the format asked for, exit 1 by --fail-on.
func (a *app) finishCheck(cmd *cobra.Command, in *install.Install, rep *check.Report, c *checkCI, text func(io.Writer) error) error {
	f, err := c.out.resolve(a)
	if err != nil {
		return err
	}
	disabled, err := disabledKinds(a.cfg)
	if err != nil {
		return err
	}
	if _, err := failOn(a.cfg.FailOn, rep); err != nil {
		return err
	}
	rep.Disable(disabled)
	wrote := false
	if c.writeBaseline != "" {
		data := check.NewBaseline(rep).Marshal()
		if err := checkOutput(c.writeBaseline, data, c.force); err != nil {
			return err
		}
		if c.dryRun {
			fmt.Fprintf(cmd.ErrOrStderr(), "would write %s: %d finding(s) accepted\n", c.writeBaseline, len(rep.Findings))
		} else {
			if err := fsutil.WriteFileAtomic(c.writeBaseline, data, 0o644); err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s: %d finding(s) accepted\n", c.writeBaseline, len(rep.Findings))
		}
		wrote = true
	}
	if c.baseline != "" {
		b, err := check.ReadBaseline(c.baseline)
		var ve *check.BaselineVersionError
		if errors.As(err, &ve) {
			return fmt.Errorf("baseline %s: schema_version %d, want %d (write it again with --write-baseline)", ve.Path, ve.Have, check.BaselineVersion)
		}
		if err != nil {
			return err
		}
		rep.ApplyBaseline(b, c.baseline)
	}
	failed, _ := failOn(a.cfg.FailOn, rep)
	if sup := rep.Suppressed; sup != nil {
		plain := text
		text = func(w io.Writer) error {
			if err := plain(w); err != nil {
				return err
			}
			return sup.WriteText(w)
		}
	}
	log := func() *cifmt.Log { return check.CILog(in, rep, buildVersion().Version, c.out.root()) }
	return a.emitAs(cmd.OutOrStdout(), f, rep, text, log, failed && !wrote)
}
