// Package intfile reads the localisation files of Unreal Engine 1 and 2
// games (.int, and the same files in other languages: .det, .frt, ...) and
// checks what they register.
//
// A localisation file is an ini file (package ini reads it: ANSI, UTF-8 or
// UTF-16 with a byte-order mark, CRLF or LF, repeated keys kept in file
// order). Besides translated strings, its [Public] section registers
// objects for the game's menus and lists, one Object= line each:
//
//	[Public]
//	Object=(Name=MyMod.MyMutator,Class=Class,MetaClass=Engine.Mutator,Description="...")
//
// The engine lists such a class in the menus of MetaClass's kind (the
// mutator list, the game types) by reading these lines
// (UObject::GetRegistryObjects in the public UT v432 headers, Core's
// UnObjBas.h; the Beyond Unreal wiki's "INT file" page describes the
// [Public] section). A line whose class does not exist, or does not derive
// from its MetaClass, shows an entry that does nothing, or none.
//
// Check reads each Object= line of class Class: the class must be exported
// by its package, and its superclass chain (the Super reference of each
// class export, across packages through their imports) must reach
// MetaClass. Where a package of the chain cannot be read, the line is
// reported as unchecked, never as wrong. The packages are opened through
// a lookup the caller gives (the install's Paths), and only their header
// and tables are read.
package intfile
