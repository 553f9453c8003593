// Package format reads and writes Unreal Engine 1 and 2 package files
// (.u, .utx, .uax, .umx, .unr, .ut2, cache .uxx, ...).
//
// A package starts with a fixed header that locates three tables: the name
// table, the import table (objects this package uses from other packages) and
// the export table (objects it defines). NewFile and Open read the header and
// those tables, and for versions before 68 the heritage table that holds the
// package GUID. They never read serial (object) data, so scanning tens of
// thousands of packages costs a few small reads each.
//
// File keeps the tables as plain structs with name and object indices; its
// methods (ObjectName, ObjectPath, ClassOf, Dependencies, ...) resolve those
// indices so callers never do index arithmetic. A Reader reads many
// packages one after another into reused memory; its View method gives a
// scan-oriented reading of the same tables, validated the same way, whose
// names are decoded only when asked for (File's Names are made from the
// same name walk at once).
//
// Versions 60 to 177 are read: Unreal and UT99 (60-69, with NUL-terminated
// names before 64), Deus Ex, Rune and the other UE1 games, UT2003, UT2004,
// Killing Floor (which writes the tag C2 83 2A 9E), SWAT 4 and the other UE2
// and UE2.5 builds. The licensee table Quirks lists every build that the
// public readers UELib and umodel document, with the game it belongs to and
// the Layout its header and table records use (Splinter Cell's extra header
// fields and short names, Republic Commando's fixed-size serial fields,
// Unreal Championship 2's plain int32 indices, Pariah's reordered records,
// ...); one code path reads and writes all of them, and File.Game names the
// game. A package older than version 60 is refused with an *UnsupportedError:
// 60 is PACKAGE_MIN_VERSION in the engine's own UnObjVer.h (the published
// OldUnreal/Unreal-PubSrc source, and every later UE1/UE2 header), below
// which its linker does not load a file without asking. Anything else that
// is recognisably a package but not readable (UE3 from version 178,
// big-endian console packages, encrypted Lineage 2 and America's Army 2
// files, compressed builds, the rows of Quirks marked Unsupported) is also
// refused with an *UnsupportedError naming version, licensee and game
// rather than misparsed. A licensee missing from Quirks is read with the
// standard layout; when its tables do not parse that way the error is an
// *UnsupportedError ("unknown licensee layout"), not a *FormatError.
//
// Marshal and WriteFile write valid packages from a File value; they are how
// upkdeps makes its test fixtures and demo install.
//
// # Security
//
// Package files are untrusted input. Every count and offset is checked against
// the file size before anything is allocated (a table of N records needs at
// least N times the smallest record size) and against a limit far above any
// real package (MaxNames, MaxImports, MaxExports, MaxGenerations,
// MaxHeritage; over it, a *FormatError at the count's header offset naming
// the table, the count and the limit). Table slices start at most 1 MiB
// large and grow as records decode, so memory follows the bytes a table
// really holds, not what its header claims: a table of zero bytes (empty
// names) in a sparse file costs a small multiple of those bytes, in time
// and memory, and no more. Tables are read in bounded steps
// that never go past the bytes the records still need, a compact index is at
// most 5 bytes, name lengths are capped, every name index and object
// reference is range-checked, and outer chains are checked for loops. Corrupt
// input yields a *FormatError with the byte offset; nothing panics.
package format
