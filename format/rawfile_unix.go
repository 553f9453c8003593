//go:build unix

package format

import (
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// rawFile is a file read with pread and nothing else: opening it costs a
// stat, an open and an fstat, where os.Open also sets up the runtime poller
// (four fcntl and an epoll_ctl on Linux) for a file that cannot use it.
// Scans open tens of thousands of packages, so those syscalls were a good
// part of their system time.
type rawFile struct {
	fd   int
	path string
}

// openFile opens path for reading when it is a regular file and returns it
// with its size, as fsutil.OpenRegular does: the mode is checked before the
// open, so a device or pipe is never opened (a *fsutil.NotRegularError),
// the open does not block, and the open file is checked again.
func openFile(path string) (ioFile, int64, error) {
	f := new(rawFile)
	size, err := f.open(path)
	if err != nil {
		return nil, 0, err
	}
	return f, size, nil
}

// openFile is openFile into the Reader's own rawFile: no allocation.
func (rd *Reader) openFile(path string) (ioFile, int64, error) { return rd.openFileIn(-1, "", path) }

// openFileIn is openFile of name in the open folder dirfd (-1: of path).
func (rd *Reader) openFileIn(dirfd int, name, path string) (ioFile, int64, error) {
	size, err := rd.fh.openIn(dirfd, name, path)
	if err != nil {
		return nil, 0, err
	}
	return &rd.fh, size, nil
}

// open opens path into f (see openFile) and returns its size.
func (f *rawFile) open(path string) (int64, error) { return f.openIn(-1, "", path) }

// openIn opens into f the file name in the open folder dirfd, or path
// when dirfd is -1 (path names the file in errors either way), and returns
// its size.
func (f *rawFile) openIn(dirfd int, name, path string) (int64, error) {
	// syscall.Stat, not os.Stat: no FileInfo allocated per package; the
	// mode is made only for the error.
	var mode uint32
	var err error
	for {
		if dirfd >= 0 {
			mode, err = statAt(dirfd, name)
		} else {
			var pre syscall.Stat_t
			err = syscall.Stat(path, &pre)
			mode = uint32(pre.Mode)
		}
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return 0, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if mode&syscall.S_IFMT != syscall.S_IFREG {
		mode := fs.ModeIrregular
		if st, err := os.Stat(path); err == nil {
			mode = st.Mode()
		}
		return 0, &fsutil.NotRegularError{Path: path, Mode: mode}
	}
	var fd int
	for {
		const flags = syscall.O_RDONLY | syscall.O_CLOEXEC | syscall.O_NONBLOCK
		if dirfd >= 0 {
			fd, err = openAt(dirfd, name, flags)
		} else {
			fd, err = syscall.Open(path, flags, 0)
		}
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return 0, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var sys syscall.Stat_t
	if err := syscall.Fstat(fd, &sys); err != nil {
		syscall.Close(fd)
		return 0, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if sys.Mode&syscall.S_IFMT != syscall.S_IFREG {
		// Swapped for something else since the stat: say what it is now.
		syscall.Close(fd)
		mode := fs.ModeIrregular
		if st, err := os.Stat(path); err == nil {
			mode = st.Mode()
		}
		return 0, &fsutil.NotRegularError{Path: path, Mode: mode}
	}
	*f = rawFile{fd: fd, path: path}
	return sys.Size, nil
}

// ReadAt reads len(p) bytes at off, like os.File.ReadAt.
func (f *rawFile) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for len(p) > 0 {
		m, err := syscall.Pread(f.fd, p, off)
		if err == syscall.EINTR || err == syscall.EAGAIN {
			continue
		}
		if err != nil {
			return n, &fs.PathError{Op: "read", Path: f.path, Err: err}
		}
		if m == 0 {
			return n, io.EOF
		}
		n += m
		p = p[m:]
		off += int64(m)
	}
	return n, nil
}

func (f *rawFile) Close() error {
	if f.fd < 0 {
		return &fs.PathError{Op: "close", Path: f.path, Err: fs.ErrClosed}
	}
	err := syscall.Close(f.fd)
	f.fd = -1
	if err != nil {
		return &fs.PathError{Op: "close", Path: f.path, Err: err}
	}
	return nil
}
