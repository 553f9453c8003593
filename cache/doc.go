// Package cache reads and manages an Unreal Engine 1 or 2 download cache:
// the folder (CachePath) where a client keeps the packages it downloaded
// from servers, each under its GUID, with cache.ini mapping GUIDs back to
// the original file names.
//
// UE1 names a cache file GUID + CacheExt ("9316A7AB...D8D7.uxx") and
// writes "GUID=Nexgen112.u" under [Cache]; UE2 adds the package's
// generation count: "GUID-1.uxx" and "GUID-1=KFMapVoteV3.u". The engine
// looks a cache file up by GUID alone, last, after every Paths folder (see
// package search), so an installed package of the same name hides a cached
// version with another GUID. PurgeCacheDays deletes old files but keeps
// their lines, and the engine's MoveCacheEntry moves a file into the
// install and leaves its key with an empty value, so lines without files
// are normal.
//
// cache.ini is read with the ini package's decoder and line rules
// (ini.Decode, ini.Lines), so Open sees the [Cache] keys and values that
// ini.Parse sees: a header is "[" up to the first "]" ("[Cache] ; downloads"
// is [Cache]), ";" and "#" lines are comments, blanks around keys and values
// and one pair of double quotes around a value are dropped. Lines Parse
// would refuse (a "[" without "]") are kept as unknown lines.
//
// Open reads cache.ini and lists the folder, reading only the headers of
// the cache files (in parallel), and gives every entry a State; Classify
// adds what the installation has (installed_same, installed_other). Stray
// download files (????.tmp, often .uz data) are classified by their first
// bytes. PlanExtract, PlanClean and PlanAdd compute a Plan, a list of
// Actions that a dry run prints and Run performs: every file is written by
// an atomic copy (temporary file, fsync, rename), cache.ini is rewritten
// atomically changing only the lines concerned (comments, unknown lines,
// order, line ends and encoding are kept), and the steps of a move are
// ordered so that an interruption at any point loses nothing and a second
// run completes the job. A write plan starts by removing the temporary files
// killed writes left in the cache folder (and, for extract, those of its own
// targets). Options.Lock holds the folder's lock from before Open reads
// anything until Close, so that two writers cannot interleave their
// cache.ini rewrites; a second writer gets a *LockedError.
//
// # Security
//
// cache.ini and the file names it holds are untrusted: they come from the
// servers a client joined. Keys are accepted only in the engine's GUID
// forms, so a key never becomes a path; files are found by listing the
// folder. An original name is used as a file name only after
// fsutil.SafeFileName accepts it (no separators, drive letters, "..",
// device names or control characters), and the joined path is checked to
// stay in the target folder: a hostile cache.ini cannot make extract write
// outside the install, nor onto a file upkdeps keeps for itself
// (fsutil.IsControlFile: cache.ini, the lock, a temporary file), forced or
// not. Options.Ext must be a plain extension (fsutil.SafeExt). Every file
// is opened with fsutil.OpenRegular: a named pipe is a file that cannot be
// read, never a wait. An installed file with other content is never
// replaced without Force. cache.ini is read only up to MaxIniSize; package
// headers are read by package format, which validates them; a stray file
// is sniffed from its first few KiB, and decompressed (clean only) as a
// stream that is hashed, never held, up to the uz package's 1 GiB limit. Names are shown through
// Printable, which quotes control characters.
package cache
