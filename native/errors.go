package native

import "fmt"

// FormatError reports a binary whose headers or tables are corrupt or
// exceed this package's limits.
type FormatError struct {
	Path   string // the file as given to ReadBinary or NewBinary
	Offset int64  // byte offset in the file where the problem was found
	Msg    string // what is wrong, lower-case
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("native: %s: at offset %d (0x%X): %s", e.Path, e.Offset, e.Offset, e.Msg)
}

// LFSPointerError reports a Git LFS pointer file where a binary should be:
// the small text a repository holds until `git lfs pull` fetches the real
// file.
type LFSPointerError struct {
	Path string
	Size int64 // the real file's size from the pointer, -1 when it does not say
}

func (e *LFSPointerError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("native: %s: a Git LFS pointer, not the binary itself: fetch it with git lfs pull", e.Path)
	}
	return fmt.Sprintf("native: %s: a Git LFS pointer, not the binary itself (%d bytes): fetch it with git lfs pull", e.Path, e.Size)
}

// bad returns a *FormatError for path.
func bad(path string, off int64, format string, args ...any) error {
	return &FormatError{Path: path, Offset: off, Msg: fmt.Sprintf(format, args...)}
}
