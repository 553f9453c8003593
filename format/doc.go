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
// indices so callers never do index arithmetic.
//
// Versions 61 to 129 are read: Unreal and UT99 (61-69, with NUL-terminated
// names before 64), Deus Ex, Rune and the other UE1 games, UT2003, UT2004,
// Killing Floor (which writes the tag C2 83 2A 9E) and SWAT 4. Anything else
// that is recognisably a package (UE3 from version 178, big-endian console
// packages, encrypted Lineage 2 files, Splinter Cell's header layout) is refused
// with an *UnsupportedError naming version and licensee rather than misparsed.
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
