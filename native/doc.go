// Package native finds the native classes of Unreal Engine 1 and 2
// packages: the classes a package's C++ module registers. Some of them
// exist only in C++ (Core.Class, Engine.Level, UT2004's Engine.KMeshProps)
// and have no export in any package file, yet packages import them; a
// class that a package's module registers and its .u file does not export
// is native-only. This package says which classes are registered, and Only
// is the one rule of what is native-only, which package graph applies to
// compiled imports and package uscript to sources.
//
// # Binaries
//
// IMPLEMENT_CLASS(UKMeshProps) in a package's C++ code leaves a symbol
// autoclassUKMeshProps in its module (Engine.dll, Engine.so), so a module's
// symbols list its package's native classes, and exactly those: ReadBinary
// reads the export directory of a PE file, the defined .dynsym and .symtab
// symbols of an ELF file (undefined ones are another module's classes:
// Engine.so uses Core's), or the import objects of an MSVC import library
// (.lib, which lists a DLL's exports; UT2004's SDK ships them). The class
// is the symbol's name after "autoclass" and the one-letter prefix A, U or
// F, whether the name is plain (UE1 and UE2 export extern "C" names),
// C-decorated, or a mangled static member (MSVC, Itanium, gcc 2.95); see
// ClassFromSymbol. A module without export table or symbols has its raw
// bytes scanned for such names (Method "byte-scan"). The package a module
// belongs to is its file name without extension: Core.dll and Core.so are
// package Core. UE1 and UE2 Linux builds name modules Core.so, never
// libCore.so, and UT2004 on Linux links all modules into the executable.
//
// # Tables
//
// An install without binaries (a repository's System folder, a Linux
// server without the Windows modules, UT2004 on Linux) falls back on a
// built-in table (Builtin, TablesFor), listing per package the classes its
// module registers in one game build. The tables are text files in
// native/tables, embedded in the package: comment lines naming the table,
// game, generation, sources and inputs, then "Package Class" lines sorted
// case-insensitively. They are made, never edited, by the generator
// beside this package from binaries (.dll, .so, .lib) and C++ headers (.h,
// whose DECLARE_CLASS, DECLARE_ABSTRACT_CLASS and DECLARE_BASE_CLASS lines
// name class and package):
//
//	go run ./native/gentables -o native/tables/NAME.txt -game G -generation N -source "repo@commit files" FILES|DIRS...
//
// The built-in tables:
//   - ut99-469: UT99 v469 (OldUnreal's patch binaries, PE and ELF alike)
//   - ut99-436: UT99 v436/451-era Linux server binaries
//   - ut2004: UT2004 Core and Engine, from the import libraries of the
//     retail DLLs in a public native SDK
//   - ut2004-3369: every other module of UT2004 (IpDrv, UWeb, Fire,
//     Editor, XGame, XInterface, Onslaught, drivers...), from the 3369
//     dedicated server's DLLs; TablesFor gives UE2 games both
//   - undying: Clive Barker's Undying Engine and IpDrv, from `ucc make -h`
//     headers; those declare only classes with a script declaration, so
//     intrinsic classes (Engine.Level, all of Core) are missing
//
// A table's header names the repository, commit and files it came from.
// The tests regenerate the tables made from corpus files byte for byte.
//
// # Sets
//
// A Set is what one install knows: the binaries found in its folders
// (FindBinaries, ReadBinary, AddBinary) and a fallback table (AddTable)
// for the packages without a binary. Classes says where a package's list
// came from; FromBinary says whether it is exact for the install.
//
// # Security
//
// Binaries are untrusted input and are only ever read, never loaded or
// run. ReadBinary opens regular files only (on Unix with O_NONBLOCK, so a
// FIFO never blocks it). Files over MaxFileSize (256 MiB) are refused;
// the PE export name count (at most 2^20), the ELF symbol count (at most
// 2^21 per table) and the import library member count (2^20) are checked
// against their limits and the file size before anything is allocated;
// every RVA is mapped through a section's raw data and checked to lie in
// the file; names are at most 4096 bytes. Corrupt input gives a
// *FormatError naming the file and offset; nothing panics (fuzzed).
package native
