package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/report"
)

// Past these a diagram is not legible (measured on generated installs:
// docs/usage.md, "graph"), and Graphviz's layout time grows fast.
const (
	defaultMaxNodes = 150
	defaultMaxEdges = 300
	renderTimeout   = 2 * time.Minute
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
	if graphvizFormat(f.format) {
		// Before the install is read: a missing dot is known at once.
		if _, err := exec.LookPath("dot"); err != nil {
			return errors.New(noDot(f.format))
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
	in, g, err := a.openGraph(cmd.Context())
	if err != nil {
		return err
	}
	opt := graph.DOTOptions{Folders: in.Folders(), Stock: f.stock, AllEdges: f.allEdges, Overview: f.overview}
	if opt.OrderErrors, err = a.orderErrors(cmd.Context(), in, g); err != nil {
		return err
	}
	if err := graphView(g, f, args, &opt); err != nil {
		return err
	}
	d := g.Draw(opt)
	tooMany := func(d *graph.Drawing) bool {
		return f.maxNodes > 0 && (len(d.Nodes) > f.maxNodes || len(d.Edges) > 2*f.maxNodes)
	}
	if views == 0 && tooMany(d) {
		fmt.Fprintf(cmd.ErrOrStderr(), "graph: %d nodes and %d edges are too many to draw legibly (--max-nodes %d): drawing the overview, one node per mod or folder group (--from group:NAME opens one; --max-nodes 0 draws every package)\n",
			len(d.Nodes), len(d.Edges), f.maxNodes)
		opt.Overview = true
		d = g.Draw(opt)
	}
	fmt.Fprintln(cmd.ErrOrStderr(), drawnSummary(d))
	if tooMany(d) {
		msg := fmt.Sprintf("graph: %d nodes and %d edges are too many to draw legibly (--max-nodes %d): draw less with --from PKG --depth 1, --path FROM TO or --cycle N, or open the page of `upkdeps report`",
			len(d.Nodes), len(d.Edges), f.maxNodes)
		if f.format != "dot" {
			return errors.New(msg)
		}
		fmt.Fprintln(cmd.ErrOrStderr(), "warning: "+msg)
	}
	return a.writeGraph(cmd, d, f, in.IniPath)
}

// graphvizFormat says whether Graphviz's dot draws format.
func graphvizFormat(format string) bool {
	return format == "svg" || format == "png" || format == "pdf"
}

// noDot is the one line that says what to do when format needs dot and
// it is not on PATH: install Graphviz, or draw the page instead.
func noDot(format string) string {
	return "--format " + format + " needs Graphviz's dot, which is not on PATH: install Graphviz (https://graphviz.org/download/; Debian/Ubuntu: apt-get install graphviz) or use --format html (a page that draws the graph in the browser)"
}

// graphView restricts opt to the view the flags ask for: what --from
// needs (or needs it), the --path chain, or the --cycle.
func graphView(g *graph.Graph, f graphFlags, args []string, opt *graph.DOTOptions) error {
	pkg := func(what, name string) (*graph.Package, error) {
		p := g.Package(name)
		if p == nil {
			return nil, usagef("%s %s: no such package in the install", what, name)
		}
		return p, nil
	}
	switch {
	case len(f.from) > 0:
		var groups []graph.Group
		for _, n := range f.from {
			// group:NAME, or a name that is no package but a group's,
			// opens the group: its packages are the start.
			name, isGroup := strings.CutPrefix(n, "group:")
			if !isGroup && g.Package(n) == nil {
				isGroup = true
			}
			if isGroup {
				if groups == nil {
					groups = g.Groups(opt.Folders, nil)
				}
				gr := graph.FindGroup(groups, name)
				if gr == nil {
					if !strings.HasPrefix(n, "group:") {
						return usagef("--from %s: no such package or group in the install (graph --overview names the groups)", n)
					}
					return usagef("--from %s: no such group in the install (graph --overview names them)", n)
				}
				opt.Start = append(opt.Start, gr.Members...)
				opt.Start = append(opt.Start, gr.Missing...)
				continue
			}
			p, err := pkg("--from", n)
			if err != nil {
				return err
			}
			opt.Start = append(opt.Start, p)
		}
		d := f.depth
		if d == 0 {
			d = -1
		}
		for _, r := range g.Reach(opt.Start, d, f.reverse) {
			opt.Only = append(opt.Only, r.Package)
		}
	case f.path:
		from, err := pkg("--path", args[0])
		if err != nil {
			return err
		}
		to, err := pkg("--path", args[1])
		if err != nil {
			return err
		}
		if opt.Hops = g.Why(from, to); opt.Hops == nil {
			return usagef("--path: %s does not need %s (no import chain)", from.Name, to.Name)
		}
	case f.cycle != 0:
		cycles := g.Cycles()
		if f.cycle < 1 || f.cycle > len(cycles) {
			return usagef("--cycle %d: the install has %d cycles (numbered from 1, in check's order)", f.cycle, len(cycles))
		}
		opt.Only, opt.Stock = cycles[f.cycle-1], true
	}
	return nil
}

// writeGraph renders the drawing in the format asked and writes it to
// stdout or, atomically, to the output file. title names the install (the
// html page's title).
func (a *app) writeGraph(cmd *cobra.Command, d *graph.Drawing, f graphFlags, title string) error {
	var buf bytes.Buffer
	if f.format == "html" {
		if err := report.WriteDrawing(&buf, d, title, drawnSummary(d)); err != nil {
			return err
		}
	} else if err := d.WriteDOTContext(cmd.Context(), &buf); err != nil {
		return err
	}
	data := buf.Bytes()
	if graphvizFormat(f.format) {
		var err error
		if data, err = renderDOT(cmd.Context(), data, f.format); err != nil {
			return err
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

// orderErrors returns the EditPackages order errors of the install as
// [user, used] pairs, for graph to draw.
func (a *app) orderErrors(ctx context.Context, in *install.Install, g *graph.Graph) ([][2]*graph.Package, error) {
	if len(in.Ini.EditPackages()) == 0 {
		return nil, nil
	}
	res, _, err := in.Order(ctx, g, false)
	if err != nil {
		return nil, err
	}
	var out [][2]*graph.Package
	for _, f := range res.Findings {
		if f.Kind != graph.EditOrder || len(f.Packages) != 2 {
			continue
		}
		if p, q := g.Package(f.Packages[0]), g.Package(f.Packages[1]); p != nil && q != nil {
			out = append(out, [2]*graph.Package{p, q})
		}
	}
	return out, nil
}

// drawnSummary is the one line that says what the diagram stands for.
func drawnSummary(d *graph.Drawing) string {
	s := fmt.Sprintf("graph: %d nodes for %d packages", len(d.Nodes), d.Packages)
	if d.Collapsed > 0 {
		s += fmt.Sprintf(" (%d stock packages grouped; --stock draws them)", d.Collapsed)
	}
	s += fmt.Sprintf(", %d edges for %d imports", len(d.Edges), d.Imports)
	if d.Reduced {
		s += " (implied and base imports left out; --all-edges draws them)"
	}
	return s
}

// renderDOT lays out and draws src in format with Graphviz's dot program
// within renderTimeout. Graphviz's own messages (a thousand lines on a
// large graph) are not passed on: only their first line.
func renderDOT(ctx context.Context, src []byte, format string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, renderTimeout)
	defer cancel()
	bin, err := exec.LookPath("dot")
	if err != nil {
		return nil, errors.New(noDot(format))
	}
	var out, stderr bytes.Buffer
	c := exec.CommandContext(ctx, bin, "-T"+format)
	c.Stdin, c.Stdout, c.Stderr = bytes.NewReader(src), &out, &stderr
	if err := c.Run(); err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return nil, fmt.Errorf("graphviz dot did not finish in %v: draw less (--from PKG --depth 1)", renderTimeout)
		}
		return nil, fmt.Errorf("graphviz dot failed: %v: %s", err, firstLine(stderr.String()))
	}
	return out.Bytes(), nil
}

// firstLine is the first line of s, at most 200 bytes.
func firstLine(s string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	if len(first) > 200 {
		first = first[:200] + "..."
	}
	return first
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
