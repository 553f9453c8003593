//go:build !unix

package native

import (
	"fmt"
	"os"
)

// openRegular refuses anything but a regular file before opening it.
func openRegular(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("native: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("native: %s: not a regular file (%s)", path, st.Mode().Type())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("native: %w", err)
	}
	return f, nil
}
