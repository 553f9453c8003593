//go:build !unix

package format

import "os"

// openFile opens path for reading and returns it with its size.
func openFile(path string) (ioFile, int64, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, 0, err
	}
	return fh, st.Size(), nil
}
