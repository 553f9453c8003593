// Package header generates the C++ headers `ucc make -h` writes for the
// native classes of an UnrealScript package (<Pkg>/Inc/<Pkg>Classes.h),
// from the declarations uscript.ReadDecls reads, and compares a generated
// header with an existing one class by class.
//
// A Generator holds what the engine holds while it compiles: the classes,
// structs and enums of every package added so far (in compile order, each
// package seeing those before it) and the name table, in which a name keeps
// the spelling it was first given. Header renders one package.
//
// Three things in a header come from the engine's state rather than from
// the sources: the order in which the native module registered its classes
// (the order of classes in the file and of the AUTOGENERATE_FUNCTION lines),
// the order of the name table (AUTOGENERATE_NAME lines) and the spelling of
// names the engine knew before it compiled (its hard-coded names, names from
// C++); in UE2 also which events are probes (if(IsProbing(NAME_X))). When an
// existing header is given as Hints, those are taken from it, as the
// engine took them from its binary; otherwise classes come in
// class-tree order with children by file name, names in declaration order
// and spellings as first declared.
//
// Sync is the workflow `upkdeps headers` runs over a source tree: it reads
// every package in compile order, takes the layout, order and spellings
// from the existing headers, tells which classes each native module
// registers (its binary, else the existing header, else the game's own
// table) and writes, dry-runs or checks each header, returning a typed
// SyncReport (a Status per package, the Changes of a stale one). Its
// options come from an install (SyncOptions.FromInstall: EditPackages,
// natives) or from a source tree without an ini (SyncOptions.FromTree).
//
// Layout facts were read from `ucc make -h` output published with public
// UnrealScript sources and SDKs, and checked against it line by line:
// Clive Barker's Undying (UE1, corpus l0m-dev/Undying-Renewal: Engine and
// IpDrv), the public UT2004 native SDK (UE2: its MusicDownloader sources and
// header; its EngineClasses.h and Core/Inc/UnNames.h for the elements,
// DarklightGames/UT2004-NativeSDK), Wheel of Time (an Unreal 2xx-era UE1:
// babbygremlin/WOT-Scripts) and XIII (a UE2 build older than UT2003's
// format: Ch0wW/xiii_unrealscript). The early UE2 size checks (exported
// classes only, issue 29) rest on the finding alone: no public
// early-UE2 header with a VERIFY_CLASS_SIZES section was found, and XIII's
// have none. DetectLayout tells the layout from an existing header. No tree that also holds engine C++ source
// is used, not even as a test oracle.
//
// # Security
//
// Sources are read through uscript.ReadDecls, with its bounds. Existing
// headers are parsed line by line with a size limit (MaxHeaderSize). Type
// resolution follows parent classes with a bound on the depth, so a cycle
// in hostile sources ends.
package header
