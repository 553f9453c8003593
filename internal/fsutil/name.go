package fsutil

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// MaxNameLen is the longest file name, in bytes, that every file system the
// games run on accepts.
const MaxNameLen = 255

// NameError says why SafeFileName refused a name.
type NameError struct {
	Name   string
	Reason string
}

func (e *NameError) Error() string {
	return fmt.Sprintf("unsafe file name %q: %s", e.Name, e.Reason)
}

// SafeFileName returns nil when name is a plain file name that, joined to a
// folder, names a file in that folder on Windows, Linux and macOS alike;
// otherwise a *NameError saying why not. See the package's Security section
// for the rules.
func SafeFileName(name string) error {
	bad := func(reason string) error { return &NameError{Name: name, Reason: reason} }
	switch {
	case name == "":
		return bad("empty")
	case len(name) > MaxNameLen:
		return bad(fmt.Sprintf("longer than %d bytes", MaxNameLen))
	case !utf8.ValidString(name):
		return bad("not valid UTF-8")
	case name == "." || name == "..":
		return bad("names a folder, not a file")
	}
	for _, r := range name {
		switch {
		case r == '/' || r == '\\':
			return bad("contains a path separator")
		case r == ':':
			return bad("contains a colon (drive letter or stream)")
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return bad("contains a control character")
		case strings.ContainsRune(`<>"|?*`, r):
			return bad(fmt.Sprintf("contains %q, reserved on Windows", r))
		}
	}
	if last := name[len(name)-1]; last == '.' || last == ' ' {
		return bad("ends with a dot or space (Windows strips it)")
	}
	if isDeviceName(name) {
		return bad("is a Windows device name")
	}
	return nil
}

// isDeviceName reports whether Windows would open a device for name: CON,
// PRN, AUX, NUL, COM1-9 and LPT1-9 (and the superscript digits ¹²³), in any
// case, with any extension, and with spaces before the extension.
func isDeviceName(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	base = strings.ToUpper(strings.TrimRight(base, " "))
	switch base {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(base) < 4 || (base[:3] != "COM" && base[:3] != "LPT") {
		return false
	}
	switch base[3:] {
	case "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
		return true
	}
	return false
}

// SafeExt returns nil when ext is a plain file extension: a dot followed by
// 1 to 16 letters, digits, "_" or "-" (".uxx"), so that a name + ext stays
// a plain file name in the same folder; otherwise a *NameError. A game ini's
// CacheExt is checked with it: "CacheExt=.uxx/../../outside" would make a
// cache writer write outside the cache.
func SafeExt(ext string) error {
	bad := func(reason string) error { return &NameError{Name: ext, Reason: reason} }
	rest, ok := strings.CutPrefix(ext, ".")
	switch {
	case !ok:
		return bad("does not start with a dot")
	case rest == "":
		return bad("empty after the dot")
	}
	for _, r := range rest {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-') {
			if r == '/' || r == '\\' {
				return bad("contains a path separator")
			}
			return bad(fmt.Sprintf("contains %q: only letters, digits, _ and - may follow the dot", r))
		}
	}
	if len(rest) > 16 {
		return bad("longer than 16 characters after the dot")
	}
	return nil
}

// SafeIniPath returns nil when value, a folder or pattern from a game ini
// (CachePath, a Paths entry), can be used as a path: at most 4096 bytes of
// valid UTF-8 without NUL or other control characters. Where it points is
// the ini owner's choice.
func SafeIniPath(value string) error {
	bad := func(reason string) error { return &NameError{Name: value, Reason: reason} }
	switch {
	case strings.TrimSpace(value) == "":
		return bad("empty")
	case len(value) > 4096:
		return bad("longer than 4096 bytes")
	case !utf8.ValidString(value):
		return bad("not valid UTF-8")
	}
	for _, r := range value {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return bad("contains a control character")
		}
	}
	return nil
}

// ComparePaths orders two paths as their "/" forms compare, so that a list
// sorted by it is in the same order on every operating system: with "\",
// Windows would put "Cache0.tmp" before "Cache\x" (and "MapsA" before
// "Maps\x"), Linux after.
func ComparePaths(a, b string) int {
	return strings.Compare(filepath.ToSlash(a), filepath.ToSlash(b))
}
