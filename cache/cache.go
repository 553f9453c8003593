package cache

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/dirlock"
	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/internal/par"
)

// State is what a cache entry is found to be.
type State string

// The states of an entry. Exactly one applies; when several would, the
// first in this list wins (a file that is not a package is reported as
// such even when cache.ini has no line for it).
const (
	StateNotAPackage    State = "not_a_package"   // the file is not a package the reader accepts
	StateGUIDMismatch   State = "guid_mismatch"   // the header's GUID is not the one in the file name
	StateMissingFile    State = "missing_file"    // a cache.ini line without its file (PurgeCacheDays does this)
	StateEmptyEntry     State = "empty_entry"     // a cache.ini line with no name and no file: moved into the install
	StateOrphanFile     State = "orphan_file"     // a file with no cache.ini name for it
	StateInstalledOther State = "installed_other" // the install has a package of this name with another GUID: the engine loads that one (version mismatch)
	StateInstalledSame  State = "installed_same"  // the install has this very package (same GUID): the cache copy is redundant
	StateOK             State = "ok"
)

// IsProblem reports whether the state is an error in the cache: the file is
// unusable or the engine would load another version instead. Missing files,
// empty entries and redundant copies are normal wear and are not problems.
func (s State) IsProblem() bool {
	switch s {
	case StateNotAPackage, StateGUIDMismatch, StateInstalledOther:
		return true
	}
	return false
}

// Entry is one cached package: a cache.ini line, a cache file, or both.
type Entry struct {
	// Key is the cache.ini key and the file name without extension: the
	// GUID in UE1, "GUID-Generation" in UE2, upper-case.
	Key        string
	GUID       string // 32 upper-case hex digits
	Generation int    // UE2: the generation in the key; 0 in UE1
	Name       string // original file name from cache.ini; "" for an orphan file or an empty entry
	File       string // the cache file, absolute; "" when there is none
	Size       int64  // size of File
	Version    int    // package file version from File's header; 0 when unread
	Licensee   int
	HeaderGUID string // the GUID in File's header; "" when unread
	State      State
	// Installed is, for installed_same and installed_other, the installed
	// file the engine finds for Name, relative to the game root with "/".
	Installed string
	// InstalledFile is Installed as an absolute path.
	InstalledFile string
	// InstalledGUID is the GUID in InstalledFile's header ("" when unread).
	// Classify sets the three Installed fields for any named entry the
	// installation has, whatever its state.
	InstalledGUID string
	// installedIndex is the Paths entry that found InstalledFile; -1 for
	// the name as given, which the engine tries before Paths.
	installedIndex int
	// Detail explains not_a_package (the reader's error) and guid_mismatch.
	Detail string
	// Line is the 1-based cache.ini line of the key (the last one when the
	// key repeats: the engine reads that one); 0 when cache.ini has none.
	Line int
}

// Orphan reports whether the entry is a file cache.ini gives no name to.
func (e *Entry) Orphan() bool { return e.File != "" && e.Name == "" }

// Stray kinds.
const (
	KindUZ      = "uz"           // UE1 .uz redirect download (Original is the name inside)
	KindUZ2     = "uz2"          // UE2 .uz2 redirect download
	KindPartial = "partial"      // a package, complete or cut short
	KindUnknown = "unknown"      // none of the above (often empty)
	KindOwnTemp = "upkdeps_temp" // left by an interrupted upkdeps write
)

// Stray is a download temporary file: the engine writes a download to
// CachePath's parent as Cache????.tmp (older builds, literally CachePath +
// "????.tmp") or into the cache folder as ????.tmp (469), and renames it to
// its GUID name when done; what is left was interrupted, or was the
// compressed form of a download the engine then unpacked.
type Stray struct {
	File     string // absolute
	Kind     string // KindUZ, KindUZ2, KindPartial, KindUnknown, KindOwnTemp
	Original string // KindUZ: the original file name stored in it; KindPartial: the name of the cache entry with the header's GUID; else ""
	GUID     string // KindPartial: the header's GUID when readable
	Size     int64
}

// BadLine is a [Cache] line whose key is not a cache key of the cache's
// generation; the engine would never find a file for it.
type BadLine struct {
	Line int
	Key  string
}

// Options adjust Open. The zero value reads everything from the folder.
type Options struct {
	// Generation is 1 (UE1: GUID + Ext files) or 2 (UE2: GUID-Gen.uxx
	// files); 0 decides from the key and file names (UE2 when most carry a
	// "-Generation" suffix).
	Generation int
	// Ext is UE1's CacheExt (".uxx"). "" takes the most common extension of
	// the GUID-named files, else ".uxx". UE2 always uses ".uxx".
	Ext string
	// Jobs is the number of headers read in parallel, and of goroutines
	// that decompress a stray download (one at a time); <= 0 is one per
	// core.
	Jobs int
	// Lock, for a command that will change the cache, takes the folder's
	// lock (dirlock.Dir) before anything is read, so that the plan is
	// made from what no other writer changes until Close. Lock is what
	// the lock's holder is shown as to a second writer ("upkdeps cache
	// clean"); "" takes no lock. A second writer gets a
	// *LockedError at once. Readers do not lock.
	Lock string
}

// LockedError reports that another process holds the cache folder's lock
// (Options.Lock): Holder names it. errors.Is(err, ErrLocked) is true. The
// redirect package's LockedError is the same type.
type LockedError = dirlock.LockedError

// ErrLocked is matched (errors.Is) by a *LockedError.
var ErrLocked = dirlock.ErrLocked

// LockName is the lock file a writer holds in the cache folder. It stays
// when the writer ends.
const LockName = dirlock.Name

// Cache is a download cache folder as read by Open.
type Cache struct {
	Dir        string // absolute
	Ext        string // cache file extension with its dot
	Generation int    // 1 or 2

	entries []Entry
	strays  []Stray
	bad     []BadLine
	doc     *iniDoc
	iniPath string
	hasIni  bool
	jobs    int
	lock    *dirlock.Lock
}

// Open reads the cache folder dir: cache.ini, the GUID-named files (their
// headers only, in parallel) and the stray download files. It stops with
// ctx's error when ctx is done (between headers).
func Open(ctx context.Context, dir string, opt Options) (*Cache, error) {
	if opt.Generation < 0 || opt.Generation > 2 {
		return nil, fmt.Errorf("cache: generation %d: want 1, 2 or 0", opt.Generation)
	}
	if opt.Ext != "" && opt.Generation != 2 {
		ext := opt.Ext
		if !strings.HasPrefix(ext, ".") {
			ext = "." + ext
		}
		if err := fsutil.SafeExt(ext); err != nil {
			return nil, fmt.Errorf("cache: extension %q: %s", opt.Ext, nameReason(err))
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("cache: %s: %w", dir, err)
	}
	c := &Cache{Dir: abs, jobs: opt.Jobs}
	if opt.Lock != "" {
		if c.lock, err = dirlock.Dir(abs, opt.Lock); err != nil {
			return nil, err // it names the folder, and the holder
		}
	}
	if err := c.read(ctx, opt); err != nil {
		c.lock.Unlock()
		return nil, err
	}
	return c, nil
}

// Close releases the lock Open took (Options.Lock); without one it does
// nothing. Plans made from c must have run before.
func (c *Cache) Close() error {
	err := c.lock.Unlock()
	c.lock = nil
	return err
}

// nameReason is the reason of a *fsutil.NameError, else the error's text.
func nameReason(err error) string {
	var ne *fsutil.NameError
	if errors.As(err, &ne) {
		return ne.Reason
	}
	return err.Error()
}

// read fills c from the folder.
func (c *Cache) read(ctx context.Context, opt Options) error {
	abs := c.Dir
	ents, err := os.ReadDir(abs)
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	c.jobs = par.Jobs(c.jobs)
	var files []string
	for _, e := range ents {
		if e.Type().IsRegular() || e.Type()&os.ModeSymlink != 0 {
			files = append(files, e.Name())
		}
	}
	c.iniPath = filepath.Join(abs, iniFileName(files))
	if c.doc, err = readIniDoc(c.iniPath); err != nil {
		return err
	}
	c.hasIni = len(c.doc.lines) > 0 || fileExists(c.iniPath)

	c.Generation = opt.Generation
	if c.Generation == 0 {
		c.Generation = c.guessGeneration(files)
	}
	c.Ext = opt.Ext
	switch {
	case c.Generation == 2:
		c.Ext = ".uxx"
	case c.Ext == "":
		c.Ext = guessExt(files)
	case !strings.HasPrefix(c.Ext, "."):
		c.Ext = "." + c.Ext
	}
	c.build(files)
	c.findStrays(files)
	if err := c.readHeaders(ctx); err != nil {
		return err
	}
	c.sort()
	return nil
}

// iniFileName is "cache.ini" or, on a case-sensitive file system, the
// spelling present.
func iniFileName(files []string) string {
	for _, f := range files {
		if f == IniName {
			return f
		}
	}
	for _, f := range files {
		if strings.EqualFold(f, IniName) {
			return f
		}
	}
	return IniName
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// IniPath returns the path of cache.ini (which may not exist).
func (c *Cache) IniPath() string { return c.iniPath }

// HasIni reports whether the folder has a cache.ini.
func (c *Cache) HasIni() bool { return c.hasIni }

// Entries returns the entries sorted by name (ignoring case), then key;
// orphan files, which have no name, come last. The caller owns the slice.
func (c *Cache) Entries() []Entry { return append([]Entry(nil), c.entries...) }

// Strays returns the stray download files sorted by path, compared with "/"
// separators (the same order on every OS). The caller owns the slice.
func (c *Cache) Strays() []Stray { return append([]Stray(nil), c.strays...) }

// BadLines returns the [Cache] lines whose key is not a cache key, by line.
func (c *Cache) BadLines() []BadLine { return append([]BadLine(nil), c.bad...) }

// FileName returns the cache file name for a key: key + Ext.
func (c *Cache) FileName(key string) string { return key + c.Ext }

// Key returns the cache key for a package GUID and, in UE2, its generation
// count (the engine names a UE2 download after the number of generations
// the server's copy has).
func (c *Cache) Key(guid format.GUID, generations int) string {
	if c.Generation == 2 {
		return guid.String() + "-" + strconv.Itoa(generations)
	}
	return guid.String()
}

// parseKey splits a cache key of generation gen: 32 hex digits, followed in
// UE2 by "-" and a generation number. guid is upper-cased.
func parseKey(key string, gen int) (guid string, generation int, ok bool) {
	if len(key) < 32 || !isHex(key[:32]) {
		return "", 0, false
	}
	guid, rest := strings.ToUpper(key[:32]), key[32:]
	if gen != 2 {
		if rest != "" {
			return "", 0, false
		}
		return guid, 0, true
	}
	digits, found := strings.CutPrefix(rest, "-")
	if !found || digits == "" || len(digits) > 9 || strings.Trim(digits, "0123456789") != "" {
		return "", 0, false
	}
	n, _ := strconv.Atoi(digits)
	return guid, n, true
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// guessGeneration counts keys and file names of each generation's form.
func (c *Cache) guessGeneration(files []string) int {
	var ue1, ue2 int
	count := func(stem string) {
		if _, _, ok := parseKey(stem, 2); ok {
			ue2++
		} else if _, _, ok := parseKey(stem, 1); ok {
			ue1++
		}
	}
	for _, ln := range c.doc.lines {
		if ln.isCache() {
			count(ln.key)
		}
	}
	for _, f := range files {
		count(strings.TrimSuffix(f, filepath.Ext(f)))
	}
	if ue2 > ue1 {
		return 2
	}
	return 1
}

// guessExt returns the most common extension among files named GUID.ext.
func guessExt(files []string) string {
	counts := map[string]int{}
	first := map[string]string{}
	for _, f := range files {
		ext := filepath.Ext(f)
		if _, _, ok := parseKey(strings.TrimSuffix(f, ext), 1); ok && fsutil.SafeExt(ext) == nil {
			lower := strings.ToLower(ext)
			counts[lower]++
			if _, seen := first[lower]; !seen {
				first[lower] = ext
			}
		}
	}
	best, bestN := ".uxx", 0
	for lower, n := range counts {
		if n > bestN || n == bestN && lower < strings.ToLower(best) {
			best, bestN = first[lower], n
		}
	}
	return best
}

// build makes the entries from cache.ini and the file names.
func (c *Cache) build(files []string) {
	// Files by upper-cased key; an exact (upper-case) spelling wins over
	// another case, as the engine's exact lookup comes first.
	byKey := map[string]string{}
	for _, f := range files {
		stem, ok := cutSuffixFold(f, c.Ext)
		if !ok {
			continue
		}
		guid, gen, ok := parseKey(stem, c.Generation)
		if !ok {
			continue
		}
		key := makeKey(guid, gen, c.Generation)
		if prev, seen := byKey[key]; !seen || f == key+c.Ext && prev != f {
			byKey[key] = f
		}
	}
	index := map[string]int{} // key -> position in c.entries
	for i, ln := range c.doc.lines {
		if !ln.isCache() {
			continue
		}
		guid, gen, ok := parseKey(ln.key, c.Generation)
		if !ok {
			c.bad = append(c.bad, BadLine{Line: i + 1, Key: ln.key})
			continue
		}
		key := makeKey(guid, gen, c.Generation)
		e := Entry{Key: key, GUID: guid, Generation: gen, Name: ln.value, Line: i + 1}
		if j, seen := index[key]; seen {
			c.entries[j] = e // the engine reads the last of repeated keys
			continue
		}
		index[key] = len(c.entries)
		c.entries = append(c.entries, e)
	}
	for key := range byKey {
		if _, seen := index[key]; seen {
			continue
		}
		guid, gen, _ := parseKey(key, c.Generation)
		index[key] = len(c.entries)
		c.entries = append(c.entries, Entry{Key: key, GUID: guid, Generation: gen})
	}
	for i := range c.entries {
		e := &c.entries[i]
		if f, ok := byKey[e.Key]; ok {
			e.File = filepath.Join(c.Dir, f)
		}
		switch {
		case e.File == "" && e.Name == "":
			e.State = StateEmptyEntry
		case e.File == "":
			e.State = StateMissingFile
		case e.Name == "":
			e.State = StateOrphanFile
		default:
			e.State = StateOK
		}
	}
}

func makeKey(guid string, gen, generation int) string {
	if generation == 2 {
		return guid + "-" + strconv.Itoa(gen)
	}
	return guid
}

// cutSuffixFold cuts suffix from s ignoring case.
func cutSuffixFold(s, suffix string) (string, bool) {
	if len(s) < len(suffix) || !strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return s, false
	}
	return s[:len(s)-len(suffix)], true
}

// readHeaders reads the header of every entry's file with c.jobs workers
// and settles not_a_package and guid_mismatch; ctx done, it stops with
// ctx's error (the headers not read would be wrong, not unknown).
func (c *Cache) readHeaders(ctx context.Context) error {
	err := par.ForEach(ctx, len(c.entries), c.jobs, func(_, i int) {
		if c.entries[i].File != "" && ctx.Err() == nil {
			c.readHeader(&c.entries[i])
		}
	})
	if err != nil {
		return err
	}
	return ctx.Err()
}

func (c *Cache) readHeader(e *Entry) {
	if st, err := os.Stat(e.File); err == nil {
		e.Size = st.Size()
	}
	f, err := format.Open(e.File)
	if err != nil {
		var pe *format.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		e.State, e.Detail = StateNotAPackage, err.Error()
		return
	}
	defer f.Close()
	e.Version, e.Licensee = int(f.Version), int(f.Licensee)
	e.HeaderGUID = f.GUID.String()
	if e.HeaderGUID != e.GUID {
		e.State = StateGUIDMismatch
		e.Detail = "header GUID " + e.HeaderGUID
	}
}

func (c *Cache) sort() {
	sort.Slice(c.entries, func(i, j int) bool {
		a, b := &c.entries[i], &c.entries[j]
		if (a.Name == "") != (b.Name == "") {
			return a.Name != ""
		}
		if la, lb := strings.ToLower(a.Name), strings.ToLower(b.Name); la != lb {
			return la < lb
		}
		return a.Key < b.Key
	})
	sort.Slice(c.strays, func(i, j int) bool { return fsutil.ComparePaths(c.strays[i].File, c.strays[j].File) < 0 })
}

// EntryByKey returns the entry with key (any case), or nil. The pointer is
// into the Cache: read it, do not keep it across changes.
func (c *Cache) EntryByKey(key string) *Entry {
	for i := range c.entries {
		if strings.EqualFold(c.entries[i].Key, key) {
			return &c.entries[i]
		}
	}
	return nil
}
