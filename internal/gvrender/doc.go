// Package gvrender lays out and renders Graphviz DOT to SVG or PNG inside
// the process, with the Graphviz engine compiled to WebAssembly and run by
// wazero (github.com/goccy/go-graphviz, pure Go, no cgo), for machines
// without an installed Graphviz.
//
// It is built only with the build tag graphvizwasm: go-graphviz compiles
// its WebAssembly module in a package init function, so linking it costs
// every command of the program, drawing or not, about 0.25 s at start with
// a warm compilation cache in $TMPDIR/go-graphviz, 5 to 8 s on the first
// run (README.md, "graph", has the figures). Without the tag, Available
// is false and Render returns ErrNotBuilt.
package gvrender
