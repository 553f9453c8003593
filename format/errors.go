package format

import (
	"errors"
	"fmt"

	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// ErrNotPackage reports that a file does not start with an Unreal package tag.
var ErrNotPackage = errors.New("format: not an unreal package")

// NotRegularError reports a file that is not a regular file: a named pipe,
// a device, a socket or a folder, which Open refuses without opening it
// (reading one could block forever or never end). Every upkdeps package
// that reads installation files refuses such a file with this type
// (search, index, archive, cache, redirect): errors.Is(err, ErrNotRegular)
// is true.
type NotRegularError = fsutil.NotRegularError

// ErrNotRegular is matched (errors.Is) by a *NotRegularError.
var ErrNotRegular = fsutil.ErrNotRegular

// ErrEmpty reports a file of 0 bytes (a failed download or copy). It is a
// kind of ErrNotPackage: errors.Is(ErrEmpty, ErrNotPackage) holds.
var ErrEmpty error = emptyError{}

type emptyError struct{}

// LFSPointerError reports a Git LFS pointer file where a package should be:
// the small text a repository holds until `git lfs pull` fetches the real
// file. It is a kind of ErrNotPackage.
type LFSPointerError struct {
	Size int64 // the real file's size from the pointer, -1 when it does not say
}

func (e *LFSPointerError) Error() string {
	if e.Size < 0 {
		return "format: a Git LFS pointer, not the package itself: fetch it with git lfs pull"
	}
	return fmt.Sprintf("format: a Git LFS pointer, not the package itself (%d bytes): fetch it with git lfs pull", e.Size)
}

// Is makes errors.Is(err, ErrNotPackage) hold for an LFS pointer.
func (e *LFSPointerError) Is(target error) bool { return target == ErrNotPackage }

func (emptyError) Error() string        { return "format: the file is empty (0 bytes)" }
func (emptyError) Is(target error) bool { return target == ErrNotPackage }

// FormatError reports corrupt package data at a byte offset of the file.
type FormatError struct {
	Offset int64  // byte offset in the file where the problem was found
	Msg    string // what is wrong, lower-case
	// Header, when the version was read, says which version, licensee
	// and header layout the file was read with: a wrong layout is the
	// likeliest cause of an impossible count.
	Header string
	// Hint, when set, names a layout the bytes fit better.
	Hint string
}

func (e *FormatError) Error() string {
	s := fmt.Sprintf("format: at offset %d (0x%X): %s", e.Offset, e.Offset, e.Msg)
	if e.Header != "" {
		s += "; " + e.Header
	}
	if e.Hint != "" {
		s += "; " + e.Hint
	}
	return s
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
