package ini

import (
	"errors"
	"fmt"
	"strings"
)

// Error reports an ini file that cannot be read: malformed text, an
// encoding problem or a limit this package enforces. Line is 1-based; it is 0
// when the problem is not tied to one line (the file as a whole is too big,
// say).
type Error struct {
	File string // the name given to Load or Parse
	Line int    // 1-based line number, 0 when not tied to a line
	Msg  string // what is wrong, lower-case
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("ini: %s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("ini: %s: %s", e.File, e.Msg)
}

// ErrNotFound is matched (errors.Is) by the *NotFoundError of Find.
var ErrNotFound = errors.New("ini: no game ini found")

// NotFoundError reports that Find found none of the KnownNames.
type NotFoundError struct {
	Dir   string   // the folder Find was given
	Tried []string // every path looked for, in order
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("ini: no game ini found in %s; tried %s", e.Dir, strings.Join(e.Tried, ", "))
}

// Is reports whether target is ErrNotFound.
func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }
