package header

import (
	"slices"
	"strconv"
	"strings"
)

// Change kinds, the values of Change.Kind.
const (
	ClassAdded     = "class added"     // the sources export a class the header lacks
	ClassRemoved   = "class removed"   // the header has a class the sources no longer export
	SuperChanged   = "parent changed"  // class AFoo : public ABar differs
	FlagsChanged   = "flags changed"   // DECLARE_CLASS flags differ
	MemberAdded    = "member added"    // a variable the header lacks
	MemberRemoved  = "member removed"  // a variable the sources no longer declare
	MemberRetyped  = "member retyped"  // same name, other C++ type
	MemberMoved    = "member moved"    // other position among the members both have (Want, Have: #N)
	NativeAdded    = "native added"    // DECLARE_FUNCTION missing from the header
	NativeRemoved  = "native removed"  // DECLARE_FUNCTION no longer declared
	EventAdded     = "event added"     // event thunk missing from the header
	EventRemoved   = "event removed"   // event thunk no longer declared
	EventChanged   = "event changed"   // the thunk's signature differs
	EnumAdded      = "enum added"      // an enum the header lacks
	EnumRemoved    = "enum removed"    // an enum the sources no longer declare
	EnumChanged    = "enum changed"    // the values differ
	ConstAdded     = "const added"     // a UCONST_ define the header lacks
	ConstRemoved   = "const removed"   // a UCONST_ define the sources no longer declare
	ConstChanged   = "const changed"   // the value differs
	NamesChanged   = "names changed"   // the AUTOGENERATE_NAME list differs as a set (Want: added, Have: removed)
	OrderChanged   = "order changed"   // the same classes or names in another order (Name: classes or names)
	PackingChanged = "packing changed" // a member's packing mark differs (GCC_PACK(4), GCC_ALIGN(16) or none)
	DeclareChanged = "declare changed" // the DECLARE_CLASS line differs other than in its flags (the layout: 3 or 4 arguments)
	StructAdded    = "struct added"    // UE2: an exported struct the header lacks
	StructRemoved  = "struct removed"  // UE2: an exported struct the sources no longer export
	HeaderMissing  = "header missing"  // the sources export classes but there is no header
	HeaderOrphaned = "header orphaned" // a header exists but the sources export no class
)

// Change is one difference between the header the sources give (want) and
// the one on disk (have).
type Change struct {
	Class string // the C++ class, "" for a change of the whole file
	Kind  string
	Name  string // the member, function, event or enum
	Want  string // what the sources give (a type, a signature, values)
	Have  string // what the header has
	// File and Line locate the declaration in the sources (0 when the
	// sources no longer have it); HeaderLine locates it in the header on
	// disk (0 when the header lacks it).
	File       string
	Line       int
	HeaderLine int
}

// Diff compares a generated header's model (want) with an existing one's
// (have), class by class: every kind of difference, structural ones
// (members, functions, classes) and those of layout (packing marks, the
// DECLARE_CLASS line) and order (of the classes both have, of the names).
// Spelling case is not compared: names compare ignoring case, as the
// engine's names do. The result is in class order of want, then the
// classes only have has, then the file's changes.
func Diff(want, have *File) []Change {
	var out []Change
	haveByName := map[string]*Class{}
	for _, c := range have.Classes {
		haveByName[strings.ToLower(c.Name)] = c
	}
	wantByName := map[string]bool{}
	for _, w := range want.Classes {
		wantByName[strings.ToLower(w.Name)] = true
		h := haveByName[strings.ToLower(w.Name)]
		if h == nil {
			out = append(out, Change{Class: w.Name, Kind: ClassAdded, Name: w.Name, File: w.File, Line: w.Line})
			continue
		}
		out = append(out, diffClass(w, h)...)
	}
	for _, h := range have.Classes {
		if !wantByName[strings.ToLower(h.Name)] {
			out = append(out, Change{Class: h.Name, Kind: ClassRemoved, Name: h.Name, HeaderLine: h.Line})
		}
	}
	// Exported structs (UE2): their members as a class's.
	hs := map[string]*Class{}
	for _, s := range have.Structs {
		hs[strings.ToLower(s.Name)] = s
	}
	ws := map[string]bool{}
	for _, s := range want.Structs {
		ws[strings.ToLower(s.Name)] = true
		h := hs[strings.ToLower(s.Name)]
		if h == nil {
			out = append(out, Change{Class: s.Name, Kind: StructAdded, Name: s.Name, File: s.File, Line: structLine(s)})
			continue
		}
		out = append(out, diffClass(s, h)...)
	}
	for _, h := range have.Structs {
		if !ws[strings.ToLower(h.Name)] {
			out = append(out, Change{Class: h.Name, Kind: StructRemoved, Name: h.Name, HeaderLine: h.Line})
		}
	}
	if !sameSet(want.Names, have.Names) {
		added, removed := setDiff(want.Names, have.Names), setDiff(have.Names, want.Names)
		out = append(out, Change{Kind: NamesChanged, Name: "AUTOGENERATE_NAME", Want: strings.Join(added, " "), Have: strings.Join(removed, " ")})
	} else if !slices.Equal(sortedLowerKeep(want.Names), sortedLowerKeep(have.Names)) {
		out = append(out, Change{Kind: OrderChanged, Name: "names"})
	}
	var wc, hc []string
	for _, c := range want.Classes {
		if haveByName[strings.ToLower(c.Name)] != nil {
			wc = append(wc, strings.ToLower(c.Name))
		}
	}
	for _, c := range have.Classes {
		if wantByName[strings.ToLower(c.Name)] {
			hc = append(hc, strings.ToLower(c.Name))
		}
	}
	if !slices.Equal(wc, hc) {
		out = append(out, Change{Kind: OrderChanged, Name: "classes"})
	}
	return out
}

// setDiff returns the names of a not in b, ignoring case, in a's order.
func setDiff(a, b []string) []string {
	in := map[string]bool{}
	for _, s := range b {
		in[strings.ToLower(s)] = true
	}
	var out []string
	for _, s := range a {
		if !in[strings.ToLower(s)] {
			out = append(out, s)
		}
	}
	return out
}

func sortedLower(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = strings.ToLower(x)
	}
	slices.Sort(out)
	return out
}

func sameSet(a, b []string) bool { return slices.Equal(sortedLower(a), sortedLower(b)) }

func diffClass(w, h *Class) []Change {
	d := &classDiff{w: w}
	if !strings.EqualFold(w.Super, h.Super) {
		d.at(SuperChanged, w.Name, w.Super, h.Super, w.Line, h.Line)
	}
	if w.Flags != h.Flags {
		d.at(FlagsChanged, w.Name, w.Flags, h.Flags, w.Line, h.Line)
	} else if w.Declare != "" && h.Declare != "" && !strings.EqualFold(w.Declare, h.Declare) && strings.EqualFold(w.Super, h.Super) {
		d.at(DeclareChanged, w.Name, w.Declare, h.Declare, w.Line, h.Line)
	}
	d.members(h)
	// Natives and events: as sets.
	d.out = append(d.out, diffFuncs(w, h.Natives, w.Natives, NativeAdded, NativeRemoved, "")...)
	d.out = append(d.out, diffFuncs(w, h.Events, w.Events, EventAdded, EventRemoved, EventChanged)...)
	d.enums(h)
	d.consts(h)
	return d.out
}

// classDiff is one diffClass under way: the changes from h to w so far.
type classDiff struct {
	w   *Class
	out []Change
}

func (d *classDiff) at(k, name, want, have string, src, hl int) {
	c := Change{Class: d.w.Name, Kind: k, Name: name, Want: want, Have: have, HeaderLine: hl}
	if src > 0 {
		c.File, c.Line = d.w.File, src
	}
	d.out = append(d.out, c)
}

// members diffs the members.
func (d *classDiff) members(h *Class) {
	w := d.w
	// Members: by name, then order. A name declared twice (an error the
	// compiler reports) is matched by occurrence.
	wKeys, hKeys := memberKeys(w.Members), memberKeys(h.Members)
	hm := map[string]Member{}
	for i, m := range h.Members {
		hm[hKeys[i]] = m
	}
	wm := map[string]Member{}
	for i, m := range w.Members {
		wm[wKeys[i]] = m
	}
	var wCommon, hCommon []string
	for i, m := range w.Members {
		k := wKeys[i]
		o, ok := hm[k]
		switch {
		case !ok:
			d.at(MemberAdded, m.Name, m.Type, "", m.Source, 0)
		default:
			if !strings.EqualFold(o.Type, m.Type) {
				d.at(MemberRetyped, m.Name, m.Type, o.Type, m.Source, o.Line)
			} else if o.Pack != m.Pack && prevKey(wKeys, i) == prevKey(hKeys, slices.Index(hKeys, k)) {
				// Only where the member before it is the same: a mark that
				// follows from a member added, removed or moved before it is
				// part of that change.
				d.at(PackingChanged, m.Name, packMark(m.Pack), packMark(o.Pack), m.Source, o.Line)
			}
			wCommon = append(wCommon, k)
		}
	}
	for i, m := range h.Members {
		k := hKeys[i]
		if _, ok := wm[k]; !ok {
			d.at(MemberRemoved, m.Name, "", m.Type, 0, m.Line)
		} else {
			hCommon = append(hCommon, k)
		}
	}
	inOrder := lcs(wCommon, hCommon)
	for i, k := range wCommon {
		if !inOrder[k] {
			m := wm[k]
			// Want and Have are the positions among the members both have.
			d.at(MemberMoved, m.Name, "#"+strconv.Itoa(i+1), "#"+strconv.Itoa(slices.Index(hCommon, k)+1), m.Source, hm[k].Line)
		}
	}
}

// enums diffs the enums.
func (d *classDiff) enums(h *Class) {
	w := d.w
	hk := occurrenceKeys(len(h.Enums), func(i int) string { return h.Enums[i].Name })
	wk := occurrenceKeys(len(w.Enums), func(i int) string { return w.Enums[i].Name })
	he := map[string]Enum{}
	for i, e := range h.Enums {
		he[hk[i]] = e
	}
	we := map[string]bool{}
	for i, e := range w.Enums {
		we[wk[i]] = true
		o, ok := he[wk[i]]
		switch {
		case !ok:
			d.at(EnumAdded, e.Name, strings.Join(e.Values, ","), "", e.Source, 0)
		case !slices.Equal(sortedLowerKeep(e.Values), sortedLowerKeep(o.Values)):
			d.at(EnumChanged, e.Name, strings.Join(e.Values, ","), strings.Join(o.Values, ","), e.Source, o.Line)
		}
	}
	for i, e := range h.Enums {
		if !we[hk[i]] {
			d.at(EnumRemoved, e.Name, "", strings.Join(e.Values, ","), 0, e.Line)
		}
	}
}

// consts diffs the constants.
func (d *classDiff) consts(h *Class) {
	w := d.w
	hc := map[string]Const{}
	for _, k := range h.Consts {
		hc[strings.ToLower(k.Name)] = k
	}
	wc := map[string]bool{}
	for _, k := range w.Consts {
		wc[strings.ToLower(k.Name)] = true
		o, ok := hc[strings.ToLower(k.Name)]
		switch {
		case !ok:
			d.at(ConstAdded, k.Name, k.Value, "", k.Source, 0)
		case strings.TrimSpace(o.Value) != strings.TrimSpace(k.Value):
			d.at(ConstChanged, k.Name, k.Value, o.Value, k.Source, o.Line)
		}
	}
	for _, k := range h.Consts {
		if !wc[strings.ToLower(k.Name)] {
			d.at(ConstRemoved, k.Name, "", k.Value, 0, k.Line)
		}
	}
}

// prevKey returns the key of the member before the i-th, "" for the first.
func prevKey(keys []string, i int) string {
	if i <= 0 {
		return ""
	}
	return keys[i-1]
}

// packMark names a packing mark for a change.
func packMark(p string) string {
	if p == "" {
		return "no mark"
	}
	return p
}

// sortedLowerKeep lower-cases enum values keeping their order (the order
// gives their numbers).
func sortedLowerKeep(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = strings.ToLower(x)
	}
	return out
}

func diffFuncs(w *Class, have, want []Func, added, removed, changed string) []Change {
	var out []Change
	hk := occurrenceKeys(len(have), func(i int) string { return have[i].Name })
	wk := occurrenceKeys(len(want), func(i int) string { return want[i].Name })
	hf := map[string]Func{}
	for i, f := range have {
		hf[hk[i]] = f
	}
	wf := map[string]bool{}
	for i, f := range want {
		k := wk[i]
		wf[k] = true
		o, ok := hf[k]
		switch {
		case !ok:
			out = append(out, Change{Class: w.Name, Kind: added, Name: f.Name, Want: f.Signature, File: w.File, Line: f.Source})
		case changed != "" && !strings.EqualFold(o.Signature, f.Signature):
			out = append(out, Change{Class: w.Name, Kind: changed, Name: f.Name, Want: f.Signature, Have: o.Signature, File: w.File, Line: f.Source, HeaderLine: o.Line})
		}
	}
	for i, f := range have {
		if !wf[hk[i]] {
			out = append(out, Change{Class: w.Name, Kind: removed, Name: f.Name, Have: f.Signature, HeaderLine: f.Line})
		}
	}
	return out
}

// lcs returns the elements of a longest common subsequence of a and b
// (both without repeats): the members that kept their relative order.
func lcs(a, b []string) map[string]bool {
	n, m := len(a), len(b)
	keep := map[string]bool{}
	if n*m > 1<<22 {
		// Quadratic in the members of one class, a few hundred at most;
		// a hostile header gets the prefix that matches.
		for i := 0; i < n && i < m && a[i] == b[i]; i++ {
			keep[a[i]] = true
		}
		return keep
	}
	t := make([][]int32, n+1)
	for i := range t {
		t[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case a[i] == b[j]:
			keep[a[i]] = true
			i++
			j++
		case t[i+1][j] >= t[i][j+1]:
			i++
		default:
			j++
		}
	}
	return keep
}

// memberKeys returns a key per member: its lower-cased name, with the
// occurrence number after the first.
func memberKeys(ms []Member) []string {
	return occurrenceKeys(len(ms), func(i int) string { return ms[i].Name })
}

// occurrenceKeys returns a key per item of a list of n names: the name
// lower-cased, with its occurrence number after the first.
func occurrenceKeys(n int, name func(int) string) []string {
	seen := map[string]int{}
	keys := make([]string, n)
	for i := range n {
		k := strings.ToLower(name(i))
		n := seen[k]
		seen[k] = n + 1
		if n > 0 {
			k += "#" + strconv.Itoa(n)
		}
		keys[i] = k
	}
	return keys
}

// structLine returns the source line of a generated struct: that of its
// first member (the model keeps no other).
func structLine(s *Class) int {
	if len(s.Members) > 0 {
		return s.Members[0].Source
	}
	return 0
}
