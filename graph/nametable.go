package graph

import "encoding/binary"

// nameTable maps a key of two numbers and a name's bytes to a number: the
// scan's hot lookups (an import's object by its outer chain, class and
// name; a chain by its parent and last name; a name's interner number),
// about a hundred a package. It is open addressing with linear probing
// over 16-byte slots, each with 32 bits of the key's hash, the value and
// where the key's record is in one arena: the name's hash, the two
// numbers and the name, back to back. A hit reads a slot and its record and compares the
// numbers and bytes: no string is made for a lookup, no pointer followed,
// and the garbage collector has nothing to scan.
type nameTable struct {
	slots []nameSlot
	recs  []byte // the keys' records: h (8 bytes), a, b (4 bytes each), the name
	used  int
}

type nameSlot struct {
	tag    uint32 // the key's hash (slotOf) >> 32
	v1     uint32 // the value + 1; 0: an empty slot
	off, n uint32 // the record at recs[off:], its name n bytes
}

// find returns the value of (a, b, name), whose name hashes to h.
func (t *nameTable) find(h uint64, a, b uint32, name string) (uint32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	x := slotOf(h, a, b)
	tag := uint32(x >> 32)
	mask := uint64(len(t.slots) - 1)
	for i := x & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.v1 == 0 {
			return 0, false
		}
		if s.tag != tag || int(s.n) != len(name) {
			continue
		}
		r := t.recs[s.off : s.off+recHead+s.n]
		if binary.LittleEndian.Uint32(r[8:]) == a && binary.LittleEndian.Uint32(r[12:]) == b && string(r[recHead:]) == name {
			return s.v1 - 1, true
		}
	}
}

// add sets the value of (a, b, name), which find did not find.
func (t *nameTable) add(h uint64, a, b uint32, name string, v uint32) {
	if 2*(t.used+1) > len(t.slots) {
		t.grow()
	}
	off := uint32(len(t.recs))
	t.recs = binary.LittleEndian.AppendUint64(t.recs, h)
	t.recs = binary.LittleEndian.AppendUint32(t.recs, a)
	t.recs = binary.LittleEndian.AppendUint32(t.recs, b)
	t.recs = append(t.recs, name...)
	t.put(slotOf(h, a, b), nameSlot{v1: v + 1, off: off, n: uint32(len(name))})
	t.used++
}

// put enters s, whose key mixes to x.
func (t *nameTable) put(x uint64, s nameSlot) {
	s.tag = uint32(x >> 32)
	mask := uint64(len(t.slots) - 1)
	i := x & mask
	for t.slots[i].v1 != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = s
}

// recHead is the bytes of a record before its name.
const recHead = 16

// minSlots is the fewest slots of a nameTable or an interner: a small
// install's tables start small (a worker has four), a large one's double
// a few more times.
const minSlots = 64

// grow doubles the slots.
func (t *nameTable) grow() {
	old := t.slots
	t.slots = make([]nameSlot, max(minSlots, 2*len(old)))
	for _, s := range old {
		if s.v1 != 0 {
			r := t.recs[s.off:]
			t.put(slotOf(binary.LittleEndian.Uint64(r), binary.LittleEndian.Uint32(r[8:]), binary.LittleEndian.Uint32(r[12:])), s)
		}
	}
}

// reset empties t, keeping its memory.
func (t *nameTable) reset() {
	clear(t.slots)
	t.recs = t.recs[:0]
	t.used = 0
}

// slotOf mixes a name's hash with the key's numbers.
func slotOf(h uint64, a, b uint32) uint64 {
	return h ^ uint64(a)*0x9e3779b97f4a7c15 ^ uint64(b)*0xc2b2ae3d27d4eb4f
}
