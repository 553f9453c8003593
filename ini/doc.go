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
// Parsing is done by gopkg.in/ini.v1, configured for these rules. Before it,
// a scanner decodes the text, splits lines as the engine does (a line break
// is CRLF, LF or a lone CR), records line numbers and spellings, and passes
// ini.v1 only section headers and key lines, rewriting the few constructs
// ini.v1 would read differently: a value starting with a backquote or """
// (multi-line values to ini.v1) is wrapped in backquotes, and keys starting
// with a quote (quoted names to ini.v1) or named "-" (auto-numbered) are
// dropped, as no Unreal setting is named so. Lines before the first section
// and lines without "=" are ignored, as the engine ignores them. Values lose
// surrounding blanks and one pair of surrounding double quotes, as the engine
// reads them; a trailing backslash is kept.
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
// # Security
//
// Ini files are untrusted input. Load refuses files over MaxFileSize (64 MiB)
// before reading them; Parse refuses lines over MaxLineLength (1 MiB), more
// than MaxKeyLines key lines (which bounds memory to a few hundred bytes per
// line), NUL bytes (binary data, or UTF-16 without a byte-order mark),
// invalid UTF-16, unterminated or empty section headers, and files whose
// distinct section and key names would make ini.v1's linear name lookups
// take more than about half a second (their cost grows with the square of
// the names in a section: about 11,500 distinct keys in one section; real
// inis have under 2,000). Errors are *Error values naming the file and line;
// nothing panics.
package ini
