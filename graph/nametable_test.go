package graph

import (
	"strconv"
	"testing"
)

// TestNameTable: a key is its two numbers and its name's bytes, whatever
// the hash says: keys that share a hash (forced here) stay apart, and the
// table keeps every key through its growth and after a reset.
func TestNameTable(t *testing.T) {
	var tab nameTable
	const n = 5000
	for i := range n {
		name := "Name" + strconv.Itoa(i)
		h := uint64(i % 7) // many keys per hash: only the bytes tell them apart
		if _, ok := tab.find(h, uint32(i%3), 1, name); ok {
			t.Fatalf("%s found before it was added", name)
		}
		tab.add(h, uint32(i%3), 1, name, uint32(i))
	}
	for i := range n {
		name := "Name" + strconv.Itoa(i)
		v, ok := tab.find(uint64(i%7), uint32(i%3), 1, name)
		if !ok || v != uint32(i) {
			t.Fatalf("%s: have %d %v, want %d", name, v, ok, i)
		}
		if _, ok := tab.find(uint64(i%7), uint32(i%3), 2, name); ok {
			t.Fatalf("%s found under another second number", name)
		}
		if _, ok := tab.find(uint64(i%7), uint32(i%3), 1, name+"x"); ok {
			t.Fatalf("%sx found: only a prefix matched", name)
		}
	}
	if v, ok := tab.find(0, 0, 1, "Name0"); !ok || v != 0 {
		t.Fatalf("value 0: have %d %v", v, ok)
	}
	tab.reset()
	if _, ok := tab.find(0, 0, 1, "Name0"); ok {
		t.Fatal("found after reset")
	}
	tab.add(3, 0, 0, "", 9)
	if v, ok := tab.find(3, 0, 0, ""); !ok || v != 9 {
		t.Fatalf("empty name: have %d %v", v, ok)
	}
}
