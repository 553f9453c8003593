// Package check runs upkdeps' check of a game installation and owns its
// report: the typed, documented [Report] that `upkdeps check --json`
// prints and the HTML report (package report) draws.
//
// An [Install] is a game installation as every command sees it: its ini,
// the game profile, the engine's package lookup (a search.Searcher) and,
// once loaded, the natives of its binaries. [Open] makes one; [Run] checks
// it and returns the report, with the variants of check: the download
// cache counted (Options.WithCache), a mod overlaid as if installed
// ([RunWith]) and the missing packages and objects looked up in a package
// index ([AddCandidates]). [Diff] is the one comparison of two finding
// lists those variants share.
//
// The package never prints: warnings go to the caller's Options.Warn.
package check
