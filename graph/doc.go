// Package graph builds the install-wide dependency graph of an Unreal
// installation and finds what is broken in it.
//
// Build scans every package the engine can reach through the ini's Paths
// (in parallel, header and tables only), resolves every import the way the
// engine's linker does — the package file by the engine's search order, then
// an export with the same group path, name and class, case-insensitively —
// and keeps a gonum directed graph of packages: a node per resolved package
// file or missing name, an edge per "imports from" with the imported objects
// as evidence. Graph.Check turns it into Findings (missing packages and
// objects, class mismatches, cycles, collisions, EditPackages ordering, ...),
// each with the import chain that makes it matter.
//
// Native-only classes (objects that exist only in C++ and have no export)
// are not missing: an object a package imports from its own name is native,
// and so is every class the package's native code registers
// (CheckOptions.Natives: the install's binaries read by package native,
// else the built-in tables of BuiltinNatives). When a package's binary was
// read, its list is exact; otherwise an unknown class is only a warning.
// An import of native-only classes only is a load dependency (an edge),
// but never a build-order constraint nor part of a reported cycle
// (BuildCycles; nativeOnly is the one rule for compiled imports).
//
// EditPackages are checked as ucc make builds them (CheckEditPackages): it
// rebuilds only the entries whose .u is missing, so a problem among entries
// that all have their .u is a warning, an error when one will be rebuilt.
//
// The ini is a root of the graph too (Options.Roots, RootsOf): the lines
// that make the engine load a package or class by name are looked up like
// imports, and findings carry them as evidence (Finding.Roots).
//
// Draw makes a Drawing of the graph or of a View of it (Select: what a
// package needs, an import chain, a cycle; Groups for the overview), which
// WriteDOT writes as Graphviz DOT and Render draws through Graphviz's dot.
//
// gonum is hidden behind a name-based API: callers use package names, never
// node IDs, and every list this package returns is sorted.
package graph
