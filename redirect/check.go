package redirect

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/uz"
)

// note is a warning about a file that is otherwise right.
type note struct {
	kind FindingKind
	msg  string
}

// fileCheck is what decompressing a redirect file and comparing it with
// the server's copy found.
type fileCheck struct {
	problem FindingKind // "" when the file decompresses to the server's copy
	message string
	notes   []note
	// Filled when problem is "": digests for the manifest.
	sha256, compressedSHA256 string
	compressedSize           int64
}

// checkFile decompresses the redirect file path and compares the result
// with e's server copy, byte for byte. Output is capped just above the
// expected size. Only when they differ is the file decompressed a second
// time, into a temporary file, to tell an older version from a corruption.
func checkFile(path string, e Entry) fileCheck {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return fileCheck{problem: Corrupt, message: fmt.Sprintf("cannot be read: %v", err)}
	}
	defer f.Close()
	var c fileCheck
	if st, err := f.Stat(); err == nil {
		c.compressedSize = st.Size()
	}
	packed := newCounter()
	br := bufio.NewReaderSize(io.TeeReader(f, packed), 64<<10)
	// Files are checked in parallel: one goroutine each.
	s, err := openStream(br, e.Kind, e.Size+1, 1)
	if err != nil {
		return fileCheck{problem: Corrupt, message: "does not decompress: " + err.Error()}
	}
	defer s.close()
	if s.kind != e.Kind {
		return fileCheck{problem: WrongFormat, message: fmt.Sprintf("holds %s data, but clients of %s (package version %d) read %s files only",
			s.kind.Ext(), e.Name, e.Version, e.Kind.Ext())}
	}
	if s.kind == uz.KindUZ {
		if s.header.Signature == uz.Sig5678 {
			c.notes = append(c.notes, note{NewSignature, "has .uz signature 5678, which only UT v469 and later clients read; older clients fail to download it"})
		}
		if !strings.EqualFold(s.header.Name, e.Base) {
			c.notes = append(c.notes, note{NameMismatch, fmt.Sprintf("records the original name %q, not %q", s.header.Name, e.Base)})
		}
	}
	if s.kind == uz.KindUZ && c.compressedSize > e.Size {
		c.notes = append(c.notes, note{BiggerThanSrc, fmt.Sprintf("is %d bytes, larger than the package (%d bytes): clients before UT v469 crash on it", c.compressedSize, e.Size)})
	}
	server, err := fsutil.OpenRegular(e.File)
	if err != nil {
		return fileCheck{problem: Corrupt, message: fmt.Sprintf("cannot be compared: %v", err)}
	}
	defer server.Close()
	cmp := &comparer{r: bufio.NewReaderSize(server, 64<<10), diff: -1}
	orig := newCounter()
	n, nonCanonical, err := copyStream(io.MultiWriter(cmp, orig), s)
	if nonCanonical {
		c.notes = append(c.notes, note{NonCanonical, "has a Huffman tree other than the one the engine builds: made by another encoder (clients read it)"})
	}
	if err != nil && !errors.Is(err, uz.ErrLimit) {
		return fileCheck{problem: Corrupt, message: "does not decompress: " + err.Error(), notes: c.notes}
	}
	if err == nil && cmp.diff < 0 && n == e.Size && cmp.atEOF() {
		c.sha256, c.compressedSHA256 = orig.sum(), packed.sum()
		return c
	}
	diff := cmp.diff
	if diff < 0 {
		diff = min(n, e.Size)
	}
	c.problem, c.message = identify(path, e, diff)
	// A damaged tree is non-canonical too: the error says enough.
	c.notes = slices.DeleteFunc(c.notes, func(n note) bool { return n.kind == NonCanonical })
	return c
}

// identify decompresses path (which differs from e's copy, first at byte
// diff) into a temporary file and tells what it holds.
func identify(path string, e Entry, diff int64) (FindingKind, string) {
	var kind FindingKind
	var msg string
	err := withTemp(func(tmp *os.File) error {
		f, err := fsutil.OpenRegular(path)
		if err != nil {
			return err
		}
		defer f.Close()
		s, err := openStream(bufio.NewReaderSize(f, 64<<10), e.Kind, 0, 1)
		if err != nil {
			return err
		}
		defer s.close()
		n, _, err := copyStream(tmp, s)
		if err != nil {
			return err
		}
		pkg, err := checkPackage(tmp, n)
		switch {
		case err != nil:
			kind, msg = Corrupt, fmt.Sprintf("decompresses to %d bytes that are not a whole package (%v); the server's copy has %d bytes", n, err, e.Size)
		case pkg.GUID.String() != e.GUID:
			kind, msg = Outdated, fmt.Sprintf("holds another version: GUID %s, %d bytes; the server's copy is GUID %s, %d bytes", pkg.GUID, n, e.GUID, e.Size)
		case n != e.Size:
			kind, msg = Outdated, fmt.Sprintf("holds another build of the same GUID: %d bytes; the server's copy has %d bytes", n, e.Size)
		default:
			kind, msg = Corrupt, fmt.Sprintf("decompresses to bytes that differ from the server's copy from offset %d on, although GUID and size agree", diff)
		}
		return nil
	})
	if err != nil {
		return Corrupt, "does not decompress: " + err.Error()
	}
	return kind, msg
}

// comparer compares what is written to it with r, keeping the offset of
// the first difference.
type comparer struct {
	r    *bufio.Reader
	n    int64 // bytes compared
	diff int64 // first differing offset, -1 while equal
	buf  []byte
}

func (c *comparer) Write(p []byte) (int, error) {
	if c.diff < 0 {
		if cap(c.buf) < len(p) {
			c.buf = make([]byte, len(p))
		}
		b := c.buf[:len(p)]
		m, _ := io.ReadFull(c.r, b)
		for i := range m {
			if b[i] != p[i] {
				c.diff = c.n + int64(i)
				break
			}
		}
		if c.diff < 0 && m < len(p) {
			c.diff = c.n + int64(m)
		}
	}
	c.n += int64(len(p))
	return len(p), nil
}

// atEOF reports whether everything of r was compared.
func (c *comparer) atEOF() bool {
	_, err := c.r.Peek(1)
	return err == io.EOF
}

// headerMatches reports whether the redirect file path looks like what
// Build writes for e, without decoding it: the format its first bytes show
// and, for a .uz, signature 1234 and e's file name.
func headerMatches(path string, e Entry) bool {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	br := bufio.NewReader(f)
	head, _ := br.Peek(uz.DetectSize)
	if uz.Detect(head) != e.Kind {
		return false
	}
	if e.Kind != uz.KindUZ {
		return true
	}
	zr, err := uz.NewReader(br, 0) // reads the header and the Huffman tree only
	return err == nil && zr.Header.Signature == uz.Sig1234 && zr.Header.Name == e.Base
}
