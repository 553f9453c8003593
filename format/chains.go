package format

import "slices"

// checkOuterChains verifies that every outer chain ends at the package, so
// that resolving paths cannot loop. The error gives the offset of the table
// and the record that closes the loop.
func (f *File) checkOuterChains(sc *scratch) error {
	if f.outerChainsEnd(sc) {
		return nil
	}
	return f.walkOuterChains(sc)
}

// outerChainsEnd reports whether every outer chain ends, for the tables
// the engine writes, where an import's outer is an import and an export's
// an export: each table apart, with chainsEnd. It reports false, for
// walkOuterChains to decide and name the record, when a chain crosses
// tables or may loop.
func (f *File) outerChainsEnd(sc *scratch) bool {
	imports, exports := f.Imports, f.Exports
	next := reuse(sc.walk, max(len(imports), len(exports))+1)
	sc.walk = next
	// The outer of each record as an index in its table, the table's
	// length (root) for none; open collects the bits of every outer that
	// is not root.
	root := int32(len(imports))
	next = next[:root+1]
	open := int32(0)
	for i := range imports {
		o := int32(imports[i].Outer)
		if o > 0 {
			return false // an export: a chain across tables
		}
		v := -o - 1
		if o == 0 {
			v = root
		}
		next[i], open = v, open|(v^root)
	}
	next[root] = root
	if !chainsEnd(next, open) {
		return false
	}
	root = int32(len(exports))
	next = next[:root+1]
	open = 0
	for i := range exports {
		o := int32(exports[i].Outer)
		if o < 0 {
			return false
		}
		v := o - 1
		if o == 0 {
			v = root
		}
		next[i], open = v, open|(v^root)
	}
	next[root] = root
	return chainsEnd(next, open)
}

// chainsEnd reports whether every chain of links next (next[i] the record
// after i; the last element is the root, its own next) reaches the root,
// open being 0 when every link goes there already. It doubles the links
// (each record then links to the one two links on) until every one is the
// root, or until they span more links than there are records, when a chain
// loops: a few passes over the table, none with a branch that depends on
// the chains, where a walk of each chain branches on each record's outer,
// unpredictably (forward and backward references are mixed in real
// tables).
func chainsEnd(next []int32, open int32) bool {
	root := len(next) - 1
	if open != 0 && fourHops(next) {
		return true
	}
	for span := 1; open != 0; span *= 2 {
		if span >= root {
			return false // a chain longer than the table: a loop
		}
		open = 0
		for i, j := range next[:root] {
			k := next[j]
			next[i], open = k, open|(k^int32(root))
		}
	}
	return true
}

// fourHops reports whether every chain of links next (as chainsEnd takes
// them) reaches the root within four links, as the engine's tables do (a
// state's function's parameter is four from the package): one pass of
// loads, where doubling the links takes two passes that store them.
func fourHops(next []int32) bool {
	root := int32(len(next) - 1)
	open := int32(0)
	for _, j := range next {
		open |= next[next[next[j]]] ^ root
	}
	return open == 0
}

// walkOuterChains is checkOuterChains by walking each chain, through both
// tables; it names the record that closes a loop.
func (f *File) walkOuterChains(sc *scratch) error {
	ni := len(f.Imports)
	// Sized by the records read, not by a count from the header. walk[i]
	// is 0 until a walk reaches record i (imports first, then exports),
	// then that walk's number: a walk that meets its own number has
	// looped; one that meets an earlier walk's has joined a chain already
	// known to end.
	n := ni + len(f.Exports)
	walk := sc.walk[:0]
	if cap(walk) < n {
		walk = make([]int32, n)
	}
	walk = walk[:n]
	clear(walk)
	sc.walk = walk
	// Imports inside imports and exports inside exports, the engine's
	// tables, walk within one table, without asking at each step which
	// table the outer is in; a walk that crosses to the other table is
	// left to walkOuter, which follows both.
	imports, exports := f.Imports, f.Exports
	iw, ew := walk[:ni], walk[ni:]
	for start := range imports {
		if iw[start] != 0 {
			continue
		}
		id := int32(start + 1)
		cur := start
		for {
			iw[cur] = id
			o := imports[cur].Outer
			if o >= 0 {
				if o > 0 && !f.walkOuter(walk, o, id) {
					return f.loopErr(walk, id)
				}
				break
			}
			if cur = int(-o) - 1; iw[cur] != 0 {
				if iw[cur] == id {
					return formatErr(int64(f.ImportOffset), "outer chain of import %d loops", cur)
				}
				break
			}
		}
	}
	for start := range exports {
		if ew[start] != 0 {
			continue
		}
		id := int32(ni + start + 1)
		cur := start
		for {
			ew[cur] = id
			o := exports[cur].Outer
			if o <= 0 {
				if o < 0 && !f.walkOuter(walk, o, id) {
					return f.loopErr(walk, id)
				}
				break
			}
			if cur = int(o) - 1; ew[cur] != 0 {
				if ew[cur] == id {
					return formatErr(int64(f.ExportOffset), "outer chain of export %d loops", cur)
				}
				break
			}
		}
	}
	return nil
}

// walkOuter continues walk id of checkOuterChains at outer, through both
// tables, and reports whether it ends; when it loops, the record that
// closes the loop is left marked -id for loopErr.
func (f *File) walkOuter(walk []int32, outer Ref, id int32) bool {
	ni := len(f.Imports)
	for !outer.IsNull() {
		cur := outer.Index()
		if !outer.IsImport() {
			cur += ni
		}
		if w := walk[cur]; w != 0 {
			if w == id {
				walk[cur] = -id
				return false
			}
			return true
		}
		walk[cur] = id
		if cur < ni {
			outer = f.Imports[cur].Outer
		} else {
			outer = f.Exports[cur-ni].Outer
		}
	}
	return true
}

// loopErr returns the error for the loop walkOuter found on walk id.
func (f *File) loopErr(walk []int32, id int32) error {
	ni := len(f.Imports)
	cur := slices.Index(walk, -id)
	if cur < ni {
		return formatErr(int64(f.ImportOffset), "outer chain of import %d loops", cur)
	}
	return formatErr(int64(f.ExportOffset), "outer chain of export %d loops", cur-ni)
}
