// Package explain reads an Unreal Engine 1 or 2 log (UT99, UT2004, Killing
// Floor, ...; client or server; ANSI, UTF-8 or UTF-16 with a byte-order
// mark; any size, streamed line by line with a bounded line length) and
// answers each package line it recognises against an install: what is
// wrong, why, and the fix.
//
// Recognised lines (each pattern from public logs; the tests name them):
//
//   - the package map a client receives: "USES GUID=... PKG=... GEN=..."
//     (UT v469 client logs, OldUnreal/UnrealTournamentPatches issue 1492);
//   - "Failed to load X: Can't find file for package X", with or without
//     quotes, "(Error PackageNotFound)" or an object path (issues 1126,
//     2044; UT2004: OldUnreal/UT2004Patches issue 450,
//     OldUnreal/FullGameInstallers issue 28), and "Can't find file X"
//     (utspect/InstaGibPlus issue 44);
//   - "Package X version mismatch" and "File X with GUID A was already
//     loaded but is incompatible with requested GUID B" (issues 785, 1251);
//   - "Failed import: CLASS CLASS PKG.PATH (file F[, when loading Package
//     P])" (issues 229, 1816; UT2004Patches issue 509);
//   - "Failed to find object 'CLASS PKG.PATH'" (a UE2 log in
//     eezstreet/SWATEliteForce issue 517);
//   - the server's "Server Package: X" (BuildServerMasterMap's line).
//
// Any other line that speaks of a failure ("fail", "can't find",
// "mismatch", "unresolved", "missing") is listed as not understood, never
// guessed at; the rest of the log is counted and skipped.
package explain
