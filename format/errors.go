package format

import (
	"errors"
	"fmt"
)

// ErrNotPackage reports that a file does not start with an Unreal package tag.
var ErrNotPackage = errors.New("format: not an unreal package")

// FormatError reports corrupt package data at a byte offset of the file.
type FormatError struct {
	Offset int64  // byte offset in the file where the problem was found
	Msg    string // what is wrong, lower-case
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("format: at offset %d (0x%X): %s", e.Offset, e.Offset, e.Msg)
}

// UnsupportedError reports a package that is valid but of a version or
// licensee layout this package does not read.
type UnsupportedError struct {
	Version  uint16
	Licensee uint16
	Reason   string
}

func (e *UnsupportedError) Error() string {
	if e.Version == 0 && e.Licensee == 0 {
		return "format: unsupported package: " + e.Reason // refused before any version was read
	}
	return fmt.Sprintf("format: unsupported package version %d, licensee %d: %s", e.Version, e.Licensee, e.Reason)
}

func formatErr(off int64, format string, args ...any) error {
	return &FormatError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}
