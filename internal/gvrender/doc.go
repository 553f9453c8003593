// Package gvrender lays out and renders Graphviz DOT to SVG or PNG inside
// the process, with the Graphviz engine compiled to WebAssembly and run by
// wazero (github.com/goccy/go-graphviz, pure Go, no cgo), for machines
// without an installed Graphviz.
//
// The library is vendored under third_party/go-graphviz with a patch
// (third_party/go-graphviz.patch) that loads its WebAssembly module on the
// first Render instead of in package init functions: a program that links
// gvrender and does not draw pays nothing at start (Loads stays 0). The
// module's compiled code is kept in the user's cache folder,
// os.UserCacheDir()/upkdeps/graphviz, a folder that only the user can
// write (created 0700; one that is a symbolic link, another user's or not
// private is not used, and the code is compiled in memory on every run).
// Graphviz sees no file of the host.
// The first Render of a process compiles the module or reads it from that
// folder. Renders run one at a time; one whose context is done returns at
// once and finishes in the background.
package gvrender
