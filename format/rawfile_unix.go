//go:build unix

package format

import (
	"io"
	"io/fs"
	"syscall"
)

// rawFile is a file read with pread and nothing else: opening it costs one
// open and one fstat, where os.Open also sets up the runtime poller (four
// fcntl and an epoll_ctl on Linux) for a file that cannot use it. Scans
// open tens of thousands of packages, so those syscalls are a good part of
// their system time.
type rawFile struct {
	fd   int
	path string
}

// openFile opens path for reading and returns it with its size.
func openFile(path string) (ioFile, int64, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, 0, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return nil, 0, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	return &rawFile{fd: fd, path: path}, st.Size, nil
}

// ReadAt reads len(p) bytes at off, like os.File.ReadAt.
func (f *rawFile) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for len(p) > 0 {
		m, err := syscall.Pread(f.fd, p, off)
		if err == syscall.EINTR {
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
