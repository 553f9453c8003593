//go:build unix

package fsutil

import "syscall"

// nonBlock opens without waiting for a writer (a named pipe) or a carrier
// (a terminal); it does not change how a regular file reads.
const nonBlock = syscall.O_NONBLOCK
