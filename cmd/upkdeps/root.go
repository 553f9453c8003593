package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// Exit codes, the same for every command (README.md, "Exit codes").
const (
	exitOK       = 0 // success, nothing to report
	exitFindings = 1 // the report has errors, or some input files failed
	exitError    = 2 // usage error or operational failure
)

// errFindings is returned by a command whose report is printed and has
// errors: exit 1 without another message.
var errFindings = errors.New("findings reported")

// usageError marks errors in how the command was called (exit 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// app is what every subcommand shares: the streams and the configuration,
// loaded once the flags are parsed.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	cfg            Config
	loader         *loader
}

func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "upkdeps",
		Short: "Dependency analyser and cache/redirect manager for Unreal Engine 1 and 2 games",
		Long: `upkdeps reads an Unreal Engine 1/2 game's ini and package files and reports, as the
engine sees it, what is missing, what collides, what is circular, what order EditPackages
must build in, what the download cache holds and what a redirect server must serve.`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := a.loader.load(cmd)
			if err != nil {
				return usageError{err}
			}
			a.cfg = cfg
			return nil
		},
	}
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	a.loader = newLoader(root)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(
		newInfoCmd(a),
		newCheckCmd(a),
		newGraphCmd(a),
		newOrderCmd(a),
		newDepsCmd(a, false),
		newDepsCmd(a, true),
		newWhyCmd(a),
		newNativesCmd(a),
		newResolveCmd(a),
		newCacheCmd(a),
		newUZCmd(a),
		newRedirectCmd(a),
		newIndexCmd(a),
		newFindCmd(a),
		newFixCmd(a),
	)
	return root
}

// run executes the command line and returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr}
	root := newRootCmd(a)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errFindings):
		return exitFindings
	}
	fmt.Fprintf(stderr, "upkdeps: %v\n", err)
	var ue usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		fmt.Fprintln(stderr, "Run 'upkdeps --help' for usage.")
	}
	return exitError
}

// isCobraUsage recognises cobra's own argument errors (unknown command,
// wrong number of arguments), which are not wrapped.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "accepts ", "requires at least", "unknown flag", "unknown shorthand", "invalid argument"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
