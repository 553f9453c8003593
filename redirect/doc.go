// Package redirect builds and checks the folder an HTTP redirect server
// publishes for an Unreal game server: a compressed copy (.uz for UE1
// clients, .uz2 for UE2) of every package a client can be asked to download.
//
// NewMap computes that package map from the install's dependency graph: every
// map (or those matching a pattern) and every ServerPackages entry with
// everything they import, transitively, minus ServerSideOnly packages, which
// the server never sends. Packages without AllowDownload (clients must own
// them), retail packages (published only on request), missing and unreadable
// packages are reported as warnings. Build writes each missing or outdated
// compressed file atomically and a manifest.json describing them; with
// DryRun it returns the same actions without writing. Verify checks a
// redirect folder against the map: every file present under its exact name
// (web servers are case-sensitive), decompressing cleanly to the server's
// copy, and nothing else there.
//
// CompressFile and DecompressFile are the single-file operations behind
// `upkdeps uz`: atomic (temporary file, rename on success), refusing to
// replace a different existing file unless forced, and refusing to publish a
// .uz larger than its source, which crashes clients before UT v469.
//
// This package never prints; callers render the returned reports.
//
// # Security
//
// Compressed files and package files are untrusted input. Decoding is done by
// package uz, which bounds memory and output (no decompression bombs: output
// is capped by the expected size, or by the caller's limit). A decompressed
// file is published only after the whole stream decoded cleanly and, for a
// package, after its header and tables parsed within the data and every
// export's data lies inside the file, which catches a .uz2 cut at a chunk
// border (a valid but shorter stream). A file name embedded in a .uz is used
// only when fsutil.SafeFileName accepts it as a plain file name; otherwise
// the input's own name (minus .uz/.uz2) is used, so a hostile name such as
// "../../System/Core.u" can never write outside the chosen folder.
// manifest.json is read with a size cap and every entry checked before use;
// a bad manifest only costs a full check of the files it describes.
package redirect
