// Package search finds package files the way an Unreal Engine 1 or 2 game
// does (the engine's appFindPackageFile), and reports what the installation's
// search order hides: packages shadowed by an earlier Paths entry, the same
// name with two extensions, names that differ only in case.
//
// A Searcher is made from a game ini (see package ini). Everything is
// relative to the ini's folder, the System folder the engine runs in. For a
// package name the engine tries, in order:
//
//  1. the name as given, as a file name relative to System
//     ("..\Maps\DM-Foo.unr");
//  2. for each Paths entry of the system section ([Core.System], or a
//     licensee's own: see ini.File.SystemSection) in order, the part before
//     the "*" (the folder, possibly empty: "*.u" is System itself) followed by the
//     name, and then by the name plus the pattern's extension. With a
//     language other than int the localized extension (".det_u" for "*.u")
//     is tried before the plain one;
//  3. only when a GUID is known (a server's package map): the download cache
//     last, CachePath/GUID + CacheExt in UE1, CachePath/GUID-Generation.uxx in
//     UE2;
//  4. if nothing matched, steps 2 and 3 again comparing names ignoring case,
//     which a case-sensitive file system (a Linux server) may not get to: a
//     match there is reported as a case mismatch.
//
// UE2 adds a check to steps 1, 2 and 4 when a GUID is known: an installed
// file other than a .u is accepted only when its header has that GUID or the
// Official flag; otherwise the search goes on.
//
// Both "\" and "/" separate folders in Paths, CachePath and names. Results
// name files by absolute path (File) and, for display, relative to the game
// root, the parent of the ini's folder ("System/Core.u", "Maps/DM-Foo.unr"),
// always with "/"; a file outside the root is named by its absolute path.
//
// Names are compared exactly first, as a case-sensitive file system does,
// even on Windows: the file system is read through directory listings, one
// per folder, cached in the Searcher. Looking a hundred thousand names up
// costs one listing per Paths folder, not a file system call per candidate.
//
// Which platform's file-name rules apply is a property of the install, not
// of the machine reading it (see Platform and DetectPlatform: its binaries
// tell). Under Windows rules the folders of Paths, CachePath and names
// match ignoring case, and so does a pattern's extension ("Walls.Dtx" for
// "*.dtx") in step 2; under Linux rules they match exactly, each folder's
// name compared with its parent's listing, so that a case-insensitive host
// (Windows, macOS) answers as a Linux server would. The package
// name itself is the engine's step 4 under both. Either way CaseNotes names
// each setting whose folder or extension the disk spells in another case,
// with the fix, once: what a Linux server would miss.
//
// Packages lists every package file reachable through Paths, and Collisions
// turns that list into reusable findings.
//
// # Security
//
// Ini values and names are untrusted. They are only joined to the ini's
// folder and looked up in directory listings: nothing is created, written or
// deleted. A name holding folders ("..\Maps\X.unr") makes the Searcher list
// those folders, each once, as the engine would look there; under Windows
// rules a folder that does not exist as written also lists its parents, up
// to the first that exists, to match it ignoring case. A name holding NUL
// is refused. Package headers are read (UE2 GUID checks, the generation guess)
// through package format, which validates them; a file that cannot be read is
// reported, never fatal. Listings are held in memory: the cost is the size of
// the folders the ini names.
package search
