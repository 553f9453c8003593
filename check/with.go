package check

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/archive"
	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/internal/window"
	"github.com/upkdeps/upkdeps/search"
)

// With is what check --with adds: where the mod's packages would go,
// what they replace, and the findings the mod adds, removes and changes.
type With struct {
	Mod      string       `json:"mod"`
	Packages []ModPackage `json:"packages"`
	SetAside []string     `json:"set_aside"` // .int, .ini and other files that are not packages
	Unplaced []ModPackage `json:"unplaced"`  // packages no Paths entry takes
	// Unreadable are the mod's files that cannot be read (a corrupt
	// package, a member over a limit or with an unsafe name): each is
	// reported and the rest is checked without it.
	Unreadable      []ModProblem    `json:"unreadable"`
	Replaces        []Replacement   `json:"replaces"`
	FindingsAdded   []graph.Finding `json:"findings_added"`
	FindingsRemoved []graph.Finding `json:"findings_removed"`
	// FindingsChanged are findings of the install that the mod changes
	// (as they are with it): a package already missing that the mod's
	// packages need too, more objects missing from a package.
	FindingsChanged []graph.Finding `json:"findings_changed"`
}

// Fails reports whether the mod makes the install worse, or could not be
// checked in full: it adds or changes an error, or a file of it cannot be
// read (check --with exits 1).
func (w *With) Fails() bool {
	for _, f := range append(slices.Clip(w.FindingsAdded), w.FindingsChanged...) {
		if f.Severity == graph.Error {
			return true
		}
	}
	return len(w.Unreadable) > 0
}

// ModProblem is a file of a mod that cannot be read.
type ModProblem struct {
	Member string `json:"member"`
	Error  string `json:"error"`
}

// ModPackage is one package of the mod, as check --with places it.
type ModPackage struct {
	Member string `json:"member"`       // path inside the mod (archive member or file below the folder)
	To     string `json:"to,omitempty"` // where it would be installed, relative to the game root
	GUID   string `json:"guid"`
	Size   int64  `json:"size"`
	// Loads is false when an installed package of the same name comes
	// first in Paths, so the engine would never load the mod's.
	Loads bool   `json:"loads"`
	Note  string `json:"note,omitempty"`

	name, file string
	pathIndex  int
	tables     *tables // what the graph reads of it
}

// Replacement is an installed file a mod package would replace or shadow.
type Replacement struct {
	Name          string     `json:"name"`
	Installed     string     `json:"installed"`
	InstalledGUID string     `json:"installed_guid"`
	InstalledSize int64      `json:"installed_size"`
	Mod           string     `json:"mod"`
	ModGUID       string     `json:"mod_guid"`
	ModSize       int64      `json:"mod_size"`
	How           ReplaceHow `json:"how"`
}

// ReplaceHow says how a mod's package meets the installed one of its name.
type ReplaceHow string

// The ways a mod's package meets an installed one.
const (
	Replaces ReplaceHow = "replaces" // the same file: installing overwrites it
	Shadows  ReplaceHow = "shadows"  // the mod's comes first in Paths: the engine loads it
	Shadowed ReplaceHow = "shadowed" // the installed one comes first: the mod's is never loaded
)

// DefaultMaxHeld caps the bytes of the headers and tables of all the
// packages of one mod that RunWith holds (the graph reads them from
// memory; their serial data is not held) unless WithOptions.MaxHeld says
// otherwise: a package past it is listed as unreadable, not checked. The
// tables of a real package take a few MiB at most.
const DefaultMaxHeld int64 = 256 << 20

// readMod lists the files of a mod folder or archive; visit gets each
// file's path inside the mod and its bytes (nil when it is not read: not a
// package, or err says why it cannot be), valid only during the call. An
// archive member is read as a stream into a window.Window: its first and
// last bytes, where the engines write the header and tables, whatever its
// size; one window is reused from member to member.
func readMod(ctx context.Context, src string, visit func(member string, data io.ReaderAt, size int64, err error) error) error {
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	w := window.Get()
	defer window.Put(w)
	if !st.IsDir() {
		if archive.KindOf(src) == "" {
			return install.ArgError{Arg: install.ArgWith, Err: fmt.Errorf("%s: not a folder or an archive (.zip, .umod, .ut2mod, .7z, .rar)", src)}
		}
		return archive.Walk(ctx, src, archive.Limits{}, func(m *archive.Member) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			name := m.Name
			if m.Err != nil {
				return visit(m.Path(), nil, 0, m.Err)
			}
			if !isPackageName(name) {
				return visit(name, nil, 0, nil)
			}
			if err := readMember(m, w); err != nil {
				return visit(m.Path(), nil, 0, err)
			}
			return visit(name, w, w.Size(), nil)
		})
	}
	return filepath.WalkDir(src, func(p string, de fs.DirEntry, err error) error {
		if err != nil || !de.Type().IsRegular() {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		rel = filepath.ToSlash(rel)
		if !isPackageName(rel) {
			return visit(rel, nil, 0, nil)
		}
		f, err := fsutil.OpenRegular(p)
		if err != nil {
			return visit(rel, nil, 0, err)
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return visit(rel, nil, 0, err)
		}
		return visit(rel, f, st.Size(), nil)
	})
}

// readMember streams m into w (emptied first).
func readMember(m *archive.Member, w *window.Window) error {
	rc, err := m.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	w.Reset()
	_, err = io.CopyBuffer(w, rc, make([]byte, 256<<10))
	return err
}

// isPackageName says whether a mod file may be a package: anything but the
// text and binary files mods ship beside their packages.
func isPackageName(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".int", ".ini", ".txt", ".htm", ".html", ".md", ".uc", ".upkg", ".dll", ".so", ".exe", ".bmp", ".jpg", ".png", ".def", ".log", ".bat", ".sh", ".url", ".rtf", ".doc", ".pdf":
		return false
	}
	return true
}

// placeMod loads the mod and decides where each package would go: the
// Paths folder its own layout names (a member System/Foo.u goes where the
// Paths entry ending in System/*.u points), else the first Paths entry for
// its extension (the rule cache extract uses).
func placeMod(ctx context.Context, src string, s *search.Searcher, maxHeld int64) (*With, error) {
	info := &With{Mod: src, Packages: []ModPackage{}, SetAside: []string{}, Unplaced: []ModPackage{},
		Replaces: []Replacement{}, Unreadable: []ModProblem{}}
	paths := s.Paths()
	raw := s.PlacementPaths()
	seen := map[string]bool{}
	var held int64
	err := readMod(ctx, src, func(member string, data io.ReaderAt, size int64, err error) error {
		if err == nil && seen[strings.ToLower(member)] {
			// Two members of one name: the first is the mod's (as the
			// index keeps it), the later one is reported.
			err = fmt.Errorf("another member is named %s too: only the first is checked", member)
			data = nil
		}
		seen[strings.ToLower(member)] = true
		if err != nil {
			info.Unreadable = append(info.Unreadable, ModProblem{Member: member, Error: modError(src, member, err)})
			return nil
		}
		var tag [4]byte
		if data != nil {
			data.ReadAt(tag[:], 0) // a short file has no tag
		}
		if !format.HasTag(tag[:]) {
			info.SetAside = append(info.SetAside, member)
			return nil
		}
		tb, f, err := keepTables(member, data, size)
		if err == nil && held+tb.held > maxHeld {
			err = fmt.Errorf("not checked: the tables of the mod's packages would hold more than %d bytes in memory", maxHeld)
		}
		if err != nil {
			info.Unreadable = append(info.Unreadable, ModProblem{Member: member, Error: err.Error()})
			return nil
		}
		held += tb.held
		base := path.Base(member)
		mp := ModPackage{Member: member, GUID: f.GUID.String(), Size: size, pathIndex: -1,
			name: strings.TrimSuffix(base, path.Ext(base)), tables: tb}
		dir := strings.ToLower(path.Dir(member))
		ext := path.Ext(base)
		best := search.PlacementIndex(base, raw) // the Paths rule
		for i, p := range paths {
			if best < 0 || !strings.EqualFold(p.Ext, ext) || p.Prefix != "" {
				continue
			}
			pl := strings.ToLower(p.Rel)
			if dir != "." && (pl == dir || strings.HasSuffix(dir, "/"+pl) || path.Base(pl) == path.Base(dir)) {
				best = i // the mod's own layout
				break
			}
		}
		if best < 0 {
			mp.Note = fmt.Sprintf("no Paths entry takes %q files", ext)
			info.Unplaced = append(info.Unplaced, mp)
			return nil
		}
		mp.pathIndex = best
		mp.file = filepath.Join(paths[best].Dir, base)
		mp.To = s.Rel(mp.file)
		info.Packages = append(info.Packages, mp)
		return nil
	})
	if err != nil {
		return nil, err
	}
	byMember := func(a, b ModPackage) int { return strings.Compare(a.Member, b.Member) }
	slices.SortFunc(info.Packages, byMember)
	slices.SortFunc(info.Unplaced, byMember)
	slices.Sort(info.SetAside)
	slices.SortFunc(info.Unreadable, func(a, b ModProblem) int { return strings.Compare(a.Member, b.Member) })
	return info, nil
}

// withResolver answers like the install, with the mod's packages installed.
type withResolver struct {
	graph.Resolver
	mod map[string]*ModPackage // lower name -> the package that loads
}

// newWithResolver decides, for each mod package, whether it or an
// installed package of its name loads, and records the Replacements.
func newWithResolver(base graph.Resolver, info *With) (*withResolver, map[string]graph.Held) {
	r := &withResolver{Resolver: base, mod: map[string]*ModPackage{}}
	overlay := map[string]graph.Held{}
	for i := range info.Packages {
		mp := &info.Packages[i]
		k := strings.ToLower(mp.name)
		if r.mod[k] != nil {
			mp.Note = "another package of the mod has this name"
			continue
		}
		res := base.Resolve(mp.name)
		mp.Loads = true
		if res.File != "" {
			rp := Replacement{Name: mp.name, Installed: res.Rel, Mod: mp.Member, ModGUID: mp.GUID, ModSize: mp.Size, How: Shadows}
			if f, err := format.Open(res.File); err == nil {
				rp.InstalledGUID = f.GUID.String()
				f.Close()
			}
			if st, err := os.Stat(res.File); err == nil {
				rp.InstalledSize = st.Size()
			}
			switch {
			case sameFile(res.File, mp.file):
				rp.How = Replaces
			case res.PathIndex >= 0 && res.PathIndex < mp.pathIndex:
				rp.How, mp.Loads = Shadowed, false
				mp.Note = "the installed " + res.Rel + " comes first in Paths: the engine never loads this one"
			}
			info.Replaces = append(info.Replaces, rp)
		}
		if mp.Loads {
			r.mod[k] = mp
			overlay[mp.file] = mp.tables
		}
	}
	return r, overlay
}

func sameFile(a, b string) bool { return strings.EqualFold(filepath.Clean(a), filepath.Clean(b)) }

func (r *withResolver) Candidates() []graph.Candidate {
	var out []graph.Candidate
	for _, c := range r.Resolver.Candidates() {
		if r.mod[strings.ToLower(c.Name)] == nil {
			out = append(out, c)
		}
	}
	for _, mp := range r.mod {
		out = append(out, graph.Candidate{Name: mp.name, File: mp.file, Rel: filepath.ToSlash(mp.To), PathIndex: mp.pathIndex})
	}
	slices.SortFunc(out, func(a, b graph.Candidate) int {
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	})
	return out
}

func (r *withResolver) Resolve(name string) graph.Resolution {
	if mp := r.mod[strings.ToLower(name)]; mp != nil {
		return graph.Resolution{File: mp.file, Rel: filepath.ToSlash(mp.To), PathIndex: mp.pathIndex}
	}
	return r.Resolver.Resolve(name)
}

// WithOptions say how RunWith reads the mod.
type WithOptions struct {
	Options
	// MaxHeld caps the bytes of the mod's packages' headers and tables
	// held in memory (0: DefaultMaxHeld).
	MaxHeld int64
}

// RunWith checks the install as if the mod at src (a folder or an archive)
// were installed, writing nothing, and returns what Report.With holds:
// where each package would go, what it replaces or shadows, and the
// findings the mod adds, removes and changes against without, the
// install's findings without the mod (Run's; Diff, SameProblem). A src
// that is neither a folder nor an archive is an ArgError (ArgWith).
func RunWith(ctx context.Context, in *install.Install, without []graph.Finding, src string, opt WithOptions) (*With, error) {
	if opt.MaxHeld <= 0 {
		opt.MaxHeld = DefaultMaxHeld
	}
	info, err := placeMod(ctx, src, in.Search, opt.MaxHeld)
	if err != nil {
		return nil, err
	}
	r, overlay := newWithResolver(graph.FromSearcher(in.Search), info)
	with, _, err := findings(ctx, in, install.GraphOptions{Resolver: r, Overlay: overlay}, opt.Options)
	if err != nil {
		return nil, err
	}
	info.FindingsAdded, info.FindingsRemoved, info.FindingsChanged = Diff(without, with, SameProblem)
	return info, nil
}

// modError is err's message without the archive and member it names (the
// report names the member).
func modError(src, member string, err error) string {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "archive: ")
	msg = strings.TrimPrefix(msg, src+": ")
	return strings.TrimPrefix(msg, member+": ")
}
