//go:build linux || darwin

package format

import "golang.org/x/sys/unix"

// openDirFD opens the folder path for the *at calls, or returns -1.
func openDirFD(path string) int {
	for {
		fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return -1
		}
		return fd
	}
}

func closeDirFD(fd int) { unix.Close(fd) }

// statAt returns the mode of name in the folder dirfd, following a link
// as stat does.
func statAt(dirfd int, name string) (uint32, error) {
	var st unix.Stat_t
	err := unix.Fstatat(dirfd, name, &st, 0)
	return uint32(st.Mode), err
}

// openAt opens name in the folder dirfd.
func openAt(dirfd int, name string, flags int) (int, error) {
	return unix.Openat(dirfd, name, flags, 0)
}
