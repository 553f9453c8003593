package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/upkdeps/upkdeps/internal/termsafe"
)

//go:generate go test -run ^TestCommandDocs$ -update .

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// Exit codes, the same for every command (README.md, "Exit codes").
const (
	exitOK       = 0 // success, nothing to report
	exitFindings = 1 // the report has errors, or some input files failed
	exitError    = 2 // usage error or operational failure
	// An interrupted command exits 128 plus the signal's number, as a
	// shell reports a process the signal ended: 130 for SIGINT (Ctrl-C,
	// os.Interrupt on Windows), 143 for SIGTERM (runMain).
	exitInterrupted = 130
	exitTerminated  = 143
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
	// settingsAreErrors makes an unsafe ini value (search.SettingErrors)
	// an error instead of a warning: set by commands that change a cache.
	settingsAreErrors bool
	// notesInReport leaves the install's case notes (search.CaseNotes) to
	// the command's report instead of stderr: set by check.
	notesInReport bool
	// preset is check's --preset (check.Options.Preset).
	preset string
}

func newRootCmd(a *app) *cobra.Command {
	root, _ := newRootCmdOf(a, nil)
	return root
}

// commands makes each top-level command, in the order help lists them.
var commands = []struct {
	name string
	make func(*app) *cobra.Command
}{
	{"info", newInfoCmd},
	{"check", newCheckCmd},
	{"report", newReportCmd},
	{"graph", newGraphCmd},
	{"order", newOrderCmd},
	{"deps", func(a *app) *cobra.Command { return newDepsCmd(a, false) }},
	{"rdeps", func(a *app) *cobra.Command { return newDepsCmd(a, true) }},
	{"why", newWhyCmd},
	{"natives", newNativesCmd},
	{"plan", newPlanCmd},
	{"headers", newHeadersCmd},
	{"resolve", newResolveCmd},
	{"cache", newCacheCmd},
	{"uz", newUZCmd},
	{"redirect", newRedirectCmd},
	{"downloads", newDownloadsCmd},
	{"unused", newUnusedCmd},
	{"livemap", newLivemapCmd},
	{"compare", newCompareCmd},
	{"explain", newExplainCmd},
	{"index", newIndexCmd},
	{"find", newFindCmd},
	{"fix", newFixCmd},
	{"version", newVersionCmd},
}

// newRootCmdOf makes the command tree for the command line args: below
// the root only the top-level command args run (commandIn), as far as it
// can be told, and then partial is set; every command for nil args or
// when it cannot. A command line runs one command, and making all of them
// cost every start.
func newRootCmdOf(a *app, args []string) (root *cobra.Command, partial bool) {
	root = &cobra.Command{
		Use:   "upkdeps",
		Short: "Dependency analyser and cache/redirect manager for Unreal Engine 1 and 2 games",
		Long: `upkdeps reads an Unreal Engine 1/2 game's ini and package files and reports, as the
engine sees it, what is missing, what collides, what is circular, what order EditPackages
must build in, what the download cache holds and what a redirect server must serve.`,
		Version:       buildVersion().String(),
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
	root.SetVersionTemplate("upkdeps {{.Version}}\n")
	root.SetIn(a.stdin)
	// Everything printed on stdout passes one filter: names read from
	// files never reach the terminal with control characters (JSON keeps
	// its meaning; binary output bypasses it through a.stdout).
	root.SetOut(&termsafe.Writer{W: colourOut(a.stdout)})
	root.SetErr(a.stderr)
	a.loader = newLoader(root)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return usageError{err} })
	only := ""
	if args != nil {
		only = commandIn(args, root.PersistentFlags())
	}
	for _, c := range commands {
		if only == "" || c.name == only {
			root.AddCommand(c.make(a))
		}
	}
	// Cobra's own argument errors (a wrong number of arguments, an unknown
	// command) become usage errors by type, like flag errors above.
	root.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			msg += "; did you mean " + strings.Join(s, " or ") + "?"
		}
		return usageError{errors.New(msg)}
	}
	root.SuggestionsMinimumDistance = 2
	root.RunE = func(cmd *cobra.Command, args []string) error { return cmd.Help() }
	wrapArgs(root)
	mapArgErrors(a, root)
	// The completion command exists from here on (Execute would add it
	// later) so that it gets its examples too.
	root.InitDefaultCompletionCmd()
	addExamples(root)
	addCompletions(a, root)
	return root, only != ""
}

// wrapArgs makes the argument validator of cmd and every command below it
// return a usageError.
func wrapArgs(cmd *cobra.Command) {
	if valid := cmd.Args; valid != nil {
		cmd.Args = func(c *cobra.Command, args []string) error {
			if err := valid(c, args); err != nil {
				var ue usageError
				if errors.As(err, &ue) {
					return err
				}
				return usageError{err}
			}
			return nil
		}
	}
	for _, sub := range cmd.Commands() {
		wrapArgs(sub)
	}
}

// commandIn returns the name of the top-level command args run, as far as
// it can tell without the command tree: the first argument that is not a
// flag or the value of one of the root's flags (those of flags that take
// one, as pflag reads them), when that names a command; else "".
func commandIn(args []string, root *pflag.FlagSet) string {
	for i := 0; i < len(args); i++ {
		s := args[i]
		switch {
		case s == "--":
			return ""
		case strings.HasPrefix(s, "-"):
			if name := strings.TrimLeft(s, "-"); !strings.Contains(name, "=") {
				if f := root.Lookup(name); f != nil && f.NoOptDefVal == "" {
					i++
				}
			}
		default:
			for _, c := range commands {
				if c.name == s {
					return s
				}
			}
			return ""
		}
	}
	return ""
}

// run executes the command line and returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr}
	if args == nil {
		args = []string{} // cobra reads os.Args for nil
	}
	root, partial := newRootCmdOf(a, args)
	if c, _, err := root.Find(args); partial && (err != nil || c == root) {
		// Help, completion, an unknown or misspelt command, or one cobra
		// does not find where commandIn did: the whole tree answers.
		root = newRootCmd(&app{stdin: stdin, stdout: stdout, stderr: stderr})
	}
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errFindings):
		return exitFindings
	}
	if ctx.Err() != nil {
		// Interrupted: whatever failed since, failed because of it.
		fmt.Fprintln(stderr, "upkdeps: interrupted")
		return exitInterrupted
	}
	fmt.Fprintf(stderr, "upkdeps: %s\n", termsafe.String(err.Error()))
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintln(stderr, "Run 'upkdeps --help' for usage.")
	}
	return exitError
}
