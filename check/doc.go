// Package check runs upkdeps' check of a game installation and owns its
// report: the typed, documented [Report] that `upkdeps check --json`
// prints and the HTML report (package report) draws.
//
// The install comes from package install (install.Open). [Run] checks it
// and returns the report, with the variants of check: the download cache
// counted (Options.WithCache), a mod overlaid as if installed ([RunWith])
// and the missing packages and objects looked up in a package index
// ([Candidates]); the caller puts what the last two return in the report
// (Report.With, Report.Index). [Diff] is the one comparison of two
// finding lists those variants share.
//
// Only package report and the command line import check.
//
// The package never prints: warnings go to the caller's Options.Warn.
package check
