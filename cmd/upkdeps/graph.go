package main

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/report"
)

// Past these a diagram is not legible (measured on generated installs:
// docs/usage.md, "graph"), and Graphviz's layout time grows fast.
const (
	defaultMaxNodes = 150
	defaultMaxEdges = 300
)

func newGraphCmd(a *app) *cobra.Command {
	var (
		from     []string
		depth    int
		reverse  bool
		out      string
		format   string
		force    bool
		stock    bool
		allEdges bool
		path     bool
		cycle    int
		maxNodes int
		overview bool
	)
	cmd := &cobra.Command{
		Use:   "graph [--from PKG]... [--depth N] [--reverse] | --path FROM TO | --cycle N  [--stock] [--all-edges] [-o FILE] [--format dot|svg|png|pdf|html]",
		Short: "Draw the install's dependency graph (Graphviz DOT, SVG, PNG, PDF or an HTML page)",
		Long: `graph draws the package dependency graph: nodes styled by package kind (code, texture,
sound, music, map, mesh), missing packages red and dashed, packages of a cycle red with bold red
cycle edges, EditPackages order errors (a package listed before one it uses) orange dashed
edges labelled "order". To stay legible it draws the game's stock packages as one node per folder (--stock:
one by one), leaves out an import that a chain of drawn imports already implies (transitive
reduction; --all-edges keeps every import, labelled with its object count), and draws a package
that most others import (Core, Engine or their stock node) once as a base, without its edges.
--from restricts it to what the given packages need (--reverse: to what needs them), --depth
limits the hops; --overview draws the whole server as one node per group (a mod: its code,
textures, sounds and maps, as their names and imports show; the stock packages of a folder; the
other packages of a folder), each edge labelled with the imports it stands for and missing
packages in their group's tooltip, and is what graph draws past --max-nodes without a view;
--from group:NAME opens a group; --path FROM TO draws the shortest import chain (as why), --cycle N the Nth cycle
(as check lists them). svg, png and pdf are drawn by Graphviz's dot, which must be installed;
html writes one self-contained page that lays out the same drawing in the browser (no Graphviz
needed) and saves it as SVG. A view past --max-nodes nodes (or twice as many edges) is refused
as a picture with a hint instead of drawing an illegible one. DOT is byte-stable.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if path {
				return cobra.ExactArgs(2)(cmd, args)
			}
			return cobra.NoArgs(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runGraph(cmd, args, graphFlags{from: from, depth: depth, reverse: reverse, out: out, format: format,
				force: force, stock: stock, allEdges: allEdges, path: path, cycle: cycle, maxNodes: maxNodes, overview: overview})
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&from, "from", nil, "draw only what this package needs (repeatable)")
	f.IntVar(&depth, "depth", 0, "with --from: at most N import hops (0 = no limit)")
	f.BoolVar(&reverse, "reverse", false, "with --from: draw what needs the packages instead")
	f.BoolVar(&path, "path", false, "draw the shortest import chain between the two packages given as arguments")
	f.IntVar(&cycle, "cycle", 0, "draw the Nth cycle alone (1 = the first check lists)")
	f.BoolVar(&overview, "overview", false, "draw the whole server as one node per mod or folder group (the default past --max-nodes)")
	f.BoolVar(&stock, "stock", false, "draw the game's stock packages one by one instead of one node per folder")
	f.BoolVar(&allEdges, "all-edges", false, "draw every import (no transitive reduction, no base node), labelled with object counts")
	f.IntVar(&maxNodes, "max-nodes", defaultMaxNodes, "past this many nodes (or twice as many edges) draw the overview; pictures (all but dot) of a view are refused (0: no limit)")
	f.StringVarP(&out, "output", "o", "", "write to FILE instead of stdout (atomically)")
	f.StringVar(&format, "format", "dot", "dot, svg, png, pdf (Graphviz's dot draws them) or html (a page that draws it in the browser)")
	f.BoolVar(&force, "force", false, "overwrite an existing output file that differs")
	return cmd
}

// graphFlags are the options of `graph`.
type graphFlags struct {
	from                         []string
	depth                        int
	reverse                      bool
	out, format                  string
	force, stock, allEdges, path bool
	cycle, maxNodes              int
	overview                     bool
}

// runGraph validates the flags, chooses the view and draws it.
func (a *app) runGraph(cmd *cobra.Command, args []string, f graphFlags) error {
	switch f.format {
	case "dot", "svg", "png", "pdf", "html":
	default:
		return usagef("--format must be dot, svg, png, pdf or html, not %q", f.format)
	}
	if (f.format == "png" || f.format == "pdf") && f.out == "" {
		return usagef("--format %s needs -o FILE (binary output)", f.format)
	}
	if graph.GraphvizFormat(f.format) {
		// Before the install is read: a missing dot is known at once.
		if _, err := graph.LookDot(); err != nil {
			return renderError(err, f.format)
		}
	}
	views := 0
	for _, on := range []bool{len(f.from) > 0, f.path, f.cycle != 0, f.overview} {
		if on {
			views++
		}
	}
	if views > 1 {
		return usagef("--from, --path, --cycle and --overview are different views: give one")
	}
	// A named pipe or a folder as -o is refused before the graph is
	// built, not after (the content check against an existing file
	// waits for the output).
	if f.out != "" && f.out != "-" {
		if err := fsutil.CheckOutput(f.out); err != nil {
			return err
		}
	}
	in, err := a.openInstall()
	if err != nil {
		return err
	}
	order := len(in.Ini.EditPackages()) > 0
	if order {
		// The order edges' check reads the binaries' natives: while the
		// graph is built.
		defer in.StartNatives()()
	}
	g, err := a.buildGraph(cmd.Context(), in)
	if err != nil {
		return err
	}
	opt := graph.DOTOptions{Folders: in.Folders(), Stock: f.stock, AllEdges: f.allEdges, Overview: f.overview}
	if order {
		res, _, err := in.Order(cmd.Context(), g, false)
		if err != nil {
			return err
		}
		opt.OrderErrors = g.OrderEdges(res.Findings)
	}
	v := graph.View{From: f.from, Depth: f.depth, Reverse: f.reverse, Cycle: f.cycle}
	if f.path {
		v.Path = args
	}
	if err := g.Select(v, &opt); err != nil {
		return viewError(err)
	}
	d := g.Draw(opt)
	if views == 0 && d.TooMany(f.maxNodes) {
		fmt.Fprintf(cmd.ErrOrStderr(), "graph: %d nodes and %d edges are too many to draw legibly (--max-nodes %d): drawing the overview, one node per mod or folder group (--from group:NAME opens one; --max-nodes 0 draws every package)\n",
			len(d.Nodes), len(d.Edges), f.maxNodes)
		opt.Overview = true
		d = g.Draw(opt)
	}
	fmt.Fprintln(cmd.ErrOrStderr(), d.Summary())
	if d.TooMany(f.maxNodes) {
		msg := fmt.Sprintf("graph: %d nodes and %d edges are too many to draw legibly (--max-nodes %d): draw less with --from PKG --depth 1, --path FROM TO or --cycle N, or open the page of `upkdeps report`",
			len(d.Nodes), len(d.Edges), f.maxNodes)
		if f.format != "dot" {
			return errors.New(msg)
		}
		fmt.Fprintln(cmd.ErrOrStderr(), "warning: "+msg)
	}
	return a.writeGraph(cmd, d, f, in.IniPath)
}

// viewError words a graph.ViewError as the flag it came from:
// "--from NAME: no such package in the install".
func viewError(err error) error {
	var ve *graph.ViewError
	if !errors.As(err, &ve) {
		return err
	}
	msg := "--" + strings.ToLower(ve.Field) + strings.TrimPrefix(ve.Error(), ve.Field)
	switch {
	case errors.Is(err, graph.ErrNoGroup):
		msg += " (graph --overview names them)"
	case errors.Is(err, graph.ErrNoPackageOrGroup):
		msg += " (graph --overview names the groups)"
	}
	return usagef("%s", msg)
}

// renderError says what to do when Graphviz's dot is missing (install it,
// or draw the page instead) or too slow (draw less).
func renderError(err error, format string) error {
	switch {
	case errors.Is(err, graph.ErrNoDot):
		return errors.New("--format " + format + " needs Graphviz's dot, which is not on PATH: install Graphviz (https://graphviz.org/download/; Debian/Ubuntu: apt-get install graphviz) or use --format html (a page that draws the graph in the browser)")
	case errors.Is(err, graph.ErrRenderTimeout):
		return fmt.Errorf("%w: draw less (--from PKG --depth 1)", err)
	}
	return err
}

// writeGraph renders the drawing in the format asked and writes it to
// stdout or, atomically, to the output file. title names the install (the
// html page's title).
func (a *app) writeGraph(cmd *cobra.Command, d *graph.Drawing, f graphFlags, title string) error {
	var data []byte
	if f.format == "html" {
		var buf bytes.Buffer
		if err := report.WriteDrawing(&buf, d, title, d.Summary()); err != nil {
			return err
		}
		data = buf.Bytes()
	} else {
		var err error
		if data, err = d.Render(cmd.Context(), f.format); err != nil {
			return renderError(err, f.format)
		}
	}
	if f.out == "" || f.out == "-" {
		w := cmd.OutOrStdout()
		if f.format == "png" || f.format == "pdf" {
			w = a.stdout // binary: not through the terminal filter
		}
		_, err := w.Write(data)
		return err
	}
	if err := checkOutput(f.out, data, f.force); err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(f.out, data, 0o644)
}

// checkOutput refuses to write data to path when path is not a regular
// file, and, without force, when it holds other content.
func checkOutput(path string, data []byte, force bool) error {
	err := fsutil.CheckReplace(path, data, force)
	if errors.Is(err, fsutil.ErrOtherContent) {
		return fmt.Errorf("%w (use --force)", err)
	}
	return err
}
