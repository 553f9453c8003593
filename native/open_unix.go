//go:build unix

package native

import (
	"fmt"
	"os"
	"syscall"
)

// openRegular opens path for reading without blocking on a FIFO (O_NONBLOCK)
// and refuses anything but a regular file.
func openRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("native: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("native: %w", err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("native: %s: not a regular file (%s)", path, st.Mode().Type())
	}
	return f, nil
}
