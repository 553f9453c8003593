package window

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
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
		w := &Window{headMax: 10, tailMax: 16}
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
