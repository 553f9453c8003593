// Package compare puts a client install beside a server: for every package
// the server's live package map sends and every package a map the server
// runs needs (package redirect's package map, retail packages included),
// whether the client's copy resolves, through the client's own Paths and
// download cache as its engine looks a package of a server's map up
// (search.Searcher.FindGUID), to the same GUID (and, on UE2, at least the
// server's generation count), to another one, or to nothing. Each
// difference is a Finding with the error the player would see and the fix.
//
// What the player sees comes from public logs: "Failed to load X: Package X
// version mismatch" (UT v469 client logs in OldUnreal/UnrealTournamentPatches
// issues 785 and 1251; the UT2004 3369 behaviour in OldUnreal/UT2004Patches
// issue 3: a wrong installed copy is an error, a wrong cached one is
// replaced by a download), "Can't find file for package X" (issue 1293 and
// 1126 of the UT patches: a package the client neither has nor can download).
// A copy with the server's GUID but fewer generations (UE2) is compared
// through the package map's local and remote generation counts
// (FPackageInfo in the public UT v432 headers' UnLinker.h): the lower one
// is used, so the objects of the later generations do not replicate.
// With Options.Redirect, the server's redirect folder is checked too
// (redirect.Verify): a compressed file made from another version than the
// server's file is a redirect_outdated finding.
package compare
