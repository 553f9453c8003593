package install

import (
	"fmt"
	"strings"
	"sync"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/termsafe"
	"github.com/upkdeps/upkdeps/livemap"
	"github.com/upkdeps/upkdeps/native"
	"github.com/upkdeps/upkdeps/search"
)

// Install is a game installation as the commands see it: its ini, the game
// profile and the engine's package lookup. Open makes one. It is not safe
// for concurrent use (Natives and LiveMap excepted): it keeps the last
// graph's sources once read.
type Install struct {
	IniPath string
	Ini     *ini.File
	Game    ini.Game
	Search  *search.Searcher

	warn func(string)
	// nat is what Natives read, once: StartNatives may read it on another
	// goroutine.
	nat struct {
		read     sync.Once
		set      *native.Set
		err      error
		warnings []string  // the read's, passed on by the first Natives
		warned   sync.Once // for warnings
	}
	// srcGraph and sources are the last graph Sources scanned and its
	// sources.
	srcGraph *graph.Graph
	sources  *graph.Sources
	// live and liveErr are what LiveMap read, once (liveOnce): safe when
	// a check's goroutines ask at once.
	liveOnce sync.Once
	live     *livemap.Map
	liveErr  error
	// cmdRoots are the roots of the server's command line: Options.URL's
	// map, game class and mutators, then Options.Mutators; mutators their
	// mutator classes.
	cmdRoots []graph.Root
	mutators []string
}

// Options say how to open an install.
type Options struct {
	// Ini is the ini file, or a game folder or its System folder to find
	// it in (ini.Locate); "" finds the game's ini in the working folder
	// and its System folder.
	Ini string
	// Game names the profile (ini.ParseGame); "" guesses it from the ini.
	Game string
	// Platform names the file-name rules (search.ParsePlatform); "" guesses.
	Platform string
	// CacheDir overrides the ini's CachePath.
	CacheDir string
	// NotesInReport leaves the install's case notes (search.CaseNotes) to
	// the report instead of a warning each.
	NotesInReport bool
	// SettingsAreErrors makes an unsafe ini value (search.SettingErrors)
	// an error instead of a warning.
	SettingsAreErrors bool
	// Warn receives each warning and note, one line without a newline,
	// of Open and of the Install's methods (a binary Natives cannot read);
	// nil drops them.
	Warn func(msg string)
	// Mutators are the mutator classes (Pkg.Class) the server's command
	// line runs (?Mutator=A.B,C.D), which no file shows: roots of the
	// graph like ServerActors lines (graph.MutatorRoot), and classes whose
	// defaults may add their package to the live map. One that is not
	// Pkg.Class is an ArgError (ArgMutators).
	Mutators []string
	// URL is the server's launch URL, as its command line gives it
	// ("DM-Deck16][?Game=Botpack.DeathMatchPlus?Mutator=A.B,C.D";
	// ParseServerURL): its map, game class and mutators are roots like
	// Mutators'. One that does not parse is an ArgError (ArgURL).
	URL string
	// Name says how the caller names an option (ArgGame, ...) in the
	// warnings that advise one: "--game" on a command line. nil names it
	// as Arg does ("Game").
	Name func(arg string) string
}

// name is how opt.Name names arg.
func (opt Options) name(arg string) string {
	if opt.Name == nil {
		return arg
	}
	return opt.Name(arg)
}

// The options an ArgError names (ArgError.Arg): the fields of Options,
// and the options of other packages' calls that take an install.
const (
	ArgIni       = "Ini"
	ArgGame      = "Game"
	ArgPlatform  = "Platform"
	ArgCacheDir  = "CacheDir"
	ArgWithCache = "WithCache"
	ArgWith      = "With"
	ArgPreset    = "Preset"
	ArgMutators  = "Mutators"
	ArgURL       = "URL"
)

// ArgError is an error in what the caller asked for (an unknown game or
// platform, a check with the download cache and no cache folder), not in
// the install: Arg names the option (ArgGame, ...), Err says what is
// wrong with it in words free of any command line's syntax. A command
// maps Arg to its own flag.
type ArgError struct {
	Arg string
	Err error
}

func (e ArgError) Error() string { return e.Arg + ": " + e.Err.Error() }
func (e ArgError) Unwrap() error { return e.Err }

func warnf(warn func(string), format string, args ...any) {
	if warn != nil {
		warn(fmt.Sprintf(format, args...))
	}
}

// Open loads the ini, the game profile (given, else guessed) and a
// Searcher. An ini that cannot be found (none in the working folder, a
// folder without one), an unknown game or platform is an ArgError.
func Open(opt Options) (*Install, error) {
	path, err := ini.Locate(opt.Ini)
	if err != nil {
		return nil, ArgError{ArgIni, err}
	}
	f, err := ini.Load(path)
	if err != nil {
		return nil, err
	}
	in := &Install{IniPath: path, Ini: f, Game: ini.GuessGame(f), warn: opt.Warn}
	if opt.Game != "" {
		g, err := ini.ParseGame(opt.Game)
		if err != nil {
			return nil, ArgError{ArgGame, err}
		}
		in.Game = g
	}
	if err := in.commandLine(opt); err != nil {
		return nil, err
	}
	// A licensee's ini syntax ("Paths+=" in SWRC) is read as its engine reads it.
	in.Ini = f.ForGame(in.Game)
	f = in.Ini
	if p := in.Game.Profile(); p == nil || !p.AppendSyntax() {
		if lines := f.AppendLines(); len(lines) > 0 {
			l := lines[0]
			warnf(opt.Warn, "warning: %s:%d: [%s] %s=%s and %d more Key+= line(s): this engine reads %q as a key of its own, not as an append (only swrc's does: give %s swrc if this is its ini)",
				path, l.Line, l.Section, l.Key, l.Value, len(lines)-1, l.Key, opt.name(ArgGame))
		}
	}
	platform, err := search.ParsePlatform(opt.Platform)
	if err != nil {
		return nil, ArgError{ArgPlatform, err}
	}
	gen := in.Game.Generation
	if opt.Game == "" && in.Game.Generic() {
		gen = 0 // only a map extension said it: let Core's version decide
	}
	s, err := search.New(f, search.Options{Game: in.Game, Generation: gen, CacheDir: opt.CacheDir, Platform: platform})
	if err != nil {
		return nil, err
	}
	if p := s.Platform(); p.Ambiguous() {
		warnf(opt.Warn, "note: %s: %s (give %s to choose)", path, p.Reason, opt.name(ArgPlatform))
	}
	if !opt.NotesInReport {
		for _, n := range s.CaseNotes() {
			warnf(opt.Warn, "warning: %s: %s", path, n.Message)
		}
	}
	for _, err := range s.SettingErrors() {
		if opt.SettingsAreErrors {
			return nil, fmt.Errorf("%s: %w: not changing anything", path, err)
		}
		warnf(opt.Warn, "warning: %s", termsafe.String(fmt.Sprintf("%s: %v", path, err)))
	}
	in.Search = s
	if in.Game.Generic() && s.Generation() != in.Game.Generation {
		// A map extension guessed the engine; the packages' versions
		// (Core's) tell it better.
		in.Game = map[int]ini.Game{1: ini.UE1, 2: ini.UE2}[s.Generation()]
	}
	return in, nil
}

// Build is the game's build from the Manifest.ini beside the ini (0 when
// unknown): a UT99 436 or 451 install gets that era's native table.
func (in *Install) Build() int { return ini.GameBuild(in.Ini.Dir()) }

// Folders returns the Paths folders for DOT clusters, by Paths index.
func (in *Install) Folders() []string {
	var out []string
	for _, p := range in.Search.Paths() {
		out = append(out, p.Raw)
	}
	return out
}

// Platform returns the file-name rules the install is searched under.
func (in *Install) Platform() search.Platform {
	return in.Search.Platform().Platform
}

// RulesLabel names the platform rules for report headers
// (search.Platform.RulesLabel).
func (in *Install) RulesLabel() string { return in.Platform().RulesLabel() }

// GameLabel names the profile for report headers.
func (in *Install) GameLabel() string {
	if in.Game.Name == "" {
		return fmt.Sprintf("UE%d", in.Search.Generation())
	}
	return fmt.Sprintf("%s, UE%d", in.Game.Name, in.Search.Generation())
}

// ServerURL is a server's launch URL taken apart (ParseServerURL).
type ServerURL struct {
	Map      string   // before the first "?"; "" when the URL starts with one
	Game     string   // the first Game= option's value (Pkg.Class), or ""
	Mutators []string // the first Mutator= option's classes, in order
}

// ParseServerURL takes apart a server's launch URL as the engine's
// GameInfo reads its options (UT99's and UT2004's GameInfo.uc: options
// follow "?", each Key=Value; ParseOption takes the first option of a key,
// any case; InitGame splits Mutator= at commas, a leading comma leaving
// the rest whole, which then names no class). Other options are ignored.
// A URL with spaces (a whole command line pasted) is an error.
func ParseServerURL(url string) (ServerURL, error) {
	var u ServerURL
	url = strings.TrimSpace(url)
	if strings.ContainsAny(url, " \t\r\n") {
		return u, fmt.Errorf("%q is not one URL: give what follows `ucc server`, without spaces (quote it for the shell)", url)
	}
	opts := strings.Split(url, "?")
	u.Map = opts[0]
	gotGame, gotMuts := false, false
	for _, o := range opts[1:] {
		k, v, _ := strings.Cut(o, "=")
		switch {
		case strings.EqualFold(k, "Game") && !gotGame:
			u.Game, gotGame = v, true
		case strings.EqualFold(k, "Mutator") && !gotMuts:
			gotMuts = true
			// InitGame's loop: the text before a comma at index 1 or
			// later, else all that is left.
			for v != "" {
				m := v
				if i := strings.IndexByte(v, ','); i > 0 {
					m, v = v[:i], v[i+1:]
				} else {
					v = ""
				}
				u.Mutators = append(u.Mutators, m)
			}
		}
	}
	return u, nil
}

// commandLine makes the roots of opt.URL and opt.Mutators; a map name may
// carry the game's map extension (ini.File.MapExts).
func (in *Install) commandLine(opt Options) error {
	var muts []string
	if opt.URL != "" {
		u, err := ParseServerURL(opt.URL)
		if err != nil {
			return ArgError{ArgURL, err}
		}
		if u.Map != "" {
			r, err := graph.MapRoot(u.Map, in.Ini.MapExts(in.Game))
			if err != nil {
				return ArgError{ArgURL, err}
			}
			in.cmdRoots = append(in.cmdRoots, r)
		}
		if u.Game != "" {
			r, err := graph.GameRoot(u.Game)
			if err != nil {
				return ArgError{ArgURL, err}
			}
			in.cmdRoots = append(in.cmdRoots, r)
		}
		muts = u.Mutators
	}
	for i, m := range append(muts, opt.Mutators...) {
		r, err := graph.MutatorRoot(m)
		if err != nil {
			arg := ArgMutators
			if i < len(muts) {
				arg = ArgURL
			}
			return ArgError{arg, err}
		}
		in.cmdRoots = append(in.cmdRoots, r)
		in.mutators = append(in.mutators, m)
	}
	return nil
}
