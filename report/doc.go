// Package report writes the HTML report of an install: one self-contained
// page (script, style and data inline, no network) that shows the same
// report value `upkdeps check --json` prints, plus the dependency graph,
// as a summary, a filterable findings table, a package browser with a
// neighbourhood diagram, the cycles and the EditPackages order.
//
// The page is a view over documented data: Data is marshalled once, as
// JSON in a <script type="application/json"> element that html/template
// escapes, and the page's script (assets/app.js, embedded) builds the DOM
// from it with textContent only. A Content-Security-Policy meta element
// allows only the page's own inline script and style (by hash) and no
// request at all. The neighbourhood layout is our own small layered
// layout (assets/app.js, layout()): a vendored library would be larger
// than the 1–2 hop diagrams it draws need.
package report
