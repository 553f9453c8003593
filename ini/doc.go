// Package ini reads the ini files of Unreal Engine 1 and 2 games
// (UnrealTournament.ini, UT2004.ini, DeusEx.ini, Default.ini, ...) the way
// the engine reads them, and gives typed access to the settings upkdeps needs:
// the package search Paths and download cache of the system section
// ([Core.System], or the section a licensee build moved them to, such as
// [Engine.System]: see File.SystemSection and the game Profiles), EditPackages,
// ServerPackages, the download redirect and the language.
//
// Unreal inis look like Windows inis but differ in ways a general parser gets
// wrong. Section names hold dots ([Engine.GameEngine]) with no parent/child
// relation. Keys repeat to form lists (Paths=, ServerPackages=) or carry an
// index (Paths[0]=). Names ignore case. "=" is the only delimiter, and values
// hold ":", ";", "#", "(", quotes and trailing backslashes. ";" starts a
// comment only at the start of a line. Files are ANSI, UTF-8 or UTF-16 with a
// byte-order mark (UT2004 writes its user inis in UTF-16LE), with CRLF or LF
// line ends.
//
// Parsing is done by gopkg.in/ini.v1, configured for these rules (see
// loadOptions). This package does only what ini.v1 cannot, in one step
// before it:
//
//   - Decoding (Decode): ini.v1 skips a UTF-16 byte-order mark but does not
//     decode UTF-16, and reads bytes, not Latin-1. Decode also refuses NUL
//     characters and invalid UTF-16, and Parse enforces the size limits.
//   - Splitting and classifying lines (Lines, ClassifyLine): ini.v1 ends a
//     line only at "\n" (the engine also at a lone "\r"), reads a header
//     name up to the last "]" (the engine to the first: "[Cache] ; x]" is
//     Cache), and gives meanings the engine does not have to a value starting
//     with a backquote or """ (multi-line values), a key starting with a quote
//     (a quoted name) and the key "-" (auto-numbered). So ini.v1 is given only
//     headers and key lines, one per line: a value starting with a backquote
//     or """ is wrapped in backquotes, and keys named so are left out, as no
//     Unreal setting is. Lines before the first section and lines without
//     "=" are ignored, as the engine ignores them.
//   - Line numbers and spellings, which ini.v1 does not keep: ini.v1's
//     values are laid over the scan's lines in file order. That the two read
//     the same keys and values is proven by the fuzz test (FuzzParse), not
//     checked again at run time.
//   - The engine's lists: repeated keys are ini.v1 shadows (AllowShadows,
//     AllowDuplicateShadowValues); indexed keys (Paths[0]=) are ordinary keys
//     to ini.v1 and are merged with the repeated ones here (see Values).
//
// Values lose surrounding blanks and one pair of surrounding double quotes
// (Unquote), as the engine reads them; a trailing backslash is kept. The
// line rules and the decoder are exported because the cache package's
// line-preserving editor of cache.ini uses the same ones, and the uscript
// package reads sources with the lenient decoder (DecodeLenient): the three
// see the same text, lines, sections and keys.
//
// Load and Parse return a *File; Values, Entries and the typed accessors
// (System, EditPackages, ServerPackages, Redirect) answer from it. Find
// locates the game ini of an installation and GuessGame tells the game.
//
// How repeated and indexed keys combine: Values("Core.System", "Paths") is
// the indexed entries (Paths[0], Paths[1], ...) in index order, then the
// repeated Paths= entries in file order. A real ini uses one form; when both
// appear, Entries shows every line with its index and line number.
//
// # Syntax and where it comes from
//
//   - Sections, "Key=Value", repeated keys as lists, ";" comments at the
//     start of a line, the first "=" splitting: the stock inis of UE1 and
//     UE2 games (the corpus UnrealTournament.ini, UT2004 Default.ini and
//     DeusEx.ini) and the public UT v432 headers' FConfigCacheIni.
//   - Indexed keys "Paths[0]=": older inis and UnrealEd's writes (the corpus
//     make.ini files of EliotVU/Unreal-Library).
//   - UTF-16 with a byte-order mark: UT2004's user inis.
//   - "Key+=Value", an append to the list Key: Star Wars: Republic Commando's
//     System.ini (Paths+=, EditPackages+=, ServerPackages+=, ServerActors+=).
//     Only a profile with Profile.AppendSyntax reads it so (File.ForGame);
//     other engines read a key named "Key+" that no setting has, and so does
//     Parse. (UE3's "+Key=" and "-Key=" are not UE1/UE2 syntax.)
//
// # Security
//
// Ini files are untrusted input. Load refuses files over MaxFileSize (64 MiB)
// before reading them; Parse refuses lines over MaxLineLength (1 MiB), more
// than MaxKeyLines key lines (which bounds memory to a few hundred bytes per
// line), NUL bytes (binary data, or UTF-16 without a byte-order mark),
// invalid UTF-16, unterminated or empty section headers, and files whose
// distinct section and key names would make ini.v1's linear name lookups
// take more than about half a second: ini.v1 (v1.67) still finds a section or
// a key by walking the list of names so far, so the cost grows with the
// square of the names in a section, and the bound falls at about 11,500
// distinct keys in one section (real inis have under 2,000). Errors are *Error values naming the file and line;
// nothing panics.
package ini
