package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrTooBig is wrapped by ReadRegular's error for a file over its limit.
var ErrTooBig = errors.New("over the size limit")

// ErrNotRegular is matched (errors.Is) by a *NotRegularError.
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError reports that a file to be read is a named pipe, a device,
// a socket or a folder: reading one could block forever or never end.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	if e.Path == "" { // inside a message that names the path
		return fmt.Sprintf("not a regular file (%s)", describeMode(e.Mode))
	}
	return fmt.Sprintf("%s: not a regular file (%s)", e.Path, describeMode(e.Mode))
}

// Is makes errors.Is(err, ErrNotRegular) true.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "type " + m.Type().String()
}

// OpenRegular opens path for reading when it is a regular file (a link to
// one is followed), and otherwise returns a *NotRegularError without
// blocking. Every reader of installation files opens them through it: a
// named pipe called Core.u in a Paths folder must be an error for that
// file, not a scan that hangs.
//
// The mode is checked before the open, so a device or pipe is never opened,
// and again on the open file, for a file swapped in between; where the
// operating system has it the open is non-blocking (O_NONBLOCK), so even a
// pipe swapped in at that moment cannot block it.
func OpenRegular(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	st, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return f, nil
}

// TooBigError reports a file over a reader's size limit (ReadRegular);
// errors.Is(err, ErrTooBig) is true.
type TooBigError struct {
	Path  string
	Size  int64 // the file's size, or what was read of it when it grew
	Limit int64
}

func (e *TooBigError) Error() string {
	return fmt.Sprintf("%s: %d bytes, %v of %d", e.Path, e.Size, ErrTooBig, e.Limit)
}

// Is makes errors.Is(err, ErrTooBig) true.
func (e *TooBigError) Is(target error) bool { return target == ErrTooBig }

// ReadRegular reads the regular file at path (OpenRegular), up to max
// bytes: the one bounded read of a whole file. A file over max, by its size
// or by what it grew to while read, is a *TooBigError, found before more
// than max+1 bytes are read; a file that shrank is read as it is now. A
// read error is an *os.PathError.
func ReadRegular(path string, max int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > max {
		return nil, &TooBigError{Path: path, Size: st.Size(), Limit: max}
	}
	// Read what Stat promised plus one byte: a short read is the end, a
	// full one means the file grew.
	data := make([]byte, st.Size()+1)
	n, err := io.ReadFull(f, data)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return data[:n], nil
	case err != nil:
		return nil, &os.PathError{Op: "read", Path: path, Err: err}
	}
	rest, err := io.ReadAll(io.LimitReader(f, max+1-int64(n)))
	if err != nil {
		return nil, &os.PathError{Op: "read", Path: path, Err: err}
	}
	data = append(data, rest...)
	if int64(len(data)) > max {
		return nil, &TooBigError{Path: path, Size: int64(len(data)), Limit: max}
	}
	return data, nil
}

// CheckOutput returns a *NotRegularError when path exists and is not a
// regular file (a named pipe, a device, a socket, a folder): an output
// written over one, or an old output read to compare with the new, would
// block or never end. A missing path is fine (nil). A link is followed.
func CheckOutput(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	if !st.Mode().IsRegular() {
		return &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return nil
}
