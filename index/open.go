package index

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/upkdeps/upkdeps/archive"
	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// errFound stops an archive walk once the member is read.
var errFound = errors.New("found")

// ReadPackage returns the bytes of an indexed copy: the file, or the
// archive member, decompressed when it is a redirect download. It checks
// them against the SHA-256 the index recorded, so a source that changed
// since it was indexed is an error rather than a wrong copy. lim bounds
// archive reads (zero fields: archive.DefaultLimits).
func ReadPackage(p *Package, lim archive.Limits) ([]byte, error) {
	if !p.HasBytes || p.Path == "" {
		return nil, fmt.Errorf("%s: the index only describes this copy (no file to copy from)", p.FileName)
	}
	maxSize := lim.MaxMemberSize
	if maxSize <= 0 {
		maxSize = archive.DefaultLimits.MaxMemberSize
	}
	var raw io.Reader
	var data []byte
	if p.Member == "" {
		f, err := fsutil.OpenRegular(p.Path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		raw = io.LimitReader(f, maxSize+1)
	} else {
		err := archive.Walk(p.Path, lim, func(m *archive.Member) error {
			if m.Path() != p.Member {
				return nil
			}
			b, err := m.ReadAll()
			if err != nil {
				return err
			}
			data = b
			return errFound
		})
		if err != errFound {
			if err == nil {
				err = fmt.Errorf("no member %s any more", p.Member)
			}
			return nil, fmt.Errorf("%s: %w", p.Where(), err)
		}
		raw = bytes.NewReader(data)
	}
	if p.Compressed != "" {
		_, _, out, err := decompress(p.FileName+"."+p.Compressed, raw, maxSize)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.Where(), err)
		}
		data = out
	} else if p.Member == "" {
		var buf bytes.Buffer
		if _, err := buf.ReadFrom(raw); err != nil {
			return nil, fmt.Errorf("%s: %w", p.Where(), err)
		}
		data = buf.Bytes()
	}
	sum := sha256.Sum256(data)
	if p.SHA256 != "" && hex.EncodeToString(sum[:]) != p.SHA256 {
		return nil, fmt.Errorf("%s: its content changed since it was indexed (SHA-256 differs): run index add again", p.Where())
	}
	return data, nil
}
