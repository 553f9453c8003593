package unrealarchive

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// VerifyStatus says how a downloaded file compares with the catalogue.
type VerifyStatus string

// The statuses of a VerifiedFile.
const (
	VerifyOK       VerifyStatus = "ok"       // an item's SHA-1 and size
	VerifyMismatch VerifyStatus = "mismatch" // named like an item's archive, other bytes (truncated, or another release)
	VerifyUnknown  VerifyStatus = "unknown"  // not in the catalogue
)

// Verification says which downloaded archives of a folder match the
// catalogue: what `upkdeps plan --verify` prints.
type Verification struct {
	SchemaVersion int            `json:"schema_version"`
	Folder        string         `json:"folder"`
	Files         []VerifiedFile `json:"files"` // in the folder's order (by name)
	Mismatches    int            `json:"mismatches"`
}

// VerifiedFile is one file of the folder.
type VerifiedFile struct {
	File   string       `json:"file"` // the file name
	Size   int64        `json:"size"`
	SHA1   string       `json:"sha1"` // lower-case hex
	Status VerifyStatus `json:"status"`
	Item   string       `json:"item,omitempty"` // the item matched (ok) or named like (mismatch)
}

// Verify hashes every regular file in dir (not its subfolders; a named
// pipe or device is skipped) and looks it up among items: by SHA-1 and
// size (ok), else by archive name, any case (mismatch: a truncated or other
// download), else unknown. It stops between two reads when ctx is done.
func Verify(ctx context.Context, dir string, items []Item) (*Verification, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	byHash := map[string]Item{}
	byName := map[string]Item{}
	for _, it := range items {
		if it.Hash != "" {
			byHash[it.Hash] = it
		}
		if it.ArchiveName != "" {
			byName[strings.ToLower(it.ArchiveName)] = it
		}
	}
	rep := &Verification{SchemaVersion: 1, Folder: dir, Files: []VerifiedFile{}}
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		sum, size, err := SHA1File(ctx, filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		v := VerifiedFile{File: e.Name(), Size: size, SHA1: sum, Status: VerifyUnknown}
		if it, ok := byHash[sum]; ok && it.Size == size {
			v.Status, v.Item = VerifyOK, it.Name
		} else if it, ok := byName[strings.ToLower(e.Name())]; ok {
			v.Status, v.Item = VerifyMismatch, it.Name
			rep.Mismatches++
		}
		rep.Files = append(rep.Files, v)
	}
	return rep, nil
}

// SHA1File returns the SHA-1 (lower-case hex, as the catalogue spells it)
// and size of the regular file at path, stopping between two reads when
// ctx is done.
func SHA1File(ctx context.Context, path string) (string, int64, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha1.New()
	n, err := io.Copy(h, ctxReader{ctx, f})
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// ctxReader fails with its context's error once the context is cancelled:
// a long hash stops at Ctrl-C between two reads.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
