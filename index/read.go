package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/upkdeps/upkdeps/archive"
	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/internal/window"
	"github.com/upkdeps/upkdeps/uz"
)

// pkgInfo is what the index keeps of one package copy.
type pkgInfo struct {
	name, fileName, ext string
	guid                string
	generations         int
	version, licensee   uint16
	flags               uint32
	size                int64
	sha256              string
	compressed          string
	exports             []export
	imports             []string
}

type export struct{ pathLower, class string }

// compressedKind says whether a file name is a redirect download that the
// index decompresses: .uz, .uz2, and a cache's .tmp downloads.
func compressedKind(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".uz", ".uz2", ".tmp":
		return true
	}
	return false
}

// describe reads a package as a stream: its SHA-256 from every byte, its
// header and tables from the bytes a window keeps (see window.Head), so the
// memory does not grow with the package; fileName is the name it is
// installed under.
func describe(ctx context.Context, fileName string, r io.Reader) (*pkgInfo, error) {
	w := window.Get()
	defer window.Put(w) // format.File keeps copies, not the window's bytes
	h := sha256.New()
	if _, err := io.CopyBuffer(io.MultiWriter(h, w), &ctxReader{ctx, r}, make([]byte, 256<<10)); err != nil {
		return nil, err
	}
	f, err := format.NewFile(w, w.Size())
	if errors.Is(err, format.ErrNotPackage) {
		return nil, errNotPackage // a download of something else
	}
	if err != nil {
		return nil, err
	}
	return summarise(fileName, f, w.Size(), hex.EncodeToString(h.Sum(nil))), nil
}

func summarise(fileName string, f *format.File, size int64, sha string) *pkgInfo {
	ext := strings.ToLower(path.Ext(fileName))
	p := &pkgInfo{
		name: strings.TrimSuffix(fileName, path.Ext(fileName)), fileName: fileName, ext: ext,
		version: f.Version, licensee: f.Licensee, flags: uint32(f.Flags),
		generations: len(f.Generations), size: size, sha256: sha,
	}
	if !f.GUID.IsZero() {
		p.guid = f.GUID.String()
	}
	f.PackageName = p.name
	p.imports = f.Dependencies()
	f.PackageName = ""
	for i := range f.Exports {
		ref := format.ExportRef(i)
		class, _ := f.ClassOf(ref)
		p.exports = append(p.exports, export{pathLower: lower(f.ObjectPath(ref)), class: class})
	}
	return p
}

// describeFile reads a package file from disk: header and tables through
// format, the SHA-256 by streaming.
func describeFile(ctx context.Context, file, fileName string) (*pkgInfo, error) {
	f, err := format.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fh, err := fsutil.OpenRegular(file)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	h := sha256.New()
	n, err := io.Copy(h, &ctxReader{ctx, fh})
	if err != nil {
		return nil, err
	}
	return summarise(fileName, f, n, hex.EncodeToString(h.Sum(nil))), nil
}

// decompress returns the decoded stream of a .uz or .uz2 download r (at
// most limit bytes) and the original file name (from a .uz header; from
// name for .uz2), with the kind ("uz" or "uz2"); errNotPackage when r is
// neither.
func decompress(name string, r io.Reader, limit int64) (string, string, io.Reader, error) {
	br := &peekReader{r: r}
	head, err := br.peek(uz.DetectSize)
	if err != nil {
		return "", "", nil, err
	}
	switch uz.Detect(head) {
	case uz.KindUZ:
		zr, err := uz.NewReader(br, limit)
		if err != nil {
			return "", "", nil, err
		}
		return zr.Header.Name, "uz", zr, nil
	case uz.KindUZ2:
		orig := path.Base(strings.ReplaceAll(name, `\`, "/"))
		if !strings.EqualFold(path.Ext(orig), ".uz2") {
			return "", "", nil, fmt.Errorf("a .uz2 stream in %s: the original name is unknown", orig)
		}
		return strings.TrimSuffix(orig, path.Ext(orig)), "uz2", uz.NewReader2(br, limit), nil
	}
	return "", "", nil, errNotPackage
}

var errNotPackage = errors.New("not a package")

// peekReader lets the first bytes of a stream be looked at and then read.
type peekReader struct {
	r    io.Reader
	head []byte
}

func (p *peekReader) peek(n int) ([]byte, error) {
	buf := make([]byte, n)
	m, err := io.ReadFull(p.r, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	p.head = buf[:m]
	return p.head, nil
}

func (p *peekReader) Read(b []byte) (int, error) {
	if len(p.head) > 0 {
		n := copy(b, p.head)
		p.head = p.head[n:]
		return n, nil
	}
	return p.r.Read(b)
}

// describeMember reads an archive member that may be a package or a
// redirect download; errNotPackage when it is neither.
func describeMember(ctx context.Context, m *archive.Member, limit int64) (*pkgInfo, error) {
	rc, err := m.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	base := path.Base(m.Name)
	br := &peekReader{r: rc}
	head, err := br.peek(4)
	if err != nil {
		return nil, err
	}
	if format.HasTag(head) {
		return describe(ctx, base, br)
	}
	if !compressedKind(base) {
		return nil, errNotPackage
	}
	orig, kind, zr, err := decompress(base, br, limit)
	if err != nil {
		return nil, err
	}
	p, err := describe(ctx, orig, zr)
	if err != nil {
		return nil, err
	}
	p.compressed = kind
	return p, nil
}
