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

// bad returns a *FormatError for path.
func bad(path string, off int64, format string, args ...any) error {
	return &FormatError{Path: path, Offset: off, Msg: fmt.Sprintf(format, args...)}
}
