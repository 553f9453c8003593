package archive

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/bodgit/sevenzip"
	"github.com/klauspost/compress/zstd"
	"github.com/stangelandcl/ppmd"
	"github.com/ulikunitz/xz/lzma"
)

// MaxDictionary caps the memory a .7z or .rar decoder may take for its
// dictionary (LZMA, LZMA2), model (PPMd) or window (Zstandard): a header
// declaring more makes the member an error wrapping ErrLimit, before the
// decoder allocates anything.
//
// An LZMA or LZMA2 dictionary larger than the output it decodes is never
// used past that output, so the decoders here allocate the smaller of the
// two: an ordinary `7z -mx=9` archive (64 MiB dictionary) of a few MiB of
// packages takes a few MiB, and only a folder that really unpacks to more
// than the cap with a dictionary larger than the cap is refused.
const MaxDictionary = 256 << 20

// The decoders of github.com/bodgit/sevenzip for LZMA, LZMA2, PPMd and
// Zstandard allocate what the header says (up to 4 GiB) and cannot be
// given a cap: they are replaced, for every .7z read in this process, by
// the same decoders (the same libraries) behind the size check.
func init() {
	sevenzip.RegisterDecompressor([]byte{0x03, 0x01, 0x01}, newLZMA)
	sevenzip.RegisterDecompressor([]byte{0x21}, newLZMA2)
	sevenzip.RegisterDecompressor([]byte{0x03, 0x04, 0x01}, newPPMd)
	sevenzip.RegisterDecompressor([]byte{0x04, 0xf7, 0x11, 0x01}, newZstd)
}

// dictError is the error of a coder whose header asks for more memory
// than MaxDictionary.
func dictError(coder string, declared, out uint64) error {
	return fmt.Errorf("the %s coder declares a %d-byte dictionary (%d MiB) for %d bytes of output, over the %d MiB limit: %w",
		coder, declared, declared>>20, out, MaxDictionary>>20, ErrLimit)
}

// solidError is the error of a folder (a solid block) that unpacks to more
// than an archive may: reaching a member in it could mean decoding all of
// it, which no per-member limit counts.
func solidError(out uint64) error {
	return fmt.Errorf("a solid block of %d bytes, over the %d-byte limit of an archive: %w", out, DefaultLimits.MaxTotal, ErrLimit)
}

// usedDict is the dictionary an LZ decoder of out bytes needs when the
// header declares declared: no match reaches further back than the output.
func usedDict(declared, out uint64) uint64 {
	return max(min(declared, out), lzma.MinDictCap)
}

// coder is a decoder with the input it closes.
type coder struct {
	io.Reader
	in io.Closer
}

func (c *coder) Close() error { return c.in.Close() }

func oneReader(name string, readers []io.ReadCloser) error {
	if len(readers) != 1 {
		return fmt.Errorf("%s: %d input streams, want 1", name, len(readers))
	}
	return nil
}

// newLZMA decodes an LZMA coder: its 5 property bytes are the lc/lp/pb
// byte and the dictionary size (uint32, little-endian).
func newLZMA(p []byte, out uint64, readers []io.ReadCloser) (io.ReadCloser, error) {
	if err := oneReader("LZMA", readers); err != nil {
		return nil, err
	}
	if len(p) != 5 {
		return nil, fmt.Errorf("LZMA: %d property bytes, want 5", len(p))
	}
	if out > uint64(DefaultLimits.MaxTotal) {
		return nil, solidError(out)
	}
	declared := uint64(binary.LittleEndian.Uint32(p[1:]))
	dict := usedDict(declared, out)
	if dict > MaxDictionary {
		return nil, dictError("LZMA", declared, out)
	}
	// The .lzma header the reader expects: properties, dictionary, size.
	h := make([]byte, 0, lzma.HeaderLen)
	h = append(h, p[0])
	h = binary.LittleEndian.AppendUint32(h, uint32(dict))
	h = binary.LittleEndian.AppendUint64(h, out)
	r, err := lzma.ReaderConfig{DictCap: MaxDictionary}.NewReader(io.MultiReader(bytes.NewReader(h), readers[0]))
	if err != nil {
		return nil, err
	}
	return &coder{r, readers[0]}, nil
}

// newLZMA2 decodes an LZMA2 coder: its one property byte encodes the
// dictionary size (2 or 3 times a power of two, 7zFormat.txt and
// Lzma2Dec's rule: (2|b&1) << (b/2+11), 40 meaning 4 GiB - 1).
func newLZMA2(p []byte, out uint64, readers []io.ReadCloser) (io.ReadCloser, error) {
	if err := oneReader("LZMA2", readers); err != nil {
		return nil, err
	}
	if len(p) != 1 || p[0] > 40 {
		return nil, fmt.Errorf("LZMA2: bad properties %x", p)
	}
	if out > uint64(DefaultLimits.MaxTotal) {
		return nil, solidError(out)
	}
	declared := uint64(0xFFFFFFFF)
	if p[0] < 40 {
		declared = uint64(2|p[0]&1) << (p[0]/2 + 11)
	}
	dict := usedDict(declared, out)
	if dict > MaxDictionary {
		return nil, dictError("LZMA2", declared, out)
	}
	r, err := lzma.Reader2Config{DictCap: int(dict)}.NewReader2(readers[0])
	if err != nil {
		return nil, err
	}
	return &coder{r, readers[0]}, nil
}

// newPPMd decodes a PPMd (variant H) coder: its 5 property bytes are the
// model order and the model's memory size (uint32, little-endian), which
// the decoder allocates whole.
func newPPMd(p []byte, out uint64, readers []io.ReadCloser) (io.ReadCloser, error) {
	if err := oneReader("PPMd", readers); err != nil {
		return nil, err
	}
	if len(p) != 5 {
		return nil, fmt.Errorf("PPMd: %d property bytes, want 5", len(p))
	}
	if out > uint64(DefaultLimits.MaxTotal) {
		return nil, solidError(out)
	}
	mem := uint64(binary.LittleEndian.Uint32(p[1:]))
	if mem > MaxDictionary {
		return nil, dictError("PPMd", mem, out)
	}
	if out > math.MaxInt {
		return nil, fmt.Errorf("PPMd: %d bytes of output, more than this platform's int", out)
	}
	r, err := ppmd.NewH7zReader(readers[0], int(p[0]), int(mem), int(out))
	if err != nil {
		return nil, err
	}
	return &coder{&r, readers[0]}, nil
}

// newZstd decodes a Zstandard coder (7-Zip's zstd fork), its window capped
// and decoded on the calling goroutine.
func newZstd(_ []byte, out uint64, readers []io.ReadCloser) (io.ReadCloser, error) {
	if err := oneReader("Zstandard", readers); err != nil {
		return nil, err
	}
	if out > uint64(DefaultLimits.MaxTotal) {
		return nil, solidError(out)
	}
	d, err := zstd.NewReader(readers[0], zstd.WithDecoderMaxWindow(MaxDictionary), zstd.WithDecoderMaxMemory(uint64(DefaultLimits.MaxTotal)),
		zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
	if err != nil {
		return nil, err
	}
	return &zstdCoder{d, readers[0]}, nil
}

type zstdCoder struct {
	*zstd.Decoder
	in io.Closer
}

func (c *zstdCoder) Close() error {
	c.Decoder.Close()
	return c.in.Close()
}
