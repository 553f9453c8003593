package uz

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// corpusDir finds ../shared/corpus next to the module root, or skips.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("module root not found")
		}
		dir = parent
	}
	c := filepath.Join(dir, "..", "shared", "corpus")
	if _, err := os.Stat(filepath.Join(c, "MANIFEST.tsv")); err != nil {
		t.Skipf("real-file corpus not present at %s", c)
	}
	return c
}

// uzPair is a real .uz download and the file it decompresses to.
type uzPair struct {
	uz, orig, name string
}

var uzNote = regexp.MustCompile(`original name (.+?); decompressed copy staged as (Cache/[0-9A-F]+\.uxx)`)

// corpusUZ lists the real .uz files named in MANIFEST.tsv, or skips.
func corpusUZ(t testing.TB) []uzPair {
	t.Helper()
	c := corpusDir(t)
	f, err := os.Open(filepath.Join(c, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var pairs []uzPair
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 9 || !strings.HasSuffix(cols[2], ".tmp") {
			continue
		}
		m := uzNote.FindStringSubmatch(cols[8])
		if m == nil {
			continue
		}
		repoDir := strings.ReplaceAll(cols[0], "/", "__")
		pairs = append(pairs, uzPair{
			uz:   filepath.Join(c, repoDir, cols[2]),
			orig: filepath.Join(c, repoDir, m[2]),
			name: m[1],
		})
	}
	if len(pairs) == 0 {
		t.Skip("no .uz files listed in MANIFEST.tsv")
	}
	return pairs
}

func TestCorpusDecodeUZ(t *testing.T) {
	for _, p := range corpusUZ(t) {
		t.Run(filepath.Base(p.uz), func(t *testing.T) {
			data, err := os.ReadFile(p.uz)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(p.orig)
			if err != nil {
				t.Fatal(err)
			}
			r, err := NewReader(bytes.NewReader(data), 0)
			if err != nil {
				t.Fatal(err)
			}
			if r.Header.Signature != Sig1234 || r.Header.Name != p.name {
				t.Errorf("header = %+v, want sig 1234 name %q", r.Header, p.name)
			}
			var have bytes.Buffer
			if _, err := r.WriteTo(&have); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(have.Bytes(), want) {
				t.Errorf("decoded %d bytes, want %d bytes of %s", have.Len(), len(want), filepath.Base(p.orig))
			}
		})
	}
}

func TestCorpusEncodeUZIdentical(t *testing.T) {
	same := 0
	pairs := corpusUZ(t)
	for _, p := range pairs {
		for _, workers := range []int{1, 3} {
			if raceEnabled && workers == 1 {
				continue // one worker starts no goroutine to race; the runs without -race compare it
			}
			t.Run(filepath.Base(p.uz)+"/workers="+strconv.Itoa(workers), func(t *testing.T) {
				want, err := os.ReadFile(p.uz)
				if err != nil {
					t.Fatal(err)
				}
				orig, err := os.ReadFile(p.orig)
				if err != nil {
					t.Fatal(err)
				}
				var have bytes.Buffer
				w, err := NewWriter(&have, p.name, Sig1234)
				if err != nil {
					t.Fatal(err)
				}
				w.SetWorkers(workers)
				if _, err := w.Write(orig); err != nil {
					t.Fatal(err)
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				if i := firstDiff(have.Bytes(), want); i >= 0 {
					t.Errorf("encoding differs from the real .uz at byte %d (have %d bytes, want %d)", i, have.Len(), len(want))
					return
				}
				same++
			})
		}
	}
	t.Logf("%d of %d encodings (%d real .uz files, 1 and 3 workers) reproduced byte for byte", same, 2*len(pairs), len(pairs))
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}
