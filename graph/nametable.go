package graph

// nameTable maps a key of two numbers and a name's bytes to a number: the
// scan's hot lookups (an import's object by its outer chain, class and
// name; a chain by its parent and last name; a name's interner number),
// about a hundred a package. It is open addressing with linear probing
// over 32-byte slots that hold the key's numbers, its name's full hash and
// where its bytes are in one arena, so that a hit reads one slot and the
// arena and compares the bytes: no string is made for a lookup, no
// pointer followed, and the garbage collector has nothing to scan.
type nameTable struct {
	slots []nameSlot
	bytes []byte // the names of the slots, back to back
	used  int
}

type nameSlot struct {
	h      uint64 // the name's hash (nameHash)
	a, b   uint32
	v1     uint32 // the value + 1; 0: an empty slot
	off, n uint32 // the name in bytes
}

// find returns the value of (a, b, name), whose name hashes to h.
func (t *nameTable) find(h uint64, a, b uint32, name string) (uint32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := slotOf(h, a, b) & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.v1 == 0 {
			return 0, false
		}
		if s.h == h && s.a == a && s.b == b && int(s.n) == len(name) && string(t.bytes[s.off:s.off+s.n]) == name {
			return s.v1 - 1, true
		}
	}
}

// add sets the value of (a, b, name), which find did not find.
func (t *nameTable) add(h uint64, a, b uint32, name string, v uint32) {
	if 2*(t.used+1) > len(t.slots) {
		t.grow()
	}
	off := uint32(len(t.bytes))
	t.bytes = append(t.bytes, name...)
	t.put(nameSlot{h: h, a: a, b: b, v1: v + 1, off: off, n: uint32(len(name))})
	t.used++
}

func (t *nameTable) put(s nameSlot) {
	mask := uint64(len(t.slots) - 1)
	i := slotOf(s.h, s.a, s.b) & mask
	for t.slots[i].v1 != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = s
}

func (t *nameTable) grow() {
	old := t.slots
	t.slots = make([]nameSlot, max(1024, 2*len(old)))
	for _, s := range old {
		if s.v1 != 0 {
			t.put(s)
		}
	}
}

// reset empties t, keeping its memory.
func (t *nameTable) reset() {
	clear(t.slots)
	t.bytes = t.bytes[:0]
	t.used = 0
}

// slotOf mixes a name's hash with the key's numbers.
func slotOf(h uint64, a, b uint32) uint64 {
	return h ^ uint64(a)*0x9e3779b97f4a7c15 ^ uint64(b)*0xc2b2ae3d27d4eb4f
}
