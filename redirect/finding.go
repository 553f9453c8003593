package redirect

import (
	"cmp"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/internal/fold"
)

// Severity of a Finding: the same type as check's findings.
type Severity = graph.Severity

// Severities: an error makes `upkdeps redirect verify` exit 1; a warning is
// worth reading but clients can still download what they need.
const (
	Error   = graph.Error
	Warning = graph.Warning
)

// FindingKind names a problem class; the values are part of the JSON
// output. It is the type of check's finding kinds, and a kind both report
// (missing_package, unreadable, server_side_only) has the same value.
type FindingKind = graph.FindingKind

// Problems with the package map (from NewMap).
const (
	MissingPackage              = graph.MissingPackage // needed by clients, no file resolves
	Unreadable                  = graph.Unreadable     // the server's copy cannot be parsed: not published
	ServerSideOnly              = graph.ServerSideOnly // needed by clients but never sent
	NotDownloadable FindingKind = "not_downloadable"   // no AllowDownload: clients must own it
	Stock           FindingKind = "stock"              // a retail package: not published unless asked
)

// Problems with a redirect folder (from Verify and Build).
const (
	Missing         FindingKind = "missing"            // no file for a package
	WrongCase       FindingKind = "wrong_case"         // the file exists only under another case
	WrongFormat     FindingKind = "wrong_format"       // .uz data where .uz2 is expected, or the reverse
	Corrupt         FindingKind = "corrupt"            // does not decompress to the server's copy
	Outdated        FindingKind = "outdated"           // holds another version (GUID or size differs)
	Extra           FindingKind = "extra"              // a file no package of the map needs
	NonCanonical    FindingKind = "noncanonical"       // decodes, but not written by the engine's encoder
	NewSignature    FindingKind = "new_signature"      // .uz signature 5678: only UT v469+ clients read it
	BiggerThanSrc   FindingKind = "bigger_than_source" // a .uz larger than its package: pre-469 clients crash
	NameMismatch    FindingKind = "name_mismatch"      // the .uz's embedded name is not the package's file name
	ManifestProblem FindingKind = "manifest"           // manifest.json cannot be read
	WriteFailed     FindingKind = "write_failed"       // Build could not write a file
	LowercaseFolded FindingKind = "lowercase_folded"   // Build: the folder ignores case, so no lower-case copies
)

// Finding is one problem, about a package of the map and/or a file.
type Finding struct {
	Kind     FindingKind `json:"kind"`
	Severity Severity    `json:"severity"`
	Package  string      `json:"package,omitempty"`
	// File is the file concerned: a name in the redirect folder, or for
	// problems with the map the server's copy relative to the game root.
	File    string `json:"file,omitempty"`
	Message string `json:"message"`
}

// sortFindings orders findings: errors first, then by kind, package, file
// and message.
func sortFindings(fs []Finding) {
	rank := func(s Severity) int {
		if s == Error {
			return 0
		}
		return 1
	}
	slices.SortFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(rank(a.Severity), rank(b.Severity)),
			cmp.Compare(a.Kind, b.Kind),
			cmpFold(a.Package, b.Package),
			cmpFold(a.File, b.File),
			cmp.Compare(a.Message, b.Message),
		)
	})
}

// cmpFold orders names case-insensitively, then by spelling. The sorts of
// a large server's maps compare names millions of times: fold.Compare
// orders them as lower-casing both would, without making the copies.
func cmpFold(a, b string) int {
	return cmp.Or(fold.Compare(a, b), strings.Compare(a, b))
}

// Errors counts the findings of severity Error.
func Errors(fs []Finding) int {
	n := 0
	for _, f := range fs {
		if f.Severity == Error {
			n++
		}
	}
	return n
}
