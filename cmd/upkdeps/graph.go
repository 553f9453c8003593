package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/internal/fsutil"
)

func newGraphCmd(a *app) *cobra.Command {
	var (
		from    []string
		depth   int
		reverse bool
		out     string
		format  string
		force   bool
	)
	cmd := &cobra.Command{
		Use:   "graph [--ini INI] [--from PKG]... [--depth N] [--reverse] [-o FILE] [--format dot|svg|png]",
		Short: "Draw the install's dependency graph (Graphviz DOT, SVG or PNG)",
		Long: `graph draws the package dependency graph: nodes styled by package kind (code, texture,
sound, music, map, mesh), missing packages red and dashed, cycle edges bold red, one cluster
per Paths folder, edges labelled with the number of objects imported. --from restricts it to
what the given packages need (--reverse: to what needs them), --depth limits the hops. svg and
png are rendered by Graphviz's dot, which must be installed. DOT output is byte-stable.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "dot" && format != "svg" && format != "png" {
				return usagef("--format must be dot, svg or png, not %q", format)
			}
			if format == "png" && out == "" {
				return usagef("--format png needs -o FILE (binary output)")
			}
			in, g, err := a.openGraph(cmd.Context())
			if err != nil {
				return err
			}
			opt := graph.DOTOptions{Folders: in.folders()}
			if len(from) > 0 {
				var start []*graph.Package
				for _, n := range from {
					p := g.Package(n)
					if p == nil {
						return usagef("--from %s: no such package in the install", n)
					}
					start = append(start, p)
				}
				d := depth
				if d == 0 {
					d = -1
				}
				for _, r := range g.Reach(start, d, reverse) {
					opt.Only = append(opt.Only, r.Package)
				}
			}
			var dotText bytes.Buffer
			if err := g.WriteDOT(&dotText, opt); err != nil {
				return err
			}
			data := dotText.Bytes()
			if format != "dot" {
				if data, err = renderDOT(data, format); err != nil {
					return err
				}
			}
			if out == "" || out == "-" {
				w := cmd.OutOrStdout()
				if format == "png" {
					w = a.stdout // binary: not through the terminal filter
				}
				_, err = w.Write(data)
				return err
			}
			if err := checkOutput(out, data, force); err != nil {
				return err
			}
			return fsutil.WriteFileAtomic(out, data, 0o644)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&from, "from", nil, "draw only what this package needs (repeatable)")
	f.IntVar(&depth, "depth", 0, "with --from: at most N import hops (0 = no limit)")
	f.BoolVar(&reverse, "reverse", false, "with --from: draw what needs the packages instead")
	f.StringVarP(&out, "output", "o", "", "write to FILE instead of stdout (atomically)")
	f.StringVar(&format, "format", "dot", "dot, svg or png (svg/png need Graphviz's dot)")
	f.BoolVar(&force, "force", false, "overwrite an existing output file that differs")
	return cmd
}

// renderDOT runs Graphviz's dot.
func renderDOT(src []byte, format string) ([]byte, error) {
	bin, err := exec.LookPath("dot")
	if err != nil {
		return nil, errors.New("--format " + format + " needs Graphviz's dot, which is not installed: install the 'graphviz' package (Debian/Ubuntu: apt-get install graphviz), or use --format dot")
	}
	var out, stderr bytes.Buffer
	c := exec.Command(bin, "-T"+format)
	c.Stdin, c.Stdout, c.Stderr = bytes.NewReader(src), &out, &stderr
	if err := c.Run(); err != nil {
		return nil, fmt.Errorf("graphviz dot failed: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return out.Bytes(), nil
}

// checkOutput refuses to write data to path when path is not a regular
// file, and, without force, when it holds other content.
func checkOutput(path string, data []byte, force bool) error {
	if force {
		return fsutil.CheckOutput(path)
	}
	return refuseOverwrite(path, data)
}

// refuseOverwrite returns an error when path exists with other content than
// data: commands never replace a different file without --force.
// A path that is not a regular file (a named pipe would block the read) is
// refused, with --force too (see checkOutput).
func refuseOverwrite(path string, data []byte) error {
	if err := fsutil.CheckOutput(path); err != nil {
		return err
	}
	old, err := fsutil.ReadRegular(path, int64(len(data)))
	if errors.Is(err, fsutil.ErrTooBig) {
		return fmt.Errorf("%s exists with other content: not overwritten (use --force)", path)
	}
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	}
	if !bytes.Equal(old, data) {
		return fmt.Errorf("%s exists with other content: not overwritten (use --force)", path)
	}
	return nil
}
