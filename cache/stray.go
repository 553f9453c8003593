package cache

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/uz"
)

// sniffSize is how much of a stray file is read to classify it: enough for
// a .uz header with the longest original name it may hold.
const sniffSize = uz.DetectSize

// isDownloadTemp reports whether name is prefix + four hex digits + ".tmp",
// the engine's temporary file name (appCreateTempFilename's "%04X.tmp"
// appended to a path), ignoring case.
func isDownloadTemp(name, prefix string) bool {
	if len(name) < len(prefix) || !strings.EqualFold(name[:len(prefix)], prefix) {
		return false
	}
	stem, ok := cutSuffixFold(name[len(prefix):], ".tmp")
	return ok && len(stem) == 4 && isHex(stem)
}

// findStrays lists the download temporary files: ????.tmp in the cache
// folder (469) and <cache folder name>????.tmp beside it (older builds
// append the number to CachePath itself, making "../Cache0000.tmp"), plus
// the temporary files of interrupted upkdeps writes in the cache folder.
func (c *Cache) findStrays(files []string) {
	for _, f := range files {
		switch {
		case fsutil.IsTemp(f):
			c.addStray(filepath.Join(c.Dir, f), KindOwnTemp)
		case isDownloadTemp(f, ""):
			c.addStray(filepath.Join(c.Dir, f), "")
		}
	}
	parent := filepath.Dir(c.Dir)
	if parent == c.Dir {
		return
	}
	ents, err := os.ReadDir(parent)
	if err != nil {
		return // no permission to list the parent: nothing to report there
	}
	prefix := filepath.Base(c.Dir)
	for _, e := range ents {
		if e.Type().IsRegular() && isDownloadTemp(e.Name(), prefix) {
			c.addStray(filepath.Join(parent, e.Name()), "")
		}
	}
}

// addStray classifies the file (unless kind is given) and records it.
func (c *Cache) addStray(path, kind string) {
	s := Stray{File: path, Kind: kind}
	if st, err := os.Stat(path); err == nil {
		s.Size = st.Size()
	}
	if s.Kind == "" {
		c.sniff(&s)
	}
	c.strays = append(c.strays, s)
}

// sniff sets the stray's kind from its first bytes.
func (c *Cache) sniff(s *Stray) {
	s.Kind = KindUnknown
	f, err := fsutil.OpenRegular(s.File)
	if err != nil {
		return
	}
	defer f.Close()
	b := make([]byte, sniffSize)
	n, _ := io.ReadFull(f, b)
	b = b[:n]
	if format.HasTag(b) {
		s.Kind = KindPartial
		if pf, err := format.Open(s.File); err == nil {
			s.GUID = pf.GUID.String()
			pf.Close()
			for _, e := range c.entries {
				if e.GUID == s.GUID && e.Name != "" {
					s.Original = e.Name
					break
				}
			}
		}
		return
	}
	switch uz.Detect(b) {
	case uz.KindUZ:
		s.Kind = KindUZ
		s.Original, _ = uzName(b)
	case uz.KindUZ2:
		s.Kind = KindUZ2
	}
}

// uzName returns the original file name stored in a .uz header (the uz
// package reads it), and whether b starts with a valid header.
func uzName(b []byte) (string, bool) {
	h, err := uz.ReadHeader(bytes.NewReader(b))
	return h.Name, err == nil
}
