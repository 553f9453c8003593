package search

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/upkdeps/upkdeps/format"
)

// The steps of a lookup, as Result.Step names them.
const (
	StepAsGiven         = "as-given"         // the name as given, relative to System
	StepPaths           = "paths"            // a Paths entry
	StepCache           = "cache"            // the download cache (GUID lookups only)
	StepCaseInsensitive = "case-insensitive" // the fallback pass ignoring case
)

// IgnoringCase ends a Result.Tried entry of the case-insensitive pass.
const IgnoringCase = " (ignoring case)"

// Result is the outcome of one lookup.
type Result struct {
	Name string // the name looked up, as given
	File string // the file the engine loads, absolute; "" when the name does not resolve
	Rel  string // File relative to the game root, with "/"
	Step string // the step that found File (StepAsGiven, ...); "" when unresolved
	// PathIndex is the Paths entry that found File (also in the
	// case-insensitive pass); -1 for the name as given, the cache, or none.
	PathIndex int
	// Tried lists every candidate in the order the engine tries them, up to
	// the one that found File, relative to the game root with "/". Entries
	// of the case-insensitive pass end in IgnoringCase (the name compared,
	// not the file found). A UE2 cache lookup without
	// a generation that finds no cache file lists "Cache/<GUID>-*.uxx".
	Tried []string
	// Shadowed lists the other existing files this name could also have
	// reached (a later Paths entry, another extension, another case, the
	// cache), in the engine's order, relative to the game root. They are
	// never loaded under this name while File is there.
	Shadowed []string
	// Warnings explain problems: a case mismatch, files skipped by UE2's GUID
	// check, an installed file whose GUID is not the one asked for.
	Warnings []string
	// CaseMismatch is set when File was found only by ignoring case.
	CaseMismatch bool
}

// Found reports whether the name resolved.
func (r Result) Found() bool { return r.File != "" }

// Find looks name up as the engine does without a GUID (loading a package
// by name): the name as given, then Paths, then Paths ignoring case. The
// cache is never searched.
func (s *Searcher) Find(name string) Result {
	return s.find(name, nil, 0, true)
}

// FindGUID looks name up as the engine does for a package of a server's
// package map: like Find, but the cache is searched last for guid, and in
// UE2 an installed file other than a .u is taken only when its GUID is guid
// or it is flagged Official. gen is the package's generation (UE2 cache
// files are GUID-gen.uxx); 0 takes the highest generation in the cache. UE1
// ignores gen. A zero guid is no GUID: FindGUID is then Find.
func (s *Searcher) FindGUID(name string, guid format.GUID, gen int) Result {
	if guid.IsZero() {
		return s.find(name, nil, 0, true)
	}
	return s.find(name, &guid, gen, true)
}

// cand is one file the engine tries: a name in a folder.
type cand struct {
	dir, base string
	relDir    string // the folder relative to the root with a trailing "/" ("" for the root), when known
	full      string // the cleaned path when relDir is unknown
}

func (c cand) path() string { return filepath.Join(c.dir, c.base) }

func (s *Searcher) relOf(c cand) string {
	if c.full != "" {
		return s.rel(c.full)
	}
	return c.relDir + c.base
}

// candidate is folder p with name (and any extension) appended, as the
// engine concatenates them.
func (s *Searcher) candidate(p *pattern, name string) cand {
	base := p.prefix + name
	if !strings.Contains(base, "/") && base != "." && base != ".." {
		return cand{dir: p.dir, base: base, relDir: p.rel}
	}
	full := filepath.Join(p.dir, filepath.FromSlash(base))
	return s.folderCand(full)
}

// folderCand is the file full, its folder resolved under the Searcher's
// rules (see resolveDir).
func (s *Searcher) folderCand(full string) cand {
	dir := s.resolveDir(filepath.Dir(full))
	full = filepath.Join(dir, filepath.Base(full))
	return cand{dir: dir, base: filepath.Base(full), full: full}
}

// exts returns the extensions the exact pass appends to a name in p: none,
// then the localized one, then the plain one.
func (p *pattern) exts() []string {
	switch {
	case p.ext == "":
		return []string{""}
	case p.localExt == "":
		return []string{"", p.ext}
	default:
		return []string{"", p.localExt, p.ext}
	}
}

// foldExts returns the extensions the case-insensitive pass compares: the
// engine's fallback does not try the localized one.
func (p *pattern) foldExts() []string {
	if p.ext == "" {
		return []string{""}
	}
	return []string{"", p.ext}
}

// lookup is the state of one find.
type lookup struct {
	s        *Searcher
	guid     *format.GUID
	gen      int
	trace    bool
	r        *Result
	rejected map[string]bool
	cached   bool // the file chosen is in the cache
}

func (s *Searcher) find(name string, guid *format.GUID, gen int, trace bool) Result {
	r := Result{Name: name, PathIndex: -1}
	n := slashes(name)
	switch {
	case strings.TrimSpace(n) == "":
		r.Warnings = append(r.Warnings, "empty package name")
		return r
	case strings.ContainsRune(n, 0):
		r.Warnings = append(r.Warnings, "package name holds a NUL byte")
		return r
	}
	l := &lookup{s: s, guid: guid, gen: gen, trace: trace, r: &r}
	if l.search(n) && trace {
		l.finish(n)
	}
	if trace && len(r.Tried) == 0 {
		r.Tried = []string{}
	}
	return r
}

// search runs the engine's steps and reports whether a file was chosen.
func (l *lookup) search(n string) bool {
	s := l.s
	// 1. The name as given.
	if l.try(s.folderCand(s.abs(n)), "", StepAsGiven, -1, true) {
		return true
	}
	// 2. Each Paths entry.
	for i := range s.pats {
		p := &s.pats[i]
		for _, ext := range p.exts() {
			if l.try(s.candidate(p, n+ext), ext, StepPaths, i, true) {
				return true
			}
		}
	}
	// 3. The cache, for a GUID.
	if l.guid != nil && l.cacheExact() {
		return true
	}
	if l.guid != nil && s.cache == nil && l.trace {
		l.warn("no CachePath in the ini: the download cache was not searched")
	}
	// 4. Everything but the name as given again, ignoring case.
	for i := range s.pats {
		p := &s.pats[i]
		for _, ext := range p.foldExts() {
			if l.tryFold(s.candidate(p, n+ext), i) {
				return true
			}
		}
	}
	return l.guid != nil && l.cacheFold()
}

// cacheExact tries the cache files of the GUID with exact names.
func (l *lookup) cacheExact() bool {
	s := l.s
	if s.cache == nil {
		return false
	}
	g := l.guid.String()
	if s.gen == 1 {
		for _, ext := range s.cache.exts() {
			if l.try(s.candidate(s.cache, g+ext), ext, StepCache, -1, false) {
				return true
			}
		}
		return false
	}
	if l.gen > 0 {
		name := g + "-" + strconv.Itoa(l.gen)
		for _, ext := range s.cache.exts() {
			if l.try(s.candidate(s.cache, name+ext), ext, StepCache, -1, false) {
				return true
			}
		}
		return false
	}
	// No generation: the highest one present, spelled exactly.
	for _, cg := range s.cacheGens(g) {
		if strings.HasPrefix(cg.name, g+"-") && strings.HasSuffix(cg.name, ".uxx") {
			return l.try(s.candidate(s.cache, cg.name), "", StepCache, -1, false)
		}
	}
	if l.trace {
		l.r.Tried = append(l.r.Tried, s.cache.rel+g+"-*.uxx")
	}
	return false
}

// cacheFold tries the cache ignoring case.
func (l *lookup) cacheFold() bool {
	s := l.s
	if s.cache == nil {
		return false
	}
	g := l.guid.String()
	switch {
	case s.gen == 1:
		for _, ext := range s.cache.foldExts() {
			if l.tryFold(s.candidate(s.cache, g+ext), -1) {
				return true
			}
		}
	case l.gen > 0:
		name := g + "-" + strconv.Itoa(l.gen)
		for _, ext := range s.cache.foldExts() {
			if l.tryFold(s.candidate(s.cache, name+ext), -1) {
				return true
			}
		}
	default:
		if l.trace {
			l.r.Tried = append(l.r.Tried, s.cache.rel+g+"-*.uxx"+IgnoringCase)
		}
		if gens := s.cacheGens(g); len(gens) > 0 {
			l.choose(s.candidate(s.cache, gens[0].name), StepCaseInsensitive, -1, true)
			return true
		}
	}
	return false
}

// try records candidate c and takes it when it exists and passes the UE2
// GUID check (installed files only). ext is the extension c's name ends
// in, which Windows rules match ignoring case ("Foo.Dtx" for "Foo.dtx").
func (l *lookup) try(c cand, ext, step string, index int, installed bool) bool {
	if l.trace {
		l.r.Tried = append(l.r.Tried, l.s.relOf(c))
	}
	ls := l.s.list(c.dir)
	if ls.has(c.base) {
		if !l.accept(c, installed) {
			return false
		}
		l.choose(c, step, index, !installed)
		return true
	}
	if l.s.platform.Platform != Windows || ext == "" {
		return false
	}
	stem := c.base[:len(c.base)-len(ext)]
	for _, m := range ls.folded(c.base) {
		if m[:len(stem)] != stem {
			continue // the name differs in case: the case-insensitive pass's
		}
		mc := c
		mc.base = m
		if mc.full != "" {
			mc.full = mc.path()
		}
		if l.rejected[mc.path()] || !l.accept(mc, installed) {
			continue
		}
		l.choose(mc, step, index, !installed)
		return true
	}
	return false
}

// tryFold takes the first file of c's folder whose name equals c's ignoring
// case and passes the GUID check.
func (l *lookup) tryFold(c cand, index int) bool {
	if l.trace {
		l.r.Tried = append(l.r.Tried, l.s.relOf(c)+IgnoringCase)
	}
	for _, m := range l.s.list(c.dir).folded(c.base) {
		mc := c
		mc.base = m
		if mc.full != "" {
			mc.full = mc.path()
		}
		if l.rejected[mc.path()] || !l.accept(mc, index >= 0) {
			continue
		}
		l.choose(mc, StepCaseInsensitive, index, index < 0)
		return true
	}
	return false
}

func (l *lookup) choose(c cand, step string, index int, cached bool) {
	l.cached = cached
	l.r.File = c.path()
	l.r.Step = step
	l.r.PathIndex = index
	if l.trace {
		l.r.Rel = l.s.relOf(c)
	}
	if step == StepCaseInsensitive {
		l.r.CaseMismatch = true
	}
}

// accept applies UE2's GUID check to an installed file: with a GUID asked
// for, a file other than a .u must have that GUID or the Official flag.
func (l *lookup) accept(c cand, installed bool) bool {
	s := l.s
	if l.guid == nil || s.gen != 2 || !installed || strings.EqualFold(filepath.Ext(c.base), ".u") {
		return true
	}
	path := c.path()
	h := s.header(path)
	if h.err == nil && (h.guid == *l.guid || h.flags&format.FlagOfficial != 0) {
		return true
	}
	if l.rejected == nil {
		l.rejected = make(map[string]bool)
	}
	if !l.rejected[path] && l.trace {
		if h.err != nil {
			l.warn(fmt.Sprintf("skipped %s: cannot read its package header to check its GUID: %v", s.relOf(c), h.err))
		} else {
			l.warn(fmt.Sprintf("skipped %s: its GUID is %s, not %s, and it is not flagged Official (UE2 loads an installed package other than a .u only then)", s.relOf(c), h.guid, l.guid))
		}
	}
	l.rejected[path] = true
	return false
}

func (l *lookup) warn(msg string) { l.r.Warnings = append(l.r.Warnings, msg) }

// finish adds what the chosen file shadows and the warnings about it.
func (l *lookup) finish(n string) {
	s, r := l.s, l.r
	if r.CaseMismatch {
		l.warn(fmt.Sprintf("case mismatch: %q was found as %s only by ignoring case; a case-sensitive file system (a Linux server) relies on the engine's case-insensitive pass, which older builds lack", r.Name, r.Rel))
	}
	if l.guid != nil && !l.cached {
		h := s.header(r.File)
		switch {
		case h.err != nil:
			l.warn(fmt.Sprintf("cannot read the package header of %s to compare its GUID with %s: %v", r.Rel, l.guid, h.err))
		case h.guid != *l.guid && !(s.gen == 2 && h.flags&format.FlagOfficial != 0):
			l.warn(fmt.Sprintf("%s has GUID %s, not %s: it is loaded instead of the cached package and a client joining fails with a version mismatch", r.Rel, h.guid, l.guid))
		}
	}

	seen := map[string]bool{r.File: true}
	add := func(c cand, names []string) {
		for _, m := range names {
			mc := c
			mc.base = m
			if mc.full != "" {
				mc.full = mc.path()
			}
			p := mc.path()
			if seen[p] || l.rejected[p] {
				continue
			}
			seen[p] = true
			r.Shadowed = append(r.Shadowed, s.relOf(mc))
		}
	}
	for i := range s.pats {
		p := &s.pats[i]
		for _, ext := range p.exts() {
			c := s.candidate(p, n+ext)
			add(c, s.list(c.dir).folded(c.base))
		}
	}
	if l.guid == nil || s.cache == nil {
		return
	}
	g := l.guid.String()
	if s.gen == 1 {
		for _, ext := range s.cache.exts() {
			c := s.candidate(s.cache, g+ext)
			add(c, s.list(c.dir).folded(c.base))
		}
		return
	}
	if l.gen > 0 {
		name := g + "-" + strconv.Itoa(l.gen)
		for _, ext := range s.cache.exts() {
			c := s.candidate(s.cache, name+ext)
			add(c, s.list(c.dir).folded(c.base))
		}
		return
	}
	// Without a generation the lookup would take the highest one.
	if gens := s.cacheGens(g); len(gens) > 0 {
		add(s.candidate(s.cache, ""), []string{gens[0].name})
	}
}

// cacheGens returns the UE2 cache files of guid (GUID-n.uxx, any case), the
// highest generation first.
func (s *Searcher) cacheGens(guid string) []cacheGen {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gens == nil {
		s.gens = make(map[string][]cacheGen)
		for _, name := range s.list(s.cache.dir).names {
			stem, ok := cutSuffixFold(name, ".uxx")
			if !ok {
				continue
			}
			dash := strings.LastIndexByte(stem, '-')
			if dash < 0 {
				continue
			}
			n, err := strconv.Atoi(stem[dash+1:])
			if err != nil || n < 0 || stem[dash+1] == '+' {
				continue
			}
			k := strings.ToUpper(stem[:dash])
			s.gens[k] = append(s.gens[k], cacheGen{name: name, gen: n})
		}
		for _, gs := range s.gens {
			sort.Slice(gs, func(i, j int) bool {
				if gs[i].gen != gs[j].gen {
					return gs[i].gen > gs[j].gen
				}
				return gs[i].name < gs[j].name
			})
		}
	}
	return s.gens[strings.ToUpper(guid)]
}

// cutSuffixFold removes suffix from s ignoring case.
func cutSuffixFold(s, suffix string) (string, bool) {
	if len(s) < len(suffix) || !strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return s, false
	}
	return s[:len(s)-len(suffix)], true
}

// Locate is Find without the explanation: the same File, Rel, Step,
// PathIndex and CaseMismatch, with Tried, Shadowed and Warnings left nil.
// It is what a checker resolving every imported name asks: a plain name
// (no folder part) costs no allocation but the two strings of a found
// file, where Find makes each candidate's path.
func (s *Searcher) Locate(name string) Result {
	if set := s.located.Load(); set != nil {
		if r, ok := set.result(name); ok {
			return r
		}
	}
	if !plainName(name) || !s.plainPats() {
		r := s.find(name, nil, 0, true)
		r.Tried, r.Shadowed, r.Warnings = nil, nil, nil
		return r
	}
	var buf, scratch [128]byte
	r := Result{Name: name, PathIndex: -1}
	// 1. The name as given, relative to System.
	if dir := s.givenDir(); s.list(dir).has(name) {
		r.File = filepath.Join(dir, name)
		r.Rel, r.Step = s.rel(r.File), StepAsGiven
		return r
	}
	// 2. Each Paths entry, as lookup.try compares.
	win := s.platform.Platform == Windows
	for i := range s.pats {
		p := &s.pats[i]
		exts := [3]string{"", p.localExt, p.ext}
		for k, ext := range exts {
			if k > 0 && ext == "" {
				continue
			}
			base := append(append(append(buf[:0], p.prefix...), name...), ext...)
			ls := s.list(p.dir)
			if ls.has(string(base)) {
				r.setPathBytes(p, i, base, StepPaths)
				return r
			}
			if !win || ext == "" {
				continue
			}
			stem := base[:len(base)-len(ext)]
			for _, m := range foldKey(ls, base, scratch[:]) {
				if len(m) >= len(stem) && equalFoldBytes(m, base) && m[:len(stem)] == string(stem) {
					r.setPath(p, i, m, StepPaths)
					return r
				}
			}
		}
	}
	// 4. Paths again ignoring case (3, the cache, is for a GUID).
	for i := range s.pats {
		p := &s.pats[i]
		for k, ext := range [2]string{"", p.ext} {
			if k > 0 && ext == "" {
				continue
			}
			base := append(append(append(buf[:0], p.prefix...), name...), ext...)
			for _, m := range foldKey(s.list(p.dir), base, scratch[:]) {
				if equalFoldBytes(m, base) {
					r.setPath(p, i, m, StepCaseInsensitive)
					r.CaseMismatch = true
					return r
				}
			}
		}
	}
	return r
}

// setPath records file base of Paths entry p (index i) as found. Rel is
// the end of File where the separators allow (one string for both).
func (r *Result) setPath(p *pattern, i int, base, step string) {
	r.File = joinName(p.dir, base)
	r.Rel = p.rel + base
	r.Step, r.PathIndex = step, i
}

// joinName is filepath.Join(dir, name) for a clean folder (what abs and
// resolveDir make) and a folder entry's name, without Join's Clean: a
// concatenation unless name is one Clean would change.
func joinName(dir, name string) string {
	if dir == "" || dir == "." || name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) || filepath.VolumeName(dir) == dir {
		return filepath.Join(dir, name)
	}
	if os.IsPathSeparator(dir[len(dir)-1]) {
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

// setPathBytes is setPath for a name in scratch memory.
func (r *Result) setPathBytes(p *pattern, i int, base []byte, step string) {
	r.File = joinName(p.dir, string(base))
	n := len(p.rel) + len(base)
	if rel := r.File[max(len(r.File)-n, 0):]; len(rel) == n && rel[:len(p.rel)] == p.rel {
		r.Rel = rel
	} else {
		r.Rel = p.rel + string(base)
	}
	r.Step, r.PathIndex = step, i
}

// plainName reports whether name is a file name the engine appends to a
// folder as it is: not empty or blank, no NUL, no folder part, not "." or
// "..". Other names take find's general path.
func plainName(name string) bool {
	if strings.TrimSpace(name) == "" || name == "." || name == ".." {
		return false
	}
	return !strings.ContainsAny(name, "/\\:\x00")
}

// plainPats reports whether no Paths extension holds a folder part, so
// that a plain name stays a file name of the entry's folder.
func (s *Searcher) plainPats() bool {
	s.plainOnce.Do(func() {
		s.plain = true
		for _, p := range s.pats {
			if strings.ContainsAny(p.ext+p.localExt, "/\\") {
				s.plain = false
			}
		}
	})
	return s.plain
}

// givenDir is the folder a plain name as given is looked for in: System,
// resolved under the Searcher's rules.
func (s *Searcher) givenDir() string {
	s.givenOnce.Do(func() { s.given = s.resolveDir(s.iniDir) })
	return s.given
}

// foldKey looks up the names of ls equal to base ignoring case, by the
// key listing.fold has them under, lower-casing into scratch (no
// allocation for ASCII).
func foldKey(ls *listing, base, scratch []byte) []string {
	lb := scratch[:0]
	for _, c := range base {
		if c >= 0x80 {
			return ls.fold[strings.ToLower(string(base))]
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lb = append(lb, c)
	}
	return ls.fold[string(lb)]
}

// equalFoldBytes is strings.EqualFold(s, string(b)), without the copy
// for ASCII.
func equalFoldBytes(s string, b []byte) bool {
	if len(s) != len(b) {
		return strings.EqualFold(s, string(b)) // other lengths fold alike only beyond ASCII
	}
	for i := range len(b) {
		x, y := s[i], b[i]
		if x >= 0x80 || y >= 0x80 {
			return strings.EqualFold(s, string(b))
		}
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
