package redirect

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/dirlock"
	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/uz"
)

// Status is what a file operation did (or, in a dry run, would do) to its
// output file.
type Status string

// Statuses of a FileResult.
const (
	Created   Status = "created"   // the output did not exist
	Replaced  Status = "replaced"  // the output existed with other content (forced)
	Unchanged Status = "unchanged" // the output already held exactly these bytes
)

// FileResult describes one compressed or decompressed file.
type FileResult struct {
	Src, Dst string  // input and output paths
	Kind     uz.Kind // the compressed format
	Status   Status
	DryRun   bool  // nothing was written: Status is what a real run would do
	Size     int64 // bytes of the original (uncompressed) file
	// CompressedSize is the bytes of the compressed file.
	CompressedSize int64
	// SHA256 and CompressedSHA256 are hex digests of the original and of
	// the compressed file.
	SHA256, CompressedSHA256 string
	Name                     string   // .uz: the original file name stored in it
	Signature                int32    // .uz: its signature
	Warnings                 []string // problems that did not stop the operation
}

// ErrBigger is matched (errors.Is) by a *BiggerError.
var ErrBigger = errors.New("redirect: .uz file larger than its source")

// BiggerError reports a .uz that would be larger than the file it
// compresses: clients before UT v469 crash on such a download.
type BiggerError struct {
	Dst              string
	Size, Compressed int64
}

func (e *BiggerError) Error() string {
	return fmt.Sprintf("redirect: %s would be %d bytes, larger than its source (%d bytes): clients before UT v469 crash on such a file; not written",
		e.Dst, e.Compressed, e.Size)
}

// Is makes errors.Is(err, ErrBigger) true.
func (e *BiggerError) Is(target error) bool { return target == ErrBigger }

// ExistsError reports a file that is there already and differs, which a
// write does not replace unless forced (Options.Force); errors.Is(err,
// ErrExists) is true.
type ExistsError = fsutil.ExistsError

// ErrExists is matched (errors.Is) by an *ExistsError.
var ErrExists = fsutil.ErrExists

// LockedError reports that another process holds the output folder's lock
// (Build); errors.Is(err, ErrLocked) is true. It is cache.LockedError.
type LockedError = dirlock.LockedError

// ErrLocked is matched (errors.Is) by a *LockedError.
var ErrLocked = dirlock.ErrLocked

// errUnchanged aborts an atomic write whose result equals the existing file.
var errUnchanged = errors.New("unchanged")

// publish makes dst hold what fill writes: into a temporary file beside dst
// (in the system's temporary folder for a dry run, which then removes it),
// compared with an existing dst, renamed over it unless it is the same or
// force is unset (then *ExistsError). fill writes through f and may
// read it back to check it; its error is returned as it is, nothing
// published.
func publish(dst string, dryRun, force bool, fill func(f *os.File) error) (Status, error) {
	status := Created
	if st, err := os.Stat(dst); err == nil {
		if !st.Mode().IsRegular() {
			return "", fmt.Errorf("redirect: %s exists and is not a regular file", dst)
		}
		status = Replaced
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("redirect: %w", err)
	}
	check := func(f *os.File) error {
		if err := fill(f); err != nil {
			return err
		}
		if status != Replaced {
			return nil
		}
		same, err := fsutil.SameContent(f.Name(), dst)
		switch {
		case err != nil:
			return fmt.Errorf("redirect: %w", err)
		case same:
			return errUnchanged
		case !force:
			return &fsutil.ExistsError{Path: dst}
		}
		return nil
	}
	var err error
	if dryRun {
		err = withTemp(check)
	} else {
		err = fsutil.WriteAtomicFunc(dst, 0o644, check)
	}
	if errors.Is(err, errUnchanged) {
		return Unchanged, nil
	}
	if err != nil {
		return "", err
	}
	return status, nil
}

// withTemp calls fn with a new temporary file in the system's temporary
// folder and removes the file afterwards.
func withTemp(fn func(f *os.File) error) error {
	f, err := os.CreateTemp("", "upkdeps-redirect-*.tmp")
	if err != nil {
		return fmt.Errorf("redirect: %w", err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	return fn(f)
}

// counter counts and hashes the bytes written through it.
type counter struct {
	n int64
	h hash.Hash
}

func newCounter() *counter { return &counter{h: sha256.New()} }

func (c *counter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.h.Write(p)
}

func (c *counter) sum() string { return hex.EncodeToString(c.h.Sum(nil)) }

// CompressOptions configure CompressFile.
type CompressOptions struct {
	// Kind is the format to write; uz.KindUnknown chooses it from the
	// package's version (KindFor), which needs src to be a package.
	Kind uz.Kind
	// Signature of a .uz: uz.Sig1234 (also when 0), readable by every UE1
	// client, or uz.Sig5678, readable only by UT v469 and later.
	Signature int32
	// Workers is the number of goroutines the encoder uses (0: one per
	// core): a .uz2's chunks, or a .uz's BWT blocks, are compressed in
	// parallel. The output does not depend on it.
	Workers     int
	AllowBigger bool // publish a .uz even when it is larger than its source
	Force       bool // replace an existing dst that holds other bytes
	DryRun      bool // compress into a temporary file only: report what a real run would do
}

// CompressFile compresses the file src to dst atomically, recording src's
// base name as the original file name of a .uz. It refuses (ErrBigger) to
// write a .uz larger than src unless opt.AllowBigger, and (fsutil.ErrExists)
// to replace a different dst unless opt.Force; an identical dst is left
// alone (Unchanged). On any error dst is untouched and no temporary file
// remains.
func CompressFile(ctx context.Context, src, dst string, opt CompressOptions) (*FileResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	kind := opt.Kind
	if kind == uz.KindUnknown {
		pkg, err := format.Open(src)
		if err != nil {
			return nil, fmt.Errorf("redirect: %s: the format follows the package's engine, but %w", src, err)
		}
		kind = uz.KindFor(pkg.Version)
		pkg.Close()
	}
	sig := opt.Signature
	if sig == 0 {
		sig = uz.Sig1234
	}
	res := &FileResult{Src: src, Dst: dst, Kind: kind, DryRun: opt.DryRun}
	if kind == uz.KindUZ {
		res.Name, res.Signature = filepath.Base(src), sig
	}
	in, err := fsutil.OpenRegular(src)
	if err != nil {
		return nil, fmt.Errorf("redirect: %w", err)
	}
	defer in.Close()
	status, err := publish(dst, opt.DryRun, opt.Force, func(f *os.File) error {
		if _, err := in.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("redirect: %w", err)
		}
		orig, packed := newCounter(), newCounter()
		bw := bufio.NewWriterSize(io.MultiWriter(f, packed), 64<<10)
		err := compress(bw, io.TeeReader(bufio.NewReaderSize(in, 64<<10), orig), kind, res.Name, sig, opt.Workers)
		if err == nil {
			err = bw.Flush()
		}
		if err != nil {
			return fmt.Errorf("redirect: compress %s: %w", src, err)
		}
		res.Size, res.SHA256 = orig.n, orig.sum()
		res.CompressedSize, res.CompressedSHA256 = packed.n, packed.sum()
		if kind == uz.KindUZ && packed.n > orig.n && !opt.AllowBigger {
			return &BiggerError{Dst: dst, Size: orig.n, Compressed: packed.n}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.Status = status
	return res, nil
}

// DecompressOptions configure DecompressFile.
type DecompressOptions struct {
	Limit int64 // output cap in bytes (uz.DefaultLimit when <= 0)
	// Workers is the number of goroutines the decoder uses besides the
	// caller's (0: one per core; 1: none): a .uz's blocks are read ahead
	// and their inverse BWT runs in parallel, a .uz2's chunks are inflated
	// in parallel. The output and the errors do not depend on it.
	Workers int
	Force   bool // replace an existing output that holds other bytes
	DryRun  bool // decompress into a temporary file only: report what a real run would do
}

// DecompressFile decompresses src (.uz or .uz2, told by its first bytes)
// into the folder dir. The output is named after the original file name a
// .uz records when fsutil.SafeFileName accepts it, else after src's base
// name minus .uz/.uz2. It is published only when the whole stream decoded
// cleanly and, if it is a package, its header and tables lie within it (a
// .uz2 cut at a chunk border is caught this way): corrupt input yields an
// error naming src and the byte offset, and no output. A non-canonical .uz
// (not written by the engine's encoder) is decompressed with a warning.
func DecompressFile(ctx context.Context, src, dir string, opt DecompressOptions) (*FileResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	in, err := fsutil.OpenRegular(src)
	if err != nil {
		return nil, fmt.Errorf("redirect: %w", err)
	}
	defer in.Close()
	packed := newCounter()
	br := bufio.NewReaderSize(io.TeeReader(in, packed), 64<<10)
	base, hint := uz.TrimExt(filepath.Base(src))
	s, err := openStream(br, hint, opt.Limit, opt.Workers)
	if err != nil {
		return nil, fmt.Errorf("redirect: %s: %w", src, err)
	}
	defer s.close()
	res := &FileResult{Src: src, Kind: s.kind, DryRun: opt.DryRun}
	name, warning := outputName(s, base)
	if warning != "" {
		res.Warnings = append(res.Warnings, warning)
	}
	if s.kind == uz.KindUZ {
		res.Name, res.Signature = s.header.Name, s.header.Signature
	}
	dst := filepath.Join(dir, name)
	res.Dst = dst
	if sameFile(src, dst) {
		return nil, fmt.Errorf("redirect: %s: the output would replace the input (no .uz/.uz2 extension to remove and no usable original name): choose another output folder", src)
	}
	status, err := publish(dst, opt.DryRun, opt.Force, func(f *os.File) error {
		orig := newCounter()
		n, nonCanonical, err := copyStream(io.MultiWriter(f, orig), s)
		if err != nil {
			return fmt.Errorf("redirect: %s: %w", src, err)
		}
		if n == 0 && s.kind == uz.KindUZ2 {
			// Zero chunks: valid only for an empty original, which no
			// package is; what a failed download leaves.
			return fmt.Errorf("redirect: %s: offset 0: empty .uz2 (no chunks)", src)
		}
		if nonCanonical {
			res.Warnings = append(res.Warnings, "its Huffman tree is not the one the engine builds: not written by the engine's encoder (decompressed anyway)")
		}
		res.Size, res.SHA256 = n, orig.sum()
		res.CompressedSize, res.CompressedSHA256 = packed.n, packed.sum()
		return checkOutput(f, n, packed.n, src, s.kind, &res.Warnings)
	})
	if err != nil {
		return nil, err
	}
	res.Status = status
	return res, nil
}

// OutputName returns the file name DecompressFile gives the output of src,
// reading only its header, and a warning when the name a .uz records is
// not used.
func OutputName(src string) (name, warning string, err error) {
	in, err := fsutil.OpenRegular(src)
	if err != nil {
		return "", "", fmt.Errorf("redirect: %w", err)
	}
	defer in.Close()
	base, hint := uz.TrimExt(filepath.Base(src))
	s, err := openStream(bufio.NewReader(in), hint, 0, 1)
	if err != nil {
		return "", "", fmt.Errorf("redirect: %s: %w", src, err)
	}
	defer s.close()
	name, warning = outputName(s, base)
	return name, warning, nil
}

// outputName chooses the output name of stream s whose file is named base
// (minus .uz/.uz2): the original name a .uz records when it is a plain
// file name, else base.
func outputName(s *stream, base string) (name, warning string) {
	if s.kind != uz.KindUZ {
		return base, ""
	}
	if err := fsutil.SafeFileName(s.header.Name); err != nil {
		return base, fmt.Sprintf("the original name stored in it, %q, is not a plain file name (%v): named after the input instead", s.header.Name, err)
	}
	return s.header.Name, ""
}

// checkOutput checks decompressed data that claims to be a package. A .uz
// carries its own end marker, so a package that does not parse there is
// the original's fault (a warning); a .uz2 cut at a chunk border decodes as
// a shorter valid stream, so there an incomplete package is an error.
func checkOutput(f *os.File, n, end int64, src string, kind uz.Kind, warnings *[]string) error {
	_, err := checkPackage(f, n)
	var fe *format.FormatError
	var ue *format.UnsupportedError
	switch {
	case err == nil:
		return nil
	case kind == uz.KindUZ2 && errors.As(err, &fe):
		return fmt.Errorf("redirect: %s: offset %d: the stream ends after %d decompressed bytes, which are not a whole package (cut at a chunk border?): %w", src, end, n, err)
	case errors.Is(err, format.ErrNotPackage) && kind == uz.KindUZ:
		return nil // a .uz of some other file: its stream is self-checking
	case errors.Is(err, format.ErrNotPackage), errors.As(err, &ue):
		*warnings = append(*warnings, fmt.Sprintf("the output is not a package this tool reads (%v): whether it is complete cannot be checked", err))
	case errors.As(err, &fe):
		*warnings = append(*warnings, fmt.Sprintf("the output is a damaged package (%v): it was compressed that way", err))
	default:
		return fmt.Errorf("redirect: %s: %w", src, err)
	}
	return nil
}

// sameFile reports whether a and b name the same existing file, or the
// same path.
func sameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
