//go:build !unix

package fsutil

// nonBlock is 0 where the operating system has no O_NONBLOCK; the mode
// checks before and after the open still refuse what is not a regular file.
const nonBlock = 0
