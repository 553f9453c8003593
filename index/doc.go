// Package index is the package database: every Unreal package found in
// folders, archives (.zip, .umod, .7z, .rar, nested once), redirect
// downloads (.uz, .uz2) and download caches, with its name, GUID,
// generations, version, size, SHA-256, place, exports and imports, in one
// SQLite file (modernc.org/sqlite: pure Go, no cgo).
//
// The database is a cache of its sources: everything in it is rebuilt by
// adding the sources again, and adding a source again reads only what
// changed. Its schema (schema.sql, embedded) is plain SQL, versioned with
// PRAGMA user_version and migrated forward one transaction per step. A
// source has a kind; a "metadata" source (the Unreal Archive's catalogue,
// issue 16) describes packages without holding their bytes, so a package's
// file is optional.
//
// On top of it: Find (every copy of a name, GUID or object), Candidates
// (what could stand in for a missing package) and Plan (what fix copies,
// closed over the imports of what it brings), and Apply, which carries a plan
// out: each copy placed where the caller's Paths put it, compared by SHA-256
// with what is installed, copied atomically with its native binaries, each
// with a CopyStatus.
package index
