package search

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// Platform names the file-name rules the engine runs under: the operating
// system of the install, whatever the disk it is read from.
type Platform string

const (
	// Windows: every path the engine resolves matches ignoring case (Paths
	// folders, wildcard extensions, package files, CachePath), as NTFS and
	// FAT look names up.
	Windows Platform = "windows"
	// Linux: names match exactly, as ext4 does, but for the engine's own
	// case-insensitive pass over package names (see the package doc).
	Linux Platform = "linux"
)

// RulesLabel names the platform's rules for report headers: "Windows
// rules", "Linux rules", "no platform" for none.
func (p Platform) RulesLabel() string {
	if p == "" {
		return "no platform"
	}
	return strings.ToUpper(string(p[:1])) + string(p[1:]) + " rules"
}

// ParsePlatform reads a platform as given to --platform: "windows" or
// "linux" (also "win", "win32", "unix"), ignoring case. "" is the zero
// Platform, which New detects from the install.
func ParsePlatform(s string) (Platform, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "":
		return "", nil
	case "windows", "win", "win32":
		return Windows, nil
	case "linux", "unix":
		return Linux, nil
	}
	return "", fmt.Errorf("search: unknown platform %q (want windows or linux)", s)
}

// PlatformInfo is the platform whose rules a Searcher applies and why.
type PlatformInfo struct {
	Platform Platform
	Given    bool // chosen by Options.Platform, not by the binaries
	// WindowsBinary and LinuxBinary are the first .exe/.dll and .so/*-bin
	// file of System, by name; "" when there is none.
	WindowsBinary, LinuxBinary string
	Reason                     string // for people
}

// Ambiguous reports whether the binaries named both platforms and none
// was given: the choice is worth saying.
func (p PlatformInfo) Ambiguous() bool {
	return !p.Given && p.WindowsBinary != "" && p.LinuxBinary != ""
}

// DetectPlatform tells the platform of an install from the binaries in its
// System folder dir: .exe and .dll files are Windows', .so files and
// launchers named ucc-bin (or another *-bin) Linux'. With both, Linux rules
// apply: a Linux launcher means the install is run there, and its rules are
// the stricter. With neither (a mod's repository, a copied System folder)
// Windows rules apply, where every Unreal Engine 1 and 2 game runs.
func DetectPlatform(fsys FS, dir string) PlatformInfo {
	if fsys == nil {
		fsys = OS
	}
	entries, _ := fsys.ReadDir(dir)
	var files []string
	for _, e := range entries {
		if !e.IsDir() {
			files = append(files, e.Name())
		}
	}
	sort.Strings(files)
	return detectPlatform(files)
}

// detectPlatform is DetectPlatform given the sorted file names of System.
// A .dll other than the engine's own Core.dll and Engine.dll may be a
// mod's (a mod ships its Windows module beside its .u, even on a Linux
// server): with Linux binaries and no .exe or engine .dll, it is no sign
// of Windows.
func detectPlatform(files []string) PlatformInfo {
	var p PlatformInfo
	modDLL := ""
	for _, n := range files {
		lower := strings.ToLower(n)
		switch ext := filepath.Ext(lower); {
		case p.WindowsBinary == "" && (ext == ".exe" || lower == "core.dll" || lower == "engine.dll"):
			p.WindowsBinary = n
		case modDLL == "" && ext == ".dll":
			modDLL = n
		case p.LinuxBinary == "" && (ext == ".so" || strings.HasSuffix(lower, "-bin")):
			p.LinuxBinary = n
		}
	}
	if p.WindowsBinary == "" && p.LinuxBinary == "" {
		p.WindowsBinary = modDLL // a .dll is all there is
	}
	switch {
	case p.LinuxBinary != "" && p.WindowsBinary == "" && modDLL != "":
		p.Platform, p.Reason = Linux, fmt.Sprintf("Linux binaries (%s); the .dll files (%s) are no engine's (no Core.dll, Engine.dll or .exe): a mod's", p.LinuxBinary, modDLL)
	case p.Ambiguous():
		p.Platform, p.Reason = Linux, fmt.Sprintf("both Windows (%s) and Linux (%s) binaries: Linux rules, the stricter", p.WindowsBinary, p.LinuxBinary)
	case p.LinuxBinary != "":
		p.Platform, p.Reason = Linux, fmt.Sprintf("Linux binaries (%s)", p.LinuxBinary)
	case p.WindowsBinary != "":
		p.Platform, p.Reason = Windows, fmt.Sprintf("Windows binaries (%s)", p.WindowsBinary)
	default:
		p.Platform, p.Reason = Windows, "no binaries in System: Windows rules, where every UE1/UE2 game runs"
	}
	return p
}

// The kinds of CaseNote.
const (
	CaseFolder    = "folder"    // a folder of a setting exists only in another case
	CaseExtension = "extension" // files of a Paths folder end in the pattern's extension in another case
)

// CaseNote is an ini setting whose folder or extension the disk spells in
// another case: found under Windows rules, missed (or found late) under
// Linux rules. One note per setting and folder or extension.
type CaseNote struct {
	Setting string   // "Paths[2]" or "CachePath"
	Index   int      // the Paths entry (2); -1 for CachePath
	Value   string   // the setting as written: "..\Dev\*.u"
	Kind    string   // CaseFolder or CaseExtension
	Want    string   // the folder name or extension as the ini spells it: "Dev", ".dtx"
	Have    string   // as the disk spells it: "dev", ".Dtx"
	Folder  string   // the folder on disk, relative to the game root with "/"
	Files   []string // CaseExtension: the files, sorted (at most maxNoteFiles)
	Count   int      // CaseExtension: how many files
	Message string   // one line for people, naming the fix
}

// maxNoteFiles bounds CaseNote.Files.
const maxNoteFiles = 3

// CaseNotes returns the settings whose folder or extension differs in case
// from the disk, in Paths order, then CachePath. The caller owns the
// returned slice.
func (s *Searcher) CaseNotes() []CaseNote { return append([]CaseNote(nil), s.notes...) }

// Platform returns the rules in use and why (see DetectPlatform).
func (s *Searcher) Platform() PlatformInfo { return s.platform }

// foldDir returns dir as the disk spells it, matching each component that
// does not exist as written ignoring case (the first in name order when
// several folders match). diffs lists the components that differ, as
// written and as on disk. ok is false when no such folder exists.
//
// The components below the folder dir shares with the ini's folder (the
// game's own folders, as the user named them) are compared with the
// listing of their parent, never by opening dir as spelled: a
// case-insensitive host (Windows, macOS) opens "Dev" for "dev" and would
// hide the difference a Linux server sees.
func (s *Searcher) foldDir(dir string) (disk string, diffs [][2]string, ok bool) {
	p := s.sharedDir(dir)
	for !s.raw(p).ok {
		parent := filepath.Dir(p)
		if parent == p {
			return "", nil, false
		}
		p = parent
	}
	rest, err := filepath.Rel(p, dir)
	if err != nil {
		return "", nil, false
	}
	if rest == "." {
		return p, nil, true
	}
	for _, want := range strings.Split(rest, string(filepath.Separator)) {
		names := s.raw(p).foldedDirs(want)
		if len(names) == 0 {
			return "", nil, false
		}
		have := names[0]
		if have != want {
			diffs = append(diffs, [2]string{want, have})
		}
		p = filepath.Join(p, have)
	}
	return p, diffs, s.raw(p).ok
}

// sharedDir returns the longest folder that is dir or one of its parents
// and also the ini's folder or one of its parents.
func (s *Searcher) sharedDir(dir string) string {
	for {
		if d := strings.TrimSuffix(dir, string(filepath.Separator)); s.iniDir == dir ||
			strings.HasPrefix(s.iniDir, d+string(filepath.Separator)) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}

// exactDir reports whether dir exists with every component spelled as on
// disk (below sharedDir): what a case-sensitive file system opens.
func (s *Searcher) exactDir(dir string) bool {
	_, diffs, ok := s.foldDir(dir)
	return ok && len(diffs) == 0
}

// resolveDir is the folder the engine opens for dir under the Searcher's
// rules: dir itself under Linux rules, dir as the disk spells it under
// Windows rules when only case differs.
func (s *Searcher) resolveDir(dir string) string {
	if s.platform.Platform != Windows {
		return dir
	}
	if disk, _, ok := s.foldDir(dir); ok {
		return disk
	}
	return dir
}

// noteFolder records a CaseNote when the folder of a setting exists only in
// another case.
func (s *Searcher) noteFolder(index int, value, dir string) {
	setting := noteSetting(index)
	disk, diffs, ok := s.foldDir(dir)
	if !ok || len(diffs) == 0 {
		return
	}
	var want, have []string
	for _, d := range diffs {
		want = append(want, d[0])
		have = append(have, d[1])
	}
	fixed := value
	for _, d := range diffs {
		fixed = replaceSegment(fixed, d[0], d[1])
	}
	n := CaseNote{Setting: setting, Index: index, Value: value, Kind: CaseFolder, Want: strings.Join(want, "/"), Have: strings.Join(have, "/"), Folder: s.rel(disk)}
	if s.platform.Platform == Windows {
		n.Message = fmt.Sprintf("%s=%s: the folder is %s, not %s: Windows finds it, a Linux server would not (write %s=%s, or rename the folder)",
			setting, value, n.Folder, n.Want, setting, fixed)
	} else {
		n.Message = fmt.Sprintf("%s=%s: no folder %s on a case-sensitive file system: the folder is %s (write %s=%s, or rename the folder)",
			setting, value, n.Want, n.Folder, setting, fixed)
	}
	s.notes = append(s.notes, n)
}

// noteExtensions records a CaseNote per spelling of p's extension, other
// than the pattern's own, that files of p's folder end in.
func (s *Searcher) noteExtensions(value string, p *pattern) {
	setting := noteSetting(p.index)
	if p.ext == "" {
		return
	}
	byExt := make(map[string][]string)
	for _, file := range s.list(p.dir).names {
		if len(file) < len(p.prefix)+len(p.ext) || file[:len(p.prefix)] != p.prefix {
			continue
		}
		ext := file[len(file)-len(p.ext):]
		if ext != p.ext && strings.EqualFold(ext, p.ext) {
			byExt[ext] = append(byExt[ext], file)
		}
	}
	exts := make([]string, 0, len(byExt))
	for e := range byExt {
		exts = append(exts, e)
	}
	sort.Strings(exts)
	for _, e := range exts {
		files := byExt[e] // sorted: names is
		n := CaseNote{Setting: setting, Index: p.index, Value: value, Kind: CaseExtension, Want: p.ext, Have: e, Folder: relDir(p.rel),
			Count: len(files), Files: files[:min(len(files), maxNoteFiles)]}
		fixed := strings.TrimSuffix(value, p.ext[1:]) + e[1:]
		how := "a Linux server finds them only by the engine's case-insensitive pass, which older builds lack"
		if s.platform.Platform == Windows {
			how = "Windows loads them; " + how
		}
		n.Message = fmt.Sprintf("%s=%s: %d file(s) in %s end in %s, not %s (%s): %s (rename them to %s, or write %s=%s)",
			setting, value, n.Count, n.Folder, e, p.ext, strings.Join(n.Files, ", "), how, p.ext, setting, fixed)
		s.notes = append(s.notes, n)
	}
}

// noteSetting names the setting of a Paths index, or CachePath for -1.
func noteSetting(index int) string {
	if index < 0 {
		return "CachePath"
	}
	return fmt.Sprintf("Paths[%d]", index)
}

// replaceSegment replaces the first path segment of value (separated by
// "\" or "/") equal to want with have.
func replaceSegment(value, want, have string) string {
	start := 0
	for i := 0; i <= len(value); i++ {
		if i < len(value) && value[i] != '\\' && value[i] != '/' {
			continue
		}
		if value[start:i] == want {
			return value[:start] + have + value[i:]
		}
		start = i + 1
	}
	return value
}
