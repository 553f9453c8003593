package archive

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// UMOD layout (Unreal Wiki, "Legacy:UMOD/File Format"): the files' bytes
// stored one after the other, then the file directory, then a 20-byte
// trailer at the very end: magic 0x9FE3C5A3, the directory's offset, the
// file's total size, the format version and a CRC-32, each a little-endian
// uint32. The directory is a compact-index count followed by, per file, a
// compact-index name length (with the terminating NUL), the name, and the
// file's offset, length and flags as uint32.
const (
	umodMagic       = 0x9FE3C5A3
	umodTrailerSize = 20
	umodMinEntry    = 1 + 1 + 12 // empty name + NUL, three uint32
	umodMaxName     = 1024
	// umodMaxDir caps the directory read into memory: 64 MiB holds 60,000
	// entries with 1 KiB names, far more than MaxMembers.
	umodMaxDir = 64 << 20
)

// UMODFile is one file of a UMOD directory.
type UMODFile struct {
	Name           string
	Offset, Length uint32
	Flags          uint32
}

// ReadUMODDirectory reads the directory of a UMOD installer, checking every
// count, length and offset against the file's size.
func ReadUMODDirectory(r io.ReaderAt, size int64) ([]UMODFile, error) {
	return readUMODDirectory(r, size, 0)
}

// readUMODDirectory is ReadUMODDirectory that refuses, before it reads a
// single entry, a directory that claims more than maxFiles files (0: no
// limit), with an error wrapping ErrLimit.
func readUMODDirectory(r io.ReaderAt, size int64, maxFiles int) ([]UMODFile, error) {
	if size < umodTrailerSize {
		return nil, fmt.Errorf("umod: %d bytes is too short for the trailer", size)
	}
	var t [umodTrailerSize]byte
	if _, err := r.ReadAt(t[:], size-umodTrailerSize); err != nil {
		return nil, fmt.Errorf("umod: reading the trailer: %w", err)
	}
	le := binary.LittleEndian
	if le.Uint32(t[0:]) != umodMagic {
		return nil, fmt.Errorf("umod: no UMOD trailer at offset %d (magic %#x)", size-umodTrailerSize, le.Uint32(t[0:]))
	}
	dirOff, total := int64(le.Uint32(t[4:])), int64(le.Uint32(t[8:]))
	if total != size {
		return nil, fmt.Errorf("umod: the trailer says %d bytes, the file has %d", total, size)
	}
	dirEnd := size - umodTrailerSize
	if dirOff > dirEnd {
		return nil, fmt.Errorf("umod: directory offset %d is past the trailer at %d", dirOff, dirEnd)
	}
	if dirEnd-dirOff > umodMaxDir {
		return nil, fmt.Errorf("umod: the directory at %d is %d bytes, over the %d-byte limit", dirOff, dirEnd-dirOff, umodMaxDir)
	}
	dir := make([]byte, dirEnd-dirOff)
	if _, err := r.ReadAt(dir, dirOff); err != nil {
		return nil, fmt.Errorf("umod: reading the directory at %d: %w", dirOff, err)
	}
	d := &umodDecoder{b: dir, base: dirOff}
	count := d.index()
	if d.err == nil && (count < 0 || int64(count) > int64(len(dir))/umodMinEntry) {
		d.fail(fmt.Sprintf("file count %d does not fit the %d-byte directory", count, len(dir)))
	}
	if d.err == nil && maxFiles > 0 && int64(count) > int64(maxFiles) {
		return nil, fmt.Errorf("umod: the directory claims %d files, more than %d: %w", count, maxFiles, ErrLimit)
	}
	var out []UMODFile
	for i := 0; i < int(count) && d.err == nil; i++ {
		at := d.off()
		n := d.index()
		if d.err != nil {
			break
		}
		if n <= 0 || n > umodMaxName {
			d.failAt(at, fmt.Sprintf("file %d: name length %d", i, n))
			break
		}
		name := d.bytes(int(n))
		f := UMODFile{Offset: d.u32(), Length: d.u32(), Flags: d.u32()}
		if d.err != nil {
			break
		}
		if name[len(name)-1] != 0 {
			d.failAt(at, fmt.Sprintf("file %d: name is not NUL-terminated", i))
			break
		}
		f.Name = string(name[:len(name)-1])
		if int64(f.Offset)+int64(f.Length) > dirOff {
			d.failAt(at, fmt.Sprintf("file %d (%q): bytes %d+%d run past the directory at %d", i, f.Name, f.Offset, f.Length, dirOff))
			break
		}
		out = append(out, f)
	}
	if d.err != nil {
		return nil, d.err
	}
	return out, nil
}

type umodDecoder struct {
	b    []byte
	p    int
	base int64
	err  error
}

func (d *umodDecoder) off() int64 { return d.base + int64(d.p) }

func (d *umodDecoder) failAt(off int64, msg string) {
	if d.err == nil {
		d.err = fmt.Errorf("umod: offset %d: %s", off, msg)
	}
}

func (d *umodDecoder) fail(msg string) { d.failAt(d.off(), msg) }

func (d *umodDecoder) bytes(n int) []byte {
	if d.err != nil || n > len(d.b)-d.p {
		d.fail("truncated directory")
		return make([]byte, max(n, 1))
	}
	s := d.b[d.p : d.p+n]
	d.p += n
	return s
}

func (d *umodDecoder) u32() uint32 { return binary.LittleEndian.Uint32(d.bytes(4)) }

// index reads an Unreal compact index (at most 5 bytes).
func (d *umodDecoder) index() int32 {
	var v uint32
	b0 := d.bytes(1)[0]
	v = uint32(b0 & 0x3f)
	if b0&0x40 != 0 {
		shift := 6
		for i := 0; i < 4; i++ {
			b := d.bytes(1)[0]
			v |= uint32(b&0x7f) << shift
			shift += 7
			if b&0x80 == 0 {
				break
			}
			if i == 3 {
				d.fail("compact index longer than 5 bytes")
			}
		}
	}
	if b0&0x80 != 0 {
		return -int32(v)
	}
	return int32(v)
}

func (w *walker) listUMOD(r io.ReaderAt, size int64, yield func(entry) error) error {
	files, err := readUMODDirectory(r, size, max(w.lim.MaxMembers-w.members, 1))
	if err != nil {
		return err
	}
	if len(files) > w.lim.MaxMembers {
		return &Error{w.path, "", fmt.Errorf("%d members, more than %d: %w", len(files), w.lim.MaxMembers, ErrLimit)}
	}
	for _, f := range files {
		e := entry{name: f.Name, size: int64(f.Length),
			open: func() (io.ReadCloser, error) {
				return io.NopCloser(io.NewSectionReader(r, int64(f.Offset), int64(f.Length))), nil
			}}
		if err := yield(e); err != nil {
			return err
		}
	}
	return nil
}

// UMODWriter writes a UMOD installer: Add each file, then Close. Tests and
// tools use it to make installers; the engine's own installer reads them.
type UMODWriter struct {
	w     io.Writer
	off   uint32
	files []UMODFile
	err   error
}

// NewUMODWriter returns a writer that writes a UMOD to w.
func NewUMODWriter(w io.Writer) *UMODWriter { return &UMODWriter{w: w} }

// Add stores a file under name (backslashes, as the engine writes them, or
// slashes).
func (u *UMODWriter) Add(name string, data []byte) error {
	if u.err != nil {
		return u.err
	}
	if int64(u.off)+int64(len(data)) > 1<<32-1 {
		u.err = errors.New("umod: over 4 GiB")
		return u.err
	}
	if _, err := u.w.Write(data); err != nil {
		u.err = err
		return err
	}
	u.files = append(u.files, UMODFile{Name: name, Offset: u.off, Length: uint32(len(data))})
	u.off += uint32(len(data))
	return nil
}

// Close writes the directory and the trailer.
func (u *UMODWriter) Close() error {
	if u.err != nil {
		return u.err
	}
	var dir []byte
	dir = appendIndex(dir, int32(len(u.files)))
	le := binary.LittleEndian
	for _, f := range u.files {
		dir = appendIndex(dir, int32(len(f.Name)+1))
		dir = append(dir, f.Name...)
		dir = append(dir, 0)
		dir = le.AppendUint32(dir, f.Offset)
		dir = le.AppendUint32(dir, f.Length)
		dir = le.AppendUint32(dir, f.Flags)
	}
	total := uint32(int64(u.off) + int64(len(dir)) + umodTrailerSize)
	t := le.AppendUint32(nil, umodMagic)
	t = le.AppendUint32(t, u.off)
	t = le.AppendUint32(t, total)
	t = le.AppendUint32(t, 1)
	t = le.AppendUint32(t, 0) // the CRC is not checked by readers
	_, err := u.w.Write(append(dir, t...))
	return err
}

func appendIndex(b []byte, v int32) []byte {
	var sign byte
	u := uint32(v)
	if v < 0 {
		sign, u = 0x80, uint32(-v)
	}
	first := sign | byte(u&0x3f)
	u >>= 6
	if u == 0 {
		return append(b, first)
	}
	b = append(b, first|0x40)
	for {
		c := byte(u & 0x7f)
		u >>= 7
		if u == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
