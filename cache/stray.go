package cache

import (
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf16"

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
	if len(b) >= 4 {
		switch binary.LittleEndian.Uint32(b) {
		case format.Tag, format.TagKF:
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
	}
	switch uz.Detect(b) {
	case uz.KindUZ:
		s.Kind = KindUZ
		s.Original, _ = uzName(b)
	case uz.KindUZ2:
		s.Kind = KindUZ2
	}
}

// maxUZName bounds the original name in a .uz header, in characters with
// the terminating NUL (the uz package's own limit).
const maxUZName = 1024

// uzName returns the original file name stored in a .uz header: an int32
// signature (1234 or 5678) and an FString (compact-index length including
// the NUL; negative for UTF-16LE).
func uzName(b []byte) (string, bool) {
	if len(b) < 5 {
		return "", false
	}
	if sig := int32(binary.LittleEndian.Uint32(b)); sig != 1234 && sig != 5678 {
		return "", false
	}
	n, used, ok := compactIndex(b[4:])
	if !ok {
		return "", false
	}
	p := b[4+used:]
	switch {
	case n == 0:
		return "", true
	case n > 0 && n <= maxUZName && len(p) >= int(n):
		raw := p[:n]
		if raw[n-1] != 0 {
			return "", false
		}
		r := make([]rune, 0, n-1)
		for _, c := range raw[:n-1] {
			if c == 0 {
				return "", false
			}
			r = append(r, rune(c))
		}
		return string(r), true
	case n < 0 && -n <= maxUZName && len(p) >= int(-2*n):
		units := make([]uint16, -n)
		for i := range units {
			units[i] = binary.LittleEndian.Uint16(p[2*i:])
		}
		if units[len(units)-1] != 0 {
			return "", false
		}
		return string(utf16.Decode(units[:len(units)-1])), true
	}
	return "", false
}

// compactIndex decodes the engine's compact index (at most 5 bytes).
func compactIndex(b []byte) (v int32, used int, ok bool) {
	if len(b) == 0 {
		return 0, 0, false
	}
	b0 := b[0]
	val := uint32(b0 & 0x3f)
	used = 1
	if b0&0x40 != 0 {
		shift := uint(6)
		for {
			if used >= len(b) || used >= 5 {
				return 0, 0, false
			}
			c := b[used]
			used++
			val |= uint32(c&0x7f) << shift
			shift += 7
			if c&0x80 == 0 || used == 5 {
				break
			}
		}
	}
	v = int32(val)
	if b0&0x80 != 0 {
		v = -v
	}
	return v, used, true
}
