package redirect

import (
	"path/filepath"

	"github.com/upkdeps/upkdeps/check/cifmt"
)

// redirectRules are the kinds Verify reports, as CI rules.
var redirectRules = []cifmt.Rule{
	{ID: string(MissingPackage), Level: cifmt.Error, Short: "Package clients need is missing",
		Full: "A package clients download resolves to no file on the server: nothing can be published.", Help: "Install the package on the server."},
	{ID: string(Unreadable), Level: cifmt.Error, Short: "Server's copy unreadable",
		Full: "The server's copy of a package cannot be parsed, so it is not published.", Help: "Replace the server's copy with a good one."},
	{ID: string(ServerSideOnly), Level: cifmt.Error, Short: "Clients need a ServerSideOnly package",
		Full: "A package clients need is flagged ServerSideOnly: the server never sends it.", Help: "Clear the flag or stop clients from needing it."},
	{ID: string(NotDownloadable), Level: cifmt.Warning, Short: "Package not downloadable",
		Full: "A package lacks AllowDownload: clients must already own it.", Help: "Nothing to publish; make sure clients have it."},
	{ID: string(Stock), Level: cifmt.Warning, Short: "Retail package",
		Full: "A retail package every client owns: not published unless asked.", Help: "Nothing to do (redirect build --include-stock publishes it)."},
	{ID: string(Missing), Level: cifmt.Error, Short: "No redirect file",
		Full: "The redirect folder has no file for a package clients download.", Help: "Run upkdeps redirect build."},
	{ID: string(WrongCase), Level: cifmt.Error, Short: "Redirect file in the wrong case",
		Full: "The file exists only under another case: a case-sensitive web server finds nothing.", Help: "Rename the file, or run upkdeps redirect build."},
	{ID: string(WrongFormat), Level: cifmt.Error, Short: "Wrong compression format",
		Full: ".uz data where .uz2 is expected, or the reverse.", Help: "Run upkdeps redirect build to write it again."},
	{ID: string(Corrupt), Level: cifmt.Error, Short: "Corrupt redirect file",
		Full: "The file does not decompress to the server's copy.", Help: "Run upkdeps redirect build to write it again."},
	{ID: string(Outdated), Level: cifmt.Error, Short: "Outdated redirect file",
		Full: "The file holds another version of the package (another GUID or size).", Help: "Run upkdeps redirect build to write it again."},
	{ID: string(Extra), Level: cifmt.Warning, Short: "Extra file",
		Full: "A file in the redirect folder that no package of the map needs.", Help: "Remove it if nothing else serves it."},
	{ID: string(NonCanonical), Level: cifmt.Warning, Short: "Not written by the engine's encoder",
		Full: "The file decodes, but not as the engine's encoder writes it.", Help: "Nothing breaks; redirect build writes the engine's form."},
	{ID: string(NewSignature), Level: cifmt.Warning, Short: "New .uz signature",
		Full: "The .uz signature 5678 is read only by UT v469 and later clients.", Help: "Write it again with the old signature for older clients."},
	{ID: string(BiggerThanSrc), Level: cifmt.Warning, Short: ".uz bigger than its package",
		Full: "A .uz larger than its package: clients before UT v469 crash on it.", Help: "Serve the package uncompressed, or leave it out."},
	{ID: string(NameMismatch), Level: cifmt.Error, Short: "Embedded name mismatch",
		Full: "The .uz's embedded name is not the package's file name.", Help: "Run upkdeps redirect build to write it again."},
	{ID: string(ManifestProblem), Level: cifmt.Warning, Short: "Manifest unreadable",
		Full: "The redirect folder's manifest.json cannot be read.", Help: "Run upkdeps redirect build to write it again."},
	{ID: string(WriteFailed), Level: cifmt.Error, Short: "Write failed",
		Full: "Build could not write a file.", Help: "Check the folder's permissions and free space."},
}

// mapKinds are the problems with the package map, whose File is the
// server's copy relative to the game root (the others name a file of the
// redirect folder).
var mapKinds = map[FindingKind]bool{MissingPackage: true, Unreadable: true, ServerSideOnly: true, NotDownloadable: true, Stock: true}

// CILog turns a verify report into a cifmt.Log: one result per finding,
// at its file (the redirect folder's, or the server's copy under
// gameRoot), else at the ini for a problem of the map, else at the
// folder. root is the folder file names are made relative to.
func (r *VerifyReport) CILog(ini, gameRoot, version, root string) *cifmt.Log {
	l := &cifmt.Log{Tool: "upkdeps", Version: version, URI: "https://github.com/upkdeps/upkdeps", Root: root,
		Rules: append([]cifmt.Rule(nil), redirectRules...)}
	for _, f := range r.Findings {
		lvl := cifmt.Warning
		if f.Severity == Error {
			lvl = cifmt.Error
		}
		file := r.Dir
		if mapKinds[f.Kind] {
			file = ini
		}
		if f.File != "" {
			base := r.Dir
			if mapKinds[f.Kind] {
				base = gameRoot
			}
			file = filepath.Join(base, filepath.FromSlash(f.File))
		}
		if abs, err := filepath.Abs(file); err == nil {
			file = abs
		}
		msg := f.Message
		if f.Package != "" {
			msg = f.Package + ": " + msg
		}
		l.Results = append(l.Results, cifmt.Result{Rule: string(f.Kind), Level: lvl, Message: msg, File: file})
	}
	return l
}
