package graph

import (
	"cmp"
	"path"
	"slices"
	"strconv"
	"strings"
)

// GroupKind says what holds a Group together.
type GroupKind string

const (
	// GroupMod is a mod: a code package with the packages whose names
	// start with its name (ModX.u, ModXExtra.u, ModXTex.utx, DM-ModX.unr)
	// and the textures, sounds and maps that only it uses.
	GroupMod GroupKind = "mod"
	// GroupStock is the game's stock packages of one folder.
	GroupStock GroupKind = "stock"
	// GroupFolder is the other packages of one folder.
	GroupFolder GroupKind = "folder"
)

// Group is a set of packages the overview draws as one node.
type Group struct {
	Name string // the mod's code package, "stock System", or the folder ("Maps")
	Kind GroupKind
	// Members are its packages (present or unreadable), sorted by name.
	Members []*Package
	// Missing are the missing packages it holds: named like its mod, or
	// else imported first by one of its members. Sorted.
	Missing []*Package
}

// Groups sorts every package of the graph into groups, as file names and
// Paths show them (see GroupKind), for the whole-server overview:
//   - stock packages (isStock; nil: IsStock) by folder;
//   - a code package whose name starts with another's (case aside, 3
//     characters or more) joins that one's mod, else starts its own;
//   - a map joins the mod its name names past the game type (DM-ModX-2),
//     else the one mod it takes code from;
//   - a texture, sound, music or other package joins the mod whose name
//     its name starts with (the longest), else the one mod whose packages
//     (maps included) alone import it;
//   - the rest by folder (folders: the Paths entries by index, as
//     DOTOptions.Folders).
//
// Groups are sorted by name; each package is in exactly one.
func (gr *Graph) Groups(folders []string, isStock func(string) bool) []Group {
	if isStock == nil {
		isStock = IsStock
	}
	gs := &grouping{folders: folders, group: map[*Package]string{}, groups: map[string]*Group{},
		modKey: map[string]string{}, importers: map[*Package][]*Package{}}

	// Mods: code packages, shortest names first, so that a name's
	// prefix is a mod before the name is looked at.
	var code, rest, maps, missing []*Package
	for _, p := range gr.pkgs {
		switch {
		case p.Missing():
			missing = append(missing, p)
		case isStock(p.Name) && p.Err == nil:
			gs.add("stock "+gs.short(p.PathIndex), Group{Name: "stock " + gs.short(p.PathIndex), Kind: GroupStock}, p)
		case p.Kind == KindCode:
			code = append(code, p)
		case p.Kind == KindMap:
			maps = append(maps, p)
		default:
			rest = append(rest, p)
		}
	}
	slices.SortStableFunc(code, func(a, b *Package) int { return cmp.Compare(len(a.Name), len(b.Name)) })
	for _, p := range code {
		if m := gs.prefixMod(p.Name); m != "" {
			gs.add(gs.modKey[m], Group{}, p)
			continue
		}
		key := "mod " + p.Name
		gs.modKey[strings.ToLower(p.Name)] = key
		gs.mods = append(gs.mods, strings.ToLower(p.Name))
		gs.add(key, Group{Name: p.Name, Kind: GroupMod}, p)
	}
	for _, e := range gr.Edges() {
		gs.importers[e.To] = append(gs.importers[e.To], e.From)
	}
	for _, p := range maps {
		gs.addMap(gr, p)
	}
	for _, p := range rest {
		if m := gs.prefixMod(p.Name); m != "" {
			gs.add(gs.modKey[m], Group{}, p)
		} else if m := gs.onlyMod(p); m != "" {
			gs.add(m, Group{}, p)
		} else {
			gs.add("folder "+gs.short(p.PathIndex), Group{Name: gs.short(p.PathIndex), Kind: GroupFolder}, p)
		}
	}
	for _, p := range missing {
		gs.addMissing(p)
	}
	return gs.sorted()
}

// grouping is one Groups under way.
type grouping struct {
	folders []string
	group   map[*Package]string // package -> group key
	groups  map[string]*Group
	mods    []string          // lower-case mod names, longest first when matching
	modKey  map[string]string // lower-case mod name -> group key
	// importers are the importers of each package, in name order.
	importers map[*Package][]*Package
}

func (gs *grouping) add(key string, g Group, p *Package) {
	if gs.groups[key] == nil {
		gg := g
		gs.groups[key] = &gg
	}
	gs.group[p] = key
	if p.Missing() {
		gs.groups[key].Missing = append(gs.groups[key].Missing, p)
	} else {
		gs.groups[key].Members = append(gs.groups[key].Members, p)
	}
}

func (gs *grouping) short(pi int) string { return shortFolder(folderName(pi, gs.folders)) }

// prefixMod returns the longest mod name (3 characters or more) that name
// starts with, case aside, or "".
func (gs *grouping) prefixMod(name string) string {
	n := strings.ToLower(name)
	best := ""
	for _, m := range gs.mods {
		if len(m) > len(best) && len(m) >= 3 && strings.HasPrefix(n, m) {
			best = m
		}
	}
	return best
}

// modOf returns the key of p's group when it is a mod, else "".
func (gs *grouping) modOf(p *Package) string {
	if k := gs.group[p]; strings.HasPrefix(k, "mod ") {
		return k
	}
	return ""
}

// onlyMod is the one mod whose packages import p, or "": all of p's
// importers (maps included: they are placed first) must be in it.
func (gs *grouping) onlyMod(p *Package) string {
	one := ""
	for _, q := range gs.importers[p] {
		m := gs.modOf(q)
		if m == "" || one != "" && m != one {
			return ""
		}
		one = m
	}
	return one
}

// addMap places a map: with the mod its name names past the game type,
// else the one mod it takes code from, else its folder.
func (gs *grouping) addMap(gr *Graph, p *Package) {
	name := p.Name
	if _, after, ok := strings.Cut(name, "-"); ok {
		name = after
	}
	if m := gs.prefixMod(name); m != "" {
		gs.add(gs.modKey[m], Group{}, p)
		return
	}
	one := ""
	for _, q := range gr.Imports(p) {
		if q.Kind != KindCode {
			continue
		}
		if m := gs.modOf(q); m != "" {
			if one != "" && one != m {
				one = "-"
				break
			}
			one = m
		}
	}
	if one != "" && one != "-" {
		gs.add(one, Group{}, p)
		return
	}
	gs.add("folder "+gs.short(p.PathIndex), Group{Name: gs.short(p.PathIndex), Kind: GroupFolder}, p)
}

// addMissing places a missing package: with the mod it is named like, else
// with its first importer (importers are in name order).
func (gs *grouping) addMissing(p *Package) {
	key := ""
	if m := gs.prefixMod(p.Name); m != "" {
		key = gs.modKey[m]
	}
	for _, q := range gs.importers[p] {
		if key != "" {
			break
		}
		key = gs.group[q]
	}
	if key == "" {
		key = "folder missing"
		gs.add(key, Group{Name: "missing", Kind: GroupFolder}, p)
		return
	}
	gs.add(key, Group{}, p)
}

// sorted returns the groups sorted by name, their packages sorted.
func (gs *grouping) sorted() []Group {
	out := make([]Group, 0, len(gs.groups))
	for _, g := range gs.groups {
		slices.SortFunc(g.Members, func(a, b *Package) int { return cmpName(a.Name, b.Name) })
		slices.SortFunc(g.Missing, func(a, b *Package) int { return cmpName(a.Name, b.Name) })
		out = append(out, *g)
	}
	slices.SortFunc(out, func(a, b Group) int { return cmpName(a.Name, b.Name) })
	// Two folders with one short name (../Textures/*.utx, ../Textures/*.bmp):
	// number the later ones.
	for i := 1; i < len(out); i++ {
		if strings.EqualFold(out[i].Name, out[i-1].Name) {
			out[i].Name += " (" + strconv.Itoa(i) + ")"
		}
	}
	return out
}

// FindGroup returns the group of groups named name (case aside), or nil.
func FindGroup(groups []Group, name string) *Group {
	for i := range groups {
		if strings.EqualFold(groups[i].Name, name) {
			return &groups[i]
		}
	}
	return nil
}

// shortFolder is a Paths entry's folder without "../" and the file
// pattern: "../Textures/*.utx" -> "Textures".
func shortFolder(entry string) string {
	e := strings.ReplaceAll(entry, "\\", "/")
	if strings.ContainsAny(path.Base(e), "*?") {
		e = path.Dir(e)
	}
	for strings.HasPrefix(e, "../") {
		e = e[3:]
	}
	if e == "" || e == "." || e == ".." {
		return "System"
	}
	return e
}

// groupTooltip lists a group's packages (the first 40) and every missing
// package it holds.
func groupTooltip(g *Group) string {
	var b strings.Builder
	b.WriteString(g.Name + " (" + string(g.Kind) + "): " + plural(len(g.Members), "package"))
	if len(g.Members) > 0 {
		b.WriteString(": ")
		for i, p := range g.Members {
			if i == 40 {
				b.WriteString(", and " + strconv.Itoa(len(g.Members)-40) + " more")
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(p.Name)
		}
	}
	if len(g.Missing) > 0 {
		b.WriteString("; missing: " + strings.Join(names(g.Missing), ", "))
	}
	b.WriteString("; --from group:" + g.Name + " draws them")
	return b.String()
}
