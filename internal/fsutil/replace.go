package fsutil

import (
	"bytes"
	"errors"
	"os"
)

// ErrOtherContent is matched (errors.Is) by an *OtherContentError.
var ErrOtherContent = errors.New("exists with other content")

// OtherContentError reports that CheckReplace refused to replace Path: it
// holds other bytes than the ones to write.
type OtherContentError struct {
	Path string
}

func (e *OtherContentError) Error() string {
	return e.Path + " exists with other content: not overwritten"
}

// Is makes errors.Is(err, ErrOtherContent) true.
func (e *OtherContentError) Is(target error) bool { return target == ErrOtherContent }

// CheckReplace says whether data may be written to path: not when path
// is not a regular file (CheckOutput: a named pipe would block the read,
// so it is refused with force too), and, without force, not when it holds
// other content than data (an *OtherContentError). A missing path, or one
// with the same bytes, is fine. Only len(data)+1 bytes of the old file
// are read.
func CheckReplace(path string, data []byte, force bool) error {
	if err := CheckOutput(path); err != nil || force {
		return err
	}
	old, err := ReadRegular(path, int64(len(data)))
	if errors.Is(err, ErrTooBig) {
		return &OtherContentError{Path: path}
	}
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	}
	if !bytes.Equal(old, data) {
		return &OtherContentError{Path: path}
	}
	return nil
}
