package main

import (
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/check/cifmt"
)

// outputFormat is --format and --root-dir of the commands whose report a
// CI reads (check, order, headers --check, redirect verify).
type outputFormat struct {
	name    string
	rootDir string
}

// addFormatFlags defines --format and --root-dir on cmd.
func addFormatFlags(cmd *cobra.Command, o *outputFormat) {
	names := make([]string, len(cifmt.Formats))
	for i, f := range cifmt.Formats {
		names[i] = string(f)
	}
	cmd.Flags().StringVar(&o.name, "format", "", "output format: "+strings.Join(names, ", ")+
		" (default: text; --json is --format json; sarif, github and checkstyle are for CI)")
	cmd.Flags().StringVar(&o.rootDir, "root-dir", "", "with --format sarif|github|checkstyle: the repository root file names are relative to (default: the working folder)")
	_ = cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return names, cobra.ShellCompDirectiveNoFileComp
	})
}

// resolve returns the format asked for: --format, else json with --json,
// else text. --json with another --format is a usage error. JSON sets
// a.cfg.JSON, which the commands' printing reads.
func (o *outputFormat) resolve(a *app) (cifmt.Format, error) {
	if o.name == "" {
		if a.cfg.JSON {
			return cifmt.JSON, nil
		}
		return cifmt.Text, nil
	}
	f, err := cifmt.ParseFormat(o.name)
	if err != nil {
		return "", usagef("--format: %v", err)
	}
	if a.cfg.JSON && f != cifmt.JSON {
		return "", usagef("--json and --format %s: use one", f)
	}
	a.cfg.JSON = f == cifmt.JSON
	return f, nil
}

// root returns the folder CI file names are relative to.
func (o *outputFormat) root() string {
	if o.rootDir != "" {
		return o.rootDir
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return "."
}

// emitAs prints a report in format f: a CI format through log, text and
// JSON as emit does; then errFindings when failed.
func (a *app) emitAs(w io.Writer, f cifmt.Format, report any, text func(io.Writer) error, log func() *cifmt.Log, failed bool) error {
	if !f.CI() {
		return a.emit(w, report, text, failed)
	}
	if err := cifmt.Write(w, f, log()); err != nil {
		return err
	}
	if failed {
		return errFindings
	}
	return nil
}
