// Package report writes the HTML report of an install: one self-contained
// page (script, style and data inline, no network) that shows the same
// report value `upkdeps check --json` prints, plus the dependency graph,
// as a summary, a filterable findings table with each why-chain drawn, a
// package browser with a neighbourhood diagram, the cycles drawn, the
// EditPackages order and what clients download (a treemap and bars).
//
// The page is a view over documented data: Data is marshalled once, as
// JSON in a <script type="application/json"> element that html/template
// escapes, and the page's script (assets/app.js, embedded) builds the DOM
// from it with textContent only. A Content-Security-Policy meta element
// allows only the page's own inline scripts and style (by hash) and no
// request at all. The diagrams are laid out by maintained libraries,
// vendored at pinned versions with their licences in assets/vendor (written
// by scripts/vendor-js.sh from the npm registry, each tarball checked
// against its recorded sha512) and embedded in every page: dagre (MIT) for
// the graphs, d3-hierarchy (ISC) for the treemap.
package report
