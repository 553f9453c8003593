// Package uscript finds the packages an UnrealScript package needs, from
// its sources, for the moment when its compiled .u is gone: ucc make
// rebuilds the EditPackages whose .u is missing, in list order, and each may
// use only packages built before it.
//
// ScanPackage reads <GameRoot>/<Package>/Classes/*.uc (and the package's
// .upkg, for the flags ucc make will give it); Scan and ScanFile read one
// file. The scanner is a tokenizer, not a compiler: it understands
// comments (nested block comments, as the UE1 and UE2 compilers nest them),
// strings, names in single quotes, object literals, # directive lines,
// defaultproperties blocks and C++ cpptext blocks, and from that extracts
// each class's references with file:line evidence — the class declaration
// (extends, within, dependson), qualified names, object literals, #exec
// OBJ LOAD, and the type names of declarations, casts, class<...> and new.
// Nothing in a comment or a string counts.
//
// Most references name a class without its package. An Index, built from
// the classes the compiled packages export (AddCompiled) and from every
// scanned source package (AddSource), resolves them; Dependencies then
// lists the other packages a package uses, each with the lines that say
// so, and Unresolved the references that name a class nobody defines:
// those that can only be a class (extends, class<X>, Class'X', Super(X)),
// a Class'Pkg.X' or extends Pkg.X that a package whose classes are known
// does not define, and, once AddNames gave the index every name the
// compiled packages declare, a type, cast, new X or X.default whose name
// nothing declares at all (no class, struct, enum, function or variable).
// Name(expr) is a cast only when Name is a class (a call of a function the
// class may inherit otherwise), and a type name binds first to a struct or
// enum the class or a parent declares. A function call that looks like a
// cast of a class name in another package becomes a dependency unless the
// package declares a function of that name. See Index for the rule that
// settles a class name defined in several packages.
//
// Declarations are read as the games ship them: specifiers in any order
// and, where a word the table (specifiers.go, each row with its public
// source) does not know stands where a specifier stands, by its place;
// the built-in types of UE1, UE2 and 227; a second extends (a C++
// interface); cppbitmask(...); the preprocessor of licensee builds (#if
// 0/1, #ifdef of a name the file #defines; a branch that cannot be
// evaluated is read but never reported from, Ref.Inactive); and classes
// in folders below Classes, which declare names but make no dependency or
// finding (Class.Subfolder).
//
// ReadDecls (and ReadPackageDecls for a package's Classes folder) reads a
// class at the level of its declarations instead: class modifiers,
// constants, enums, structs, variables with their types, array sizes,
// modifiers and categories, delegates, functions with their modifiers and
// parameters, and cpptext blocks verbatim; it is what package
// uscript/header generates the C++ headers of `ucc make -h` from.
//
// # Security
//
// Source files are untrusted input. A file larger than MaxFileSize (16 MiB)
// is refused before it is read; UTF-16 is converted with an output bounded
// by 1.5 times the input; a file of more than 4 Mi tokens (real code has
// one in about five bytes) is refused, which bounds the bookkeeping at
// 80 MiB; every look-ahead is bounded by the token count, nested type
// arguments by a fixed depth, and evidence text is cut at 200 bytes
// whatever the length of the line; ReadDecls has the same size and token
// bounds and at most 2^18 declarations per file. Unterminated comments, strings and
// blocks end at the end of the line or file instead of failing. Scan never
// panics (a fuzz target checks it).
package uscript
