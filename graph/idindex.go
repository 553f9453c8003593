package graph

// idIndex finds a number by a hash of its key, the key kept elsewhere
// (in the slices the numbers index): open addressing with linear probing
// over 4-byte slots, each a number + 1 (0: empty), at most half full.
// find probes and the caller's match checks each number against its key.
// 8 to 16 bytes a key, where a Go map of the same keys and numbers costs
// 20 to 40 (a string key's map more), and nothing for the garbage
// collector to scan.
type idIndex struct {
	slots []uint32
	n     int
}

// find returns the number entered with hash h for which match holds.
func (t *idIndex) find(h uint64, match func(id uint32) bool) (uint32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; t.slots[i] != 0; i = (i + 1) & mask {
		if id := t.slots[i] - 1; match(id) {
			return id, true
		}
	}
	return 0, false
}

// add enters number id, whose key hashes to h, which a probe did not find;
// hash gives the hash of any number entered before (called when the
// slots grow).
func (t *idIndex) add(h uint64, id uint32, hash func(id uint32) uint64) {
	if 2*(t.n+1) > len(t.slots) {
		old := t.slots
		t.slots = make([]uint32, max(minSlots, 2*len(old)))
		for _, v := range old {
			if v != 0 {
				t.put(hash(v-1), v)
			}
		}
	}
	t.put(h, id+1)
	t.n++
}

func (t *idIndex) put(h uint64, v uint32) { t.slots[freeSlot(t.slots, h)] = v }

// freeSlot returns the first empty slot of slots (a power of two of
// them, not all full) from place p on, probing linearly: where idIndex
// and tagIndex put a number.
func freeSlot[T uint32 | uint64](slots []T, p uint64) uint64 {
	mask := uint64(len(slots) - 1)
	i := p & mask
	for slots[i] != 0 {
		i = (i + 1) & mask
	}
	return i
}

// reset empties t, keeping its memory.
func (t *idIndex) reset() {
	clear(t.slots)
	t.n = 0
}

// mix64 spreads a key of two numbers over all the bits of its hash (the
// finaliser of MurmurHash3), for idIndex's low bits.
func mix64(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// tagIndex is idIndex for keys whose hash cannot be made again from the
// number (several keys may give one number): 8-byte slots, each the key
// hash's high 32 bits (the tag, which also places the slot) and the
// number + 1, so that the slots grow without the keys and a probe skips
// most other keys by the tag alone.
type tagIndex struct {
	slots []uint64
	n     int
}

// find returns the number + 1 entered with a hash whose tag is h's for
// which match holds, 0 when none; a slot of another tag is skipped
// unchecked. (One result keeps it within the compiler's inlining budget,
// on the path of every import.)
func (t *tagIndex) find(h uint64, match func(id uint32) bool) uint32 {
	mask, tag := uint64(len(t.slots)-1), h>>32
	for i := tag & mask; len(t.slots) > 0 && t.slots[i] != 0; i = (i + 1) & mask {
		if v := t.slots[i]; v>>32 == tag && match(uint32(v)-1) {
			return uint32(v)
		}
	}
	return 0
}

// add enters number id, whose key hashes to h, which a probe did not find.
func (t *tagIndex) add(h uint64, id uint32) {
	if 2*(t.n+1) > len(t.slots) {
		old := t.slots
		t.slots = make([]uint64, max(minSlots, 2*len(old)))
		for _, v := range old {
			if v != 0 {
				t.put(v)
			}
		}
	}
	t.put(h>>32<<32 | uint64(id+1))
	t.n++
}

func (t *tagIndex) put(v uint64) { t.slots[freeSlot(t.slots, v>>32)] = v }

// reset empties t, keeping its memory.
func (t *tagIndex) reset() {
	clear(t.slots)
	t.n = 0
}
