package check

import (
	"github.com/upkdeps/upkdeps/check/cifmt"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/install"
)

// ruleDocs are the finding kinds as CI formats describe them (docs/check.md
// has the full table): short description, what it means, what to do, and
// the usual severity.
var ruleDocs = []cifmt.Rule{
	{ID: string(graph.MissingPackage), Level: cifmt.Error,
		Short: "Missing package",
		Full:  "A package is imported by another package or named by an ini line, but no file resolves through the ini's Paths as the engine searches them.",
		Help:  "Install the package where a Paths entry finds it (upkdeps check --index lists known copies), or remove what names it. For an EditPackages entry with sources, run ucc make."},
	{ID: string(graph.MissingObject), Level: cifmt.Error,
		Short: "Missing object",
		Full:  "The package resolves but lacks objects that importers use or that the ini names: the installed file is another version than the one they were built against.",
		Help:  "Install the version of the package the importers were built against (same GUID), or rebuild the importers against this one."},
	{ID: string(graph.ClassMismatch), Level: cifmt.Error,
		Short: "Class mismatch",
		Full:  "Objects an importer uses exist with another class: the importer was built against another version of the exporting package.",
		Help:  "Rebuild the importer against the installed package, or install the version it was built against."},
	{ID: string(graph.NativeUnknown), Level: cifmt.Warning,
		Short: "Native class not verifiable",
		Full:  "A class is imported from a package whose native code may define it, but the install lacks that binary and the built-in table does not know the class.",
		Help:  "Install the package's native module (.dll/.so), or check that the class exists in the game version the server runs."},
	{ID: string(graph.CaseMismatch), Level: cifmt.Warning,
		Short: "Name resolves only ignoring case",
		Full:  "An import or ini line finds its file only when case is ignored: a server on a case-sensitive file system fails to load it.",
		Help:  "Rename the file, or fix the spelling where it is named, so that the case matches."},
	{ID: string(graph.Collision), Level: cifmt.Warning,
		Short: "Package name collision",
		Full:  "The same base name exists with two extensions or two spellings through Paths: the engine loads one of them and never the other.",
		Help:  "Rename or remove the file the engine does not load."},
	{ID: string(graph.Shadowed), Level: cifmt.Warning,
		Short: "Shadowed package file",
		Full:  "The same file name exists in two Paths folders: the later one is never loaded.",
		Help:  "Remove the copy that is never loaded, or reorder Paths if it is the one wanted."},
	{ID: string(graph.Cycle), Level: cifmt.Warning,
		Short: "Dependency cycle",
		Full:  "Packages import from each other. Files that all exist load, but a clean rebuild fails; it is an error when ucc make rebuilds a member.",
		Help:  "Move the shared classes into a package both can depend on, so that the imports go one way."},
	{ID: string(graph.EditOrder), Level: cifmt.Error,
		Short: "EditPackages order",
		Full:  "An EditPackages entry uses a package listed after it (ucc make builds it first and fails), or is listed twice.",
		Help:  "Reorder EditPackages as upkdeps order suggests; remove the repeated line."},
	{ID: string(graph.EditMissing), Level: cifmt.Warning,
		Short: "EditPackages dependency not listed",
		Full:  "EditPackages entries use a package that is neither listed before them nor present.",
		Help:  "Add the package to EditPackages before its users, or install it."},
	{ID: string(graph.EditUnchecked), Level: cifmt.Warning,
		Short: "EditPackages entry not checkable",
		Full:  "An EditPackages entry has neither a readable compiled package nor sources: nothing says what it uses, and ucc make cannot build it.",
		Help:  "Add the package's sources (Classes/*.uc) or its compiled file, or remove the entry."},
	{ID: string(graph.EmbeddedCopy), Level: cifmt.Warning,
		Short: "Map embeds a copy of a package",
		Full:  "A map holds a top-level group named like an installed package whose objects that package also exports: the map carries its own copy.",
		Help:  "Nothing breaks; to save size and avoid mismatches, rebuild the map against the installed package."},
	{ID: string(graph.UnknownClass), Level: cifmt.Warning,
		Short: "Unknown class in sources",
		Full:  "A source names a class or type that no package listed before it, compiled or from sources, and no native code defines. An error when ucc make rebuilds the entry.",
		Help:  "Add the package that defines it to EditPackages before this one, or fix the name."},
	{ID: string(graph.IniRepeat), Level: cifmt.Warning,
		Short: "Repeated ini entry",
		Full:  "A ServerPackages or ServerActors entry repeats an earlier one, exactly or in another case.",
		Help:  "Remove the repeated line."},
	{ID: string(graph.IniSection), Level: cifmt.Warning,
		Short: "Ini line in a section the engine ignores",
		Full:  "A ServerPackages, ServerActors or EditPackages line is in a section the engine never reads it from.",
		Help:  "Move the line to the section the message names."},
	{ID: string(graph.Unreadable), Level: cifmt.Error,
		Short: "Unreadable package",
		Full:  "A package file cannot be parsed; the message gives the byte offset.",
		Help:  "Replace the file with a good copy (a partial download or a Git LFS pointer is a common cause)."},
	{ID: string(graph.ServerSideOnly), Level: cifmt.Error,
		Short: "Clients need a ServerSideOnly package",
		Full:  "A package clients load imports a package flagged ServerSideOnly, which the server never sends.",
		Help:  "Clear the ServerSideOnly flag (the .upkg) or stop the client-side package from importing it."},
	{ID: string(graph.StockMissing), Level: cifmt.Error,
		Short: "Base install incomplete",
		Full:  "Several of the missing packages are the game's own retail files: the base install is incomplete.",
		Help:  "Install the game's retail files (or copy the folders the message names) before looking at the other findings."},
	{ID: string(IntServerPackage), Level: cifmt.Error,
		Short: "ServerPackages names a localisation file",
		Full:  "A ServerPackages entry names a localisation file (Foo.int): the server loads every entry as a package when it starts, and stops.",
		Help:  "Remove the line, or name the package instead of its .int."},
	{ID: string(IntMissingClass), Level: cifmt.Warning,
		Short: "Localisation entry names a missing class",
		Full:  "An Object= line of a localisation file names a class its package does not export, or a package that does not resolve: the menus list an entry that does nothing.",
		Help:  "Install the package the line names, or remove the line (or its .int)."},
	{ID: string(IntWrongMetaClass), Level: cifmt.Warning,
		Short: "Localisation entry of the wrong MetaClass",
		Full:  "An Object= line's class exists, but does not derive from the MetaClass the line gives.",
		Help:  "Fix the line's MetaClass, or the class it names."},
	{ID: string(IntUnchecked), Level: cifmt.Warning,
		Short: "Localisation entry not checkable",
		Full:  "An Object= line's superclass chain stops at a package that cannot be read or lacks the superclass: whether the class derives from MetaClass went unchecked.",
		Help:  "Install or repair the package the chain stops at."},
	{ID: string(IntBadLine), Level: cifmt.Warning,
		Short: "Malformed localisation entry",
		Full:  "An Object= value that is not a parenthesised list of Key=Value fields.",
		Help:  "Fix the line's syntax."},
	{ID: string(IntOrphan), Level: cifmt.Warning,
		Short: "Orphaned localisation file",
		Full:  "A localisation file whose name no package and no program beside it has: a leftover of a removed mod, or its package is missing.",
		Help:  "Remove the file, or install its package."},
	{ID: string(LiveMissing), Level: cifmt.Error,
		Short: "Live package map names a missing package",
		Full:  "An entry of the live package map beyond ServerPackages (a map vote preset, a game type's packages) names a package no file resolves for.",
		Help:  "Install the package, or remove it from the preset or game type."},
	{ID: string(LiveUnsent), Level: cifmt.Error,
		Short: "Map vote's client package not sent",
		Full:  "A map vote that does not manage ServerPackages (MVES with bOverrideServerPackages off) needs its client package in them, and the ini's ServerPackages lack it: clients cannot vote.",
		Help:  "Add the package to ServerPackages, or let the map vote manage them."},
}

// Rules returns the finding kinds as CI rules (cifmt.Rule), in the order
// of graph's kinds.
func Rules() []cifmt.Rule { return append([]cifmt.Rule(nil), ruleDocs...) }

// CILog turns rep, a report of in, into a cifmt.Log: the rules of the
// kinds, and each finding located by in.Locate. root is the repository
// root file names are made relative to.
func CILog(in *install.Install, rep *Report, version, root string) *cifmt.Log {
	return FindingsLog(in, rep.Findings, version, root)
}

// FindingsLog is CILog for any list of findings of in (order's).
func FindingsLog(in *install.Install, findings []graph.Finding, version, root string) *cifmt.Log {
	l := &cifmt.Log{Tool: "upkdeps", Version: version, URI: "https://github.com/upkdeps/upkdeps", Root: root, Rules: Rules()}
	for _, f := range findings {
		loc := in.Locate(f)
		lvl := cifmt.Warning
		if f.Severity == graph.Error {
			lvl = cifmt.Error
		}
		l.Results = append(l.Results, cifmt.Result{Rule: string(f.Kind), Level: lvl, Message: f.Package + ": " + f.Message,
			File: loc.File, Line: loc.Line, Fingerprint: Fingerprint(f)})
	}
	return l
}
