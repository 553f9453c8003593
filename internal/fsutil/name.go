package fsutil

import (
	"fmt"
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
	return fmt.Sprintf("fsutil: unsafe file name %q: %s", e.Name, e.Reason)
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
