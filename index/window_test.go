package index

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/upkdeps/upkdeps/format"
)

// TestWindow writes streams of every size around the head and tail sizes
// in random pieces and reads every range back: the bytes kept read as the
// stream had them, a range in the gap is an error.
func TestWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{0, 1, 7, 10, 11, 20, 25, 26, 27, 100, 1000} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(rng.IntN(256))
		}
		w := &window{headMax: 10, tailMax: 16}
		for rest := data; len(rest) > 0; {
			k := min(len(rest), 1+rng.IntN(40))
			w.Write(rest[:k])
			rest = rest[k:]
		}
		if w.Size() != int64(size) {
			t.Fatalf("size %d: Size %d", size, w.Size())
		}
		for off := 0; off <= size; off++ {
			for n := 0; off+n <= size+2; n++ {
				buf := make([]byte, n)
				k, err := w.ReadAt(buf, int64(off))
				inGap := size > 26 && off+n > 10 && off < size-16 && n > 0
				switch {
				case inGap:
					if err == nil || err == io.EOF {
						t.Errorf("size %d, [%d,+%d): no error in the gap", size, off, n)
					}
				case off+n > size:
					if err != io.EOF || !bytes.Equal(buf[:k], data[off:]) {
						t.Errorf("size %d, [%d,+%d): %d %v", size, off, n, k, err)
					}
				default:
					if err != nil || k != n || !bytes.Equal(buf, data[off:off+n]) {
						t.Errorf("size %d, [%d,+%d): %d %v %x, want %x", size, off, n, k, err, buf, data[off:off+n])
					}
				}
			}
		}
	}
}

// TestDescribeStreamed: a package whose body is far bigger than the window
// (names after the header, imports and exports at the end, as the engines
// write them) is described from a zip member as from the whole bytes.
func TestDescribeStreamed(t *testing.T) {
	defer func(h, tl int) { windowHead, windowTail = h, tl }(windowHead, windowTail)
	windowHead, windowTail = 512, 2048
	b := format.NewBuilder(69, 0)
	b.ImportSpec("Core.Thing:Core.Class")
	b.ExportSpec("Big:Class", 1<<20)
	data, err := format.Marshal(b.File)
	if err != nil {
		t.Fatal(err)
	}
	want, err := describeWhole("Big.u", data)
	if err != nil {
		t.Fatal(err)
	}
	have, err := describe(context.Background(), "Big.u", bytes.NewReader(data))
	if err != nil {
		t.Fatalf("streamed: %v", err)
	}
	if !reflect.DeepEqual(have, want) {
		t.Errorf("streamed %+v\nwhole    %+v", have, want)
	}
}

// describeWhole is describe without a window: the oracle.
func describeWhole(fileName string, data []byte) (*pkgInfo, error) {
	f, err := format.NewFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	return summarise(fileName, f, int64(len(data)), hex.EncodeToString(sum[:])), nil
}
