package index

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"

	"github.com/upkdeps/upkdeps/archive"
	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// ErrChanged is wrapped by the error of CopyTo when the bytes of a copy are
// not those indexed (its SHA-256 or size differs).
var ErrChanged = errors.New("content changed since it was indexed")

// ErrGone is wrapped by the error of CopyTo when the file or archive member
// of a copy is not there any more.
var ErrGone = errors.New("gone since it was indexed")

// errFound stops an archive walk once the member is read.
var errFound = errors.New("found")

// copyBuf is the buffer CopyTo streams through: what one copy holds in
// memory, besides a redirect download's decoder.
const copyBuf = 256 << 10

// CopyTo writes the bytes of the indexed copy p to w — the file, or the
// archive member, decompressed when it is a redirect download — as a stream
// (memory bounded by a 256 KiB buffer and the decoder's, whatever the size),
// and returns their SHA-256 in hex. When the index recorded a SHA-256 and it
// differs, the error wraps ErrChanged (w then has the new bytes: write to a
// temporary file); a file or member that is not there any more wraps
// ErrGone. Both errors name the copy and the source to add again. ctx is
// checked between reads: a cancelled copy returns ctx.Err() at once. lim
// bounds archive reads (zero fields: archive.DefaultLimits); a plain file is
// bounded by its indexed size only.
func CopyTo(ctx context.Context, w io.Writer, p *Package, lim archive.Limits) (string, error) {
	if !p.HasBytes || p.Path == "" {
		return "", fmt.Errorf("%s: the index only describes this copy (no file to copy from)", p.FileName)
	}
	maxSize := lim.MaxMemberSize
	if maxSize <= 0 {
		maxSize = archive.DefaultLimits.MaxMemberSize
	}
	h := sha256.New()
	var n int64
	stream := func(r io.Reader) error {
		if p.Compressed != "" {
			zr, err := uncompressed(p.FileName+"."+p.Compressed, r, max(maxSize, p.Size))
			if err != nil {
				return err
			}
			r = zr
		}
		var err error
		n, err = io.CopyBuffer(io.MultiWriter(w, h), &ctxReader{ctx, r}, make([]byte, copyBuf))
		return err
	}
	if p.Member == "" {
		f, err := fsutil.OpenRegular(p.Path)
		if errors.Is(err, fs.ErrNotExist) {
			return "", p.gone("the file is", err)
		}
		if err != nil {
			return "", err
		}
		defer f.Close()
		if err := stream(f); err != nil {
			return "", p.wrap(err)
		}
	} else {
		err := archive.Walk(ctx, p.Path, lim, func(m *archive.Member) error {
			if m.Path() != p.Member {
				return nil
			}
			rc, err := m.Open()
			if err != nil {
				return err
			}
			defer rc.Close()
			if err := stream(rc); err != nil {
				return err
			}
			return errFound
		})
		switch {
		case err == nil:
			return "", p.gone("the member is", fmt.Errorf("no member %s any more", p.Member))
		case errors.Is(err, fs.ErrNotExist):
			return "", p.gone("the archive is", err)
		case err != errFound:
			return "", p.wrap(err)
		}
	}
	sum := hex.EncodeToString(h.Sum(nil))
	if (p.SHA256 != "" && sum != p.SHA256) || (p.Size > 0 && n != p.Size) {
		return sum, fmt.Errorf("%s: %w (SHA-256 differs, though its size and time may be the same): run upkdeps index add %s again",
			p.Where(), ErrChanged, p.Source)
	}
	return sum, nil
}

func (p *Package) gone(what string, err error) error {
	return fmt.Errorf("%s: %s %w (%v): run upkdeps index add %s again", p.Where(), what, ErrGone, err, p.Source)
}

func (p *Package) wrap(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("%s: %w", p.Where(), err)
}

// ctxReader fails with the context's error once it is cancelled.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(b)
}

// uncompressed returns the decoded stream of a .uz or .uz2 download.
func uncompressed(name string, r io.Reader, limit int64) (io.Reader, error) {
	_, _, zr, err := decompress(name, r, limit)
	if errors.Is(err, errNotPackage) {
		return nil, fmt.Errorf("%s is not a .uz or .uz2 download any more", path.Base(name))
	}
	return zr, err
}

// ReadPackage returns the bytes of an indexed copy in memory: CopyTo into a
// buffer, for a caller that needs them whole (fix streams with CopyTo).
func ReadPackage(p *Package, lim archive.Limits) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := CopyTo(context.Background(), &buf, p, lim); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ForgetContent makes the next Add of p's source read p's file (or its
// archive and member) again, whatever its size and time: fix calls it when
// the bytes differ from the index, as after a copy that kept size and
// modification time (cp -p, rsync -t), which Add would otherwise skip.
func (d *DB) ForgetContent(ctx context.Context, p *Package) error {
	return d.named(d.forgetContent(ctx, p))
}

// forgetContent is ForgetContent without the database named in its errors.
func (d *DB) forgetContent(ctx context.Context, p *Package) error {
	_, err := d.db.ExecContext(ctx, `UPDATE files SET mtime = -1, crc32 = 0
		WHERE id = (SELECT file_id FROM packages WHERE id = ?1)
		   OR (member = '' AND path = ?2 AND source_id = (SELECT source_id FROM packages WHERE id = ?1))`, p.ID, p.Path)
	if err != nil {
		return fmt.Errorf("index: %s: %w", d.path, err)
	}
	return nil
}
