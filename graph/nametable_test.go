package graph

import (
	"strconv"
	"strings"

	"github.com/upkdeps/upkdeps/internal/fold"
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

// TestAppendLower: the eight-bytes-at-a-time lower-casing is
// strings.ToLower for every ASCII byte around the letters' edges, at
// every length and offset, and for text that leaves ASCII anywhere.
func TestAppendLower(t *testing.T) {
	edges := "@AZ[`az{\x01\x7fM"
	for n := range 40 {
		for off := range len(edges) {
			b := make([]byte, n)
			for i := range b {
				b[i] = edges[(i*7+off)%len(edges)]
			}
			for _, s := range []string{string(b), string(b) + "É", "É" + string(b), string(b[:n/2]) + "\xc9" + string(b[n/2:])} {
				if have, want := string(appendLower([]byte("x"), s)), "x"+strings.ToLower(s); have != want {
					t.Fatalf("appendLower(%q) = %q, want %q", s, have, want)
				}
			}
		}
	}
}

// TestHashKeyPairs: the key of a path and class is the pair's, case aside:
// swapping them, or moving bytes from one to the other, changes it.
func TestHashKeyPairs(t *testing.T) {
	if hashKey("Group.Tex", "Texture") != hashKey("GROUP.tex", "texture") {
		t.Error("case changed the key")
	}
	for _, k := range [][2]string{{"Texture", "Group.Tex"}, {"Group.TexT", "exture"}, {"Group.Te", "xTexture"}, {"Group.Tex", ""}} {
		if hashKey(k[0], k[1]) == hashKey("Group.Tex", "Texture") {
			t.Errorf("hashKey(%q, %q) is Group.Tex's", k[0], k[1])
		}
	}
}

// TestCmpDepName: ordering dependencies by their keys is fold.Compare's
// order of their names, for ASCII, prefixes, NULs and text past ASCII.
func TestCmpDepName(t *testing.T) {
	names := []string{"", "a", "A", "Engine", "engine", "EngineX", "Engine\x00", "TexPack0001", "TexPack0002", "texpack00010",
		"TexPack0", "TexPack", "Ébène", "ébène", "Ebene", "abcdefgh", "abcdefgÉ", "abcdefghÉ", "ABCDEFGHI", "\x00", "@", "[", "`", "{", "aÀ", "aß"}
	sign := func(n int) int { return min(max(n, -1), 1) }
	for _, a := range names {
		for _, b := range names {
			da, db := dep{name: a, key: foldKey(a)}, dep{name: b, key: foldKey(b)}
			if have, want := sign(cmpDepName(da, db)), sign(fold.Compare(a, b)); have != want {
				t.Errorf("cmpDepName(%q, %q) = %d, want %d", a, b, have, want)
			}
		}
	}
}
