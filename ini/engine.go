package ini

import "strings"

// Sections and keys upkdeps reads.
const (
	SectionSystem       = "Core.System"
	SectionEngine       = "Engine.Engine"
	SectionEditor       = "Editor.EditorEngine"
	SectionGameEngine   = "Engine.GameEngine"
	SectionXCGameEngine = "XC_Engine.XC_GameEngine"
	SectionHTTPDownload = "IpDrv.HTTPDownload"
)

// System is what the system section (and the language setting) tell about
// where the engine looks for packages and keeps its download cache.
type System struct {
	Section        string   // the section read: "Core.System", or a licensee's "Engine.System", ...
	Paths          []string // package search paths, in search order, e.g. "../System/*.u"
	CachePath      string   // download cache folder, e.g. "../Cache"; "" when not set
	CacheExt       string   // cache file extension, e.g. ".uxx"; "" when not set
	PurgeCacheDays int      // days before cache files are purged; 0 when not set
	Language       string   // localisation extension, "int" unless set
}

// System returns the Paths, CachePath, CacheExt and PurgeCacheDays of the
// system section of the game GuessGame tells, and the Language; see
// SystemFor.
func (f *File) System() System {
	return f.SystemFor(GuessGame(f))
}

// SystemFor returns Paths, CachePath, CacheExt and PurgeCacheDays from the
// system section of game g (see SystemSection), and the Language. Paths are
// as written, relative to Dir. Single-valued settings written more than
// once take the last line, as the engine does.
func (f *File) SystemFor(g Game) System {
	sec := f.SystemSection(g)
	s := System{
		Section:  sec,
		Paths:    f.Values(sec, "Paths"),
		Language: f.Language(),
	}
	s.CachePath, _ = f.Last(sec, "CachePath")
	s.CacheExt, _ = f.Last(sec, "CacheExt")
	if v, ok := f.Last(sec, "PurgeCacheDays"); ok {
		s.PurgeCacheDays = atoi(v)
	}
	return s
}

// SystemSection returns the section that holds the package Paths and the
// CachePath. UE1 and UE2 keep them in [Core.System]; some licensee builds
// moved them ([Engine.System]). The game's profile names its section; when
// the ini has no Paths there (or the game has no profile), the section is
// the one that holds Paths (or, without any, CachePath); when several do,
// [Core.System] is preferred, then the first in the file. An ini with none
// of them gives SectionSystem.
func (f *File) SystemSection(g Game) string {
	if p := g.Profile(); p != nil && p.SystemSection != "" && f.HasKey(p.SystemSection, "Paths") {
		return f.spelling(p.SystemSection)
	}
	for _, key := range []string{"Paths", "CachePath"} {
		var found []string
		for _, sec := range f.Sections() {
			if f.HasKey(sec, key) {
				found = append(found, sec)
			}
		}
		switch {
		case len(found) == 1:
			return found[0]
		case len(found) > 1:
			for _, sec := range found {
				if strings.EqualFold(sec, SectionSystem) {
					return sec
				}
			}
			return found[0]
		}
	}
	return SectionSystem
}

// spelling returns the section name as the file spells it, or name when the
// file has no such section.
func (f *File) spelling(name string) string {
	if sec := f.sections[strings.ToLower(name)]; sec != nil {
		return sec.name
	}
	return name
}

// Language returns [Engine.Engine] Language, the extension of the
// localisation files (int, det, frt, ...), or "int" when it is not set. UE1
// and UE2 games keep it there; the Language= in UT2004's
// [Editor.EditorEngine] is UnrealEd's and is not this one.
func (f *File) Language() string {
	if v, ok := f.Last(SectionEngine, "Language"); ok {
		return v
	}
	return "int"
}

// EditPackages returns [Editor.EditorEngine] EditPackages in build order.
func (f *File) EditPackages() []string {
	return f.Values(SectionEditor, "EditPackages")
}

// ServerPackages returns [Engine.GameEngine] ServerPackages followed by those
// of [XC_Engine.XC_GameEngine] (where XC_Engine servers keep them), without
// repeats: names are compared ignoring case and the first spelling and
// position are kept. A game engine subclass ([Engine.Engine]
// GameEngine=DeusEx.DeusExGameEngine) reads its own section's
// ServerPackages when it has the key, else [Engine.GameEngine]'s (see
// gameEngineSectionsFor).
func (f *File) ServerPackages() []string {
	var out []string
	seen := make(map[string]bool)
	entries := append(f.refEntries(SectionGameEngine, "ServerPackages"), f.refEntries(SectionXCGameEngine, "ServerPackages")...)
	for _, e := range entries {
		if k := strings.ToLower(e.Value); !seen[k] {
			seen[k] = true
			out = append(out, e.Value)
		}
	}
	return out
}

// MapExts returns the extensions of the game's maps, lower case with the
// dot: [URL] MapExt (the extension the engine gives a map name without
// one and the one its map lists look for; every stock ini sets it: unr in
// UnrealTournament.ini, dx in DeusEx.ini, ut2 in UT2004.ini, as the corpus
// shows), then the map extension of game g's profile when it differs (the
// default when the ini does not set it). A MapExt that is not a file
// extension (a dot or a path separator inside) is left out.
func (f *File) MapExts(g Game) []string {
	var out []string
	if v, ok := f.Last("URL", "MapExt"); ok {
		v = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(v), "."))
		if v != "" && !strings.ContainsAny(v, `./\:*?`) {
			out = append(out, "."+v)
		}
	}
	if p := g.Profile(); p != nil && p.Map != "" && (len(out) == 0 || out[0] != p.Map) {
		out = append(out, p.Map)
	}
	return out
}

// Redirect is the server's download redirect from [IpDrv.HTTPDownload].
type Redirect struct {
	URL            string // RedirectToURL; UE2 allows %guid% %file% %lcfile% %ucfile% %ext% %lcext% %ucext%
	UseCompression bool   // UseCompression is true (True or 1)
	HasCompression bool   // UseCompression is written at all (else the game's default applies)
}

// Redirect returns RedirectToURL and UseCompression of [IpDrv.HTTPDownload].
func (f *File) Redirect() Redirect {
	var r Redirect
	r.URL, _ = f.Last(SectionHTTPDownload, "RedirectToURL")
	r.HasCompression = f.HasKey(SectionHTTPDownload, "UseCompression")
	if v, ok := f.Last(SectionHTTPDownload, "UseCompression"); ok {
		r.UseCompression = parseBool(v)
	}
	return r
}

// parseBool reads a boolean the way the engine's GetBool does: "True" in any
// case, otherwise a number equal to 1.
func parseBool(v string) bool {
	return strings.EqualFold(v, "true") || atoi(v) == 1
}

// atoi reads a leading decimal integer like C's atoi: optional blanks and
// sign, then digits; anything else ends it, and no digits is 0. Values past
// the int32 range are clamped.
func atoi(s string) int {
	s = strings.TrimLeft(s, " \t")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	const limit = 1 << 31 // int64 arithmetic: int is 32 bits on 386
	var n int64
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			break
		}
		n = min(n*10+int64(c-'0'), limit)
	}
	if neg {
		return int(-n)
	}
	return int(min(n, limit-1))
}
