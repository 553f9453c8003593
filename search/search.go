package search

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// Options adjust a Searcher. The zero value follows the ini.
type Options struct {
	// Game is the game profile, which names the ini section holding Paths
	// and CachePath (see ini.File.SystemSection). The zero Game takes
	// ini.GuessGame.
	Game ini.Game
	// Generation selects the engine's rules: 1 for Unreal Engine 1, 2 for
	// Unreal Engine 2. 0 takes it from Game, then from ini.GuessGame, then
	// from the version of the Core package found through Paths (UE2 from
	// version 100), and falls back to 1.
	Generation int
	// Language is the localisation extension ("int", "det", ...). "" takes
	// the ini's [Engine.Engine] Language, which defaults to "int".
	Language string
	// CacheDir overrides the ini's CachePath when set. A relative CacheDir
	// is relative to the current folder, like any command-line path (the
	// ini's CachePath is relative to the ini's folder).
	CacheDir string
	// FS is the file system to read; nil means OS.
	FS FS
	// Platform selects the file-name rules (see Platform). "" detects them
	// from the binaries in the ini's folder (DetectPlatform).
	Platform Platform
}

// Searcher looks package names up in one installation. It caches folder
// listings and package headers, and is safe for concurrent use. It sees the
// file system as it was when a folder was first listed: make a new Searcher
// to see later changes.
type Searcher struct {
	fsys     FS
	section  string // the ini section Paths and CachePath come from
	iniDir   string // absolute
	root     string // parent of iniDir
	gen      int
	lang     string
	intl     bool // lang is not "int"
	pats     []pattern
	entries  []PathEntry
	cache    *pattern // nil without a cache folder
	cacheExt string
	// settingErrs are the ini values that could not be used as they are.
	settingErrs []error
	platform    PlatformInfo
	notes       []CaseNote

	dirs sync.Map // folder -> *dirListing
	// located holds Locate's results for the names of the package files
	// (made by Packages; the listings they come from do not change).
	located  atomic.Pointer[locatedSet]
	mu       sync.Mutex
	headers  map[string]header
	gens     map[string][]cacheGen // UE2 cache files by upper-cased GUID
	packages []Candidate
	scanned  bool

	// What Locate works out once: the folder of a name as given, and
	// whether every Paths entry keeps a plain name in its folder.
	givenOnce, plainOnce sync.Once
	given                string
	plain                bool
}

// PathEntry is one Paths entry of the system section as the Searcher uses it.
type PathEntry struct {
	Raw    string // as written in the ini, e.g. "..\Textures\*.utx"
	Dir    string // the folder, absolute and cleaned; under Windows rules as the disk spells it
	Rel    string // Dir relative to the game root, with "/" ("Textures", "System"; "." for the root; absolute outside it)
	Prefix string // any file-name part before the "*" ("" in every real ini)
	Ext    string // the pattern's extension with its dot (".utx"); "" when the entry has no "*"
	Exists bool   // the folder exists and could be listed
}

// pattern is a Paths entry (or the cache) split for lookups.
type pattern struct {
	index    int    // position in Paths; -1 for the cache
	dir      string // absolute folder
	rel      string // dir relative to the root with a trailing "/", "" for the root itself
	prefix   string
	ext      string // ".utx", "" when there is none
	localExt string // ".det_utx" when the language is not int and ext is set
}

type header struct {
	guid  format.GUID
	flags format.PackageFlags
	ver   uint16
	err   error
}

type cacheGen struct {
	name string // file name, "GUID-3.uxx"
	gen  int
}

// New returns a Searcher for the installation cfg belongs to. cfg must have
// been loaded from a file (its Path locates the System folder).
func New(cfg *ini.File, opt Options) (*Searcher, error) {
	if cfg == nil {
		return nil, errors.New("search: no ini")
	}
	if opt.Generation < 0 || opt.Generation > 2 {
		return nil, fmt.Errorf("search: generation %d: want 1 (UE1), 2 (UE2) or 0 (guess)", opt.Generation)
	}
	iniDir, err := filepath.Abs(cfg.Dir())
	if err != nil {
		return nil, fmt.Errorf("search: %s: %w", cfg.Path, err)
	}
	game := opt.Game
	if game == (ini.Game{}) {
		game = ini.GuessGame(cfg)
	}
	sys := cfg.SystemFor(game)
	s := &Searcher{
		section: sys.Section,
		fsys:    opt.FS,
		iniDir:  iniDir,
		root:    filepath.Dir(iniDir),
		lang:    opt.Language,
		headers: make(map[string]header),
	}
	if s.fsys == nil {
		s.fsys = OS
	}
	s.prefetch(iniDir, sys.Paths)
	s.platform = detectPlatform(s.raw(iniDir).names)
	switch opt.Platform {
	case "":
	case Windows, Linux:
		s.platform.Platform, s.platform.Given = opt.Platform, true
		s.platform.Reason = "given"
	default:
		return nil, fmt.Errorf("search: platform %q: want windows, linux or \"\" (detect)", opt.Platform)
	}
	if s.lang == "" {
		s.lang = sys.Language
	}
	if s.lang == "" {
		s.lang = "int"
	}
	s.intl = !strings.EqualFold(s.lang, "int")

	s.addPaths(sys.Paths)

	s.gen = opt.Generation
	if s.gen == 0 && game.Generation != 0 && !game.Generic() {
		s.gen = game.Generation
	}
	if s.gen == 0 {
		// An unknown game, or only an engine generation guessed from the
		// map extension in Paths (a licensee UE2 game may keep .unr): the
		// packages' own version decides when Core is there.
		s.gen = s.generationFromCore(game.Generation)
	}

	if err := s.setCache(opt, sys); err != nil {
		return nil, err
	}
	return s, nil
}

// addPaths adds a pattern and an entry for each Paths line.
func (s *Searcher) addPaths(paths []string) {
	for i, raw := range paths {
		p := s.newPattern(i, raw)
		s.noteFolder(i, raw, p.dir)
		p.dir = s.resolveDir(p.dir)
		p.rel = s.relPrefix(p.dir)
		s.noteExtensions(raw, &p)
		s.pats = append(s.pats, p)
		s.entries = append(s.entries, PathEntry{
			Raw:    raw,
			Dir:    p.dir,
			Rel:    relDir(p.rel),
			Prefix: p.prefix,
			Ext:    p.ext,
			Exists: s.list(p.dir).ok,
		})
	}
}

// setCache checks the Paths lines and works out the cache's extension and
// folder (opt's, else the ini's); an unsafe setting is noted, not an
// error.
func (s *Searcher) setCache(opt Options, sys ini.System) error {
	for _, raw := range sys.Paths {
		if err := fsutil.SafeIniPath(raw); err != nil {
			s.settingErrs = append(s.settingErrs, settingError("Paths", raw, err))
		}
	}
	s.cacheExt = sys.CacheExt
	if s.cacheExt != "" && s.gen == 1 {
		if err := fsutil.SafeExt(s.cacheExt); err != nil {
			s.settingErrs = append(s.settingErrs, settingError("CacheExt", s.cacheExt, err))
			s.cacheExt = ""
		}
	}
	if s.gen == 2 || s.cacheExt == "" {
		s.cacheExt = ".uxx" // UE2 always writes .uxx; UE1's default
	}
	var cacheDir string
	var err error
	switch {
	case opt.CacheDir != "":
		if cacheDir, err = filepath.Abs(opt.CacheDir); err != nil {
			return fmt.Errorf("search: cache folder %s: %w", opt.CacheDir, err)
		}
	case sys.CachePath != "":
		if err := fsutil.SafeIniPath(sys.CachePath); err != nil {
			s.settingErrs = append(s.settingErrs, settingError("CachePath", sys.CachePath, err))
			break
		}
		cacheDir = s.abs(slashes(sys.CachePath))
		s.noteFolder(-1, sys.CachePath, cacheDir)
		cacheDir = s.resolveDir(cacheDir)
	}
	if cacheDir != "" {
		s.cache = &pattern{index: -1, dir: cacheDir, rel: s.relPrefix(cacheDir), ext: s.cacheExt}
		if s.gen == 1 {
			s.cache.localExt = s.localize(s.cacheExt)
		}
	}
	return nil
}

// generationFromCore reads the version of the Core package found through
// Paths: UE2 packages are version 100 and up. Without a readable Core,
// the first packageSample readable packages through Paths (in Paths order,
// then by name) decide by majority: an install of UE2 packages (118-144:
// UT2004, SWAT 4, Bioshock) whose Core is absent is no UE1 install. With
// none readable, or as many of each, the answer is fallback, or UE1 when
// that is 0.
func (s *Searcher) generationFromCore(fallback int) int {
	if fallback == 0 {
		fallback = 1
	}
	if r := s.find("Core", nil, 0, false); r.File != "" {
		if h := s.header(r.File); h.err == nil {
			if h.ver >= 100 {
				return 2
			}
			return 1
		}
	}
	const packageSample = 16
	var count [3]int
	read := 0
	for i := range s.pats {
		p := &s.pats[i]
		if p.ext == "" {
			continue
		}
		for _, file := range s.list(p.dir).names {
			if read >= packageSample {
				break
			}
			if len(file) < len(p.prefix) || file[:len(p.prefix)] != p.prefix {
				continue
			}
			if _, ok := cutSuffixFold(file[len(p.prefix):], p.ext); !ok {
				continue
			}
			h := s.header(joinName(p.dir, file))
			if h.err != nil {
				continue
			}
			read++
			if h.ver >= 100 {
				count[2]++
			} else {
				count[1]++
			}
		}
	}
	switch {
	case count[2] > count[1]:
		return 2
	case count[1] > count[2]:
		return 1
	}
	return fallback
}

// newPattern splits a Paths entry: the folder, a file-name prefix and the
// extension after the "*". An entry without "*" is a folder (and prefix) to
// which the name is appended, with no extension to try.
func (s *Searcher) newPattern(index int, raw string) pattern {
	p := pattern{index: index}
	before, after, star := strings.Cut(slashes(raw), "*")
	dirPart, prefix := "", before
	if i := strings.LastIndexByte(before, '/'); i >= 0 {
		dirPart, prefix = before[:i+1], before[i+1:]
	}
	p.dir = s.abs(dirPart)
	p.rel = s.relPrefix(p.dir)
	p.prefix = prefix
	if star && after != "" {
		// The engine appends "." and the text after the "*" and its first
		// character: "*.utx" gives ".utx".
		p.ext = "." + after[1:]
		p.localExt = s.localize(p.ext)
	}
	return p
}

// localize returns the localized form of ext (".utx" -> ".det_utx") when the
// language is not int, else "".
func (s *Searcher) localize(ext string) string {
	if !s.intl || ext == "" {
		return ""
	}
	return "." + s.lang + "_" + ext[1:]
}

// slashes turns the engine's "\" separators into "/".
func slashes(p string) string { return strings.ReplaceAll(p, `\`, "/") }

// abs resolves p (with "/" separators) against the ini's folder.
func (s *Searcher) abs(p string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(s.iniDir, p)
}

// relPrefix returns dir relative to the root with a trailing "/", or "" for
// the root itself.
func (s *Searcher) relPrefix(dir string) string {
	r := s.rel(dir)
	if r == "." {
		return ""
	}
	return strings.TrimSuffix(r, "/") + "/"
}

func relDir(prefix string) string {
	if prefix == "" {
		return "."
	}
	return strings.TrimSuffix(prefix, "/")
}

// rel returns path relative to the root, with "/"; for a path outside the
// root (or on another volume) the absolute path, with "/".
func (s *Searcher) rel(path string) string {
	r, err := filepath.Rel(s.root, path)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(r)
}

// list returns the listing of dir as the Searcher's rules see it: under
// Linux rules a folder that exists only in another case (which a
// case-insensitive host, Windows or macOS, opens all the same) is empty
// and not ok, as a Linux server sees it (see exactDir). Like raw, it is
// worked out once per folder; lookups of a folder already listed take no
// lock.
func (s *Searcher) list(dir string) *listing {
	d := s.dirListing(dir)
	d.viewOnce.Do(func() {
		d.view = s.raw(dir)
		if s.platform.Platform != Windows && !s.exactDir(dir) {
			d.view = &listing{}
		}
	})
	return d.view
}

// raw returns the listing of dir as the file system gives it, reading it
// on first use: once, however many goroutines ask, and without holding up
// those that ask for other folders.
func (s *Searcher) raw(dir string) *listing {
	d := s.dirListing(dir)
	d.once.Do(func() { d.l = newListing(s.fsys.ReadDir(dir)) })
	return d.l
}

func (s *Searcher) dirListing(dir string) *dirListing {
	v, ok := s.dirs.Load(dir)
	if !ok {
		v, _ = s.dirs.LoadOrStore(dir, &dirListing{})
	}
	return v.(*dirListing)
}

// dirListing is a folder's listing, made once, and the Searcher's view of
// it (list).
type dirListing struct {
	once, viewOnce sync.Once
	l, view        *listing
}

// prefetch lists dir and the folders of the Paths entries paths at once,
// on a goroutine each (the folders of a large install hold thousands of
// files each); the Paths loop then finds them listed.
func (s *Searcher) prefetch(dir string, paths []string) {
	dirs := []string{dir}
	for i, raw := range paths {
		dirs = append(dirs, s.newPattern(i, raw).dir)
	}
	slices.Sort(dirs)
	dirs = slices.Compact(dirs)
	var wg sync.WaitGroup
	for _, d := range dirs {
		wg.Go(func() { s.raw(d) })
	}
	wg.Wait()
}

// header reads and caches the package header of path.
func (s *Searcher) header(path string) header {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h, ok := s.headers[path]; ok {
		return h
	}
	h := s.readHeader(path)
	s.headers[path] = h
	return h
}

func (s *Searcher) readHeader(path string) header {
	f, err := s.fsys.Open(path)
	if err != nil {
		return header{err: err}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return header{err: err}
	}
	pf, err := format.NewFile(f, st.Size())
	if err != nil {
		return header{err: err}
	}
	return header{guid: pf.GUID, flags: pf.Flags, ver: pf.Version}
}

// Paths returns the Paths entries in search order. The caller owns the
// returned slice.
func (s *Searcher) Paths() []PathEntry { return append([]PathEntry(nil), s.entries...) }

// MissingPaths returns the Paths entries whose folder does not exist, in
// search order: worth one warning per installation, not one per lookup.
func (s *Searcher) MissingPaths() []PathEntry {
	var out []PathEntry
	for _, e := range s.entries {
		if !e.Exists {
			out = append(out, e)
		}
	}
	return out
}

// CacheDir returns the download cache folder (absolute), or "" when the ini
// sets no CachePath and Options.CacheDir was empty.
func (s *Searcher) CacheDir() string {
	if s.cache == nil {
		return ""
	}
	return s.cache.dir
}

// CacheExt returns the cache file extension: the ini's CacheExt in UE1
// (".uxx" when unset or unsafe), always ".uxx" in UE2.
func (s *Searcher) CacheExt() string { return s.cacheExt }

// Section returns the ini section the Paths and CachePath come from
// ("Core.System", or a licensee's "Engine.System", ...).
func (s *Searcher) Section() string { return s.section }

// SettingErrors returns the ini values New could not use as they are: a
// CacheExt that is not a plain extension (".uxx/../x"; ".uxx" is used
// instead), a CachePath (ignored: the cache is not searched) or Paths
// entry holding control characters. A reader warns about them; a command
// that writes refuses to run. The caller owns the slice.
func (s *Searcher) SettingErrors() []error { return append([]error(nil), s.settingErrs...) }

// settingError describes an unusable ini value.
func settingError(key, value string, err error) error {
	var ne *fsutil.NameError
	if errors.As(err, &ne) {
		return fmt.Errorf("search: [Core.System] %s=%q is unsafe: %s", key, value, ne.Reason)
	}
	return fmt.Errorf("search: [Core.System] %s=%q is unsafe: %w", key, value, err)
}

// Generation returns the engine generation whose rules apply: 1 or 2.
func (s *Searcher) Generation() int { return s.gen }

// Language returns the localisation extension in use ("int", "det", ...).
func (s *Searcher) Language() string { return s.lang }

// Dir returns the ini's folder (the System folder), absolute.
func (s *Searcher) Dir() string { return s.iniDir }

// Root returns the game root, the parent of the ini's folder; Result.Rel and
// the other relative paths are relative to it.
func (s *Searcher) Root() string { return s.root }

// Rel returns path (absolute) relative to Root, with "/", or the absolute
// path with "/" when it is outside Root.
func (s *Searcher) Rel(path string) string { return s.rel(path) }
