//go:build !unix

package format

import "github.com/upkdeps/upkdeps/internal/fsutil"

// openFile opens path for reading when it is a regular file (see
// fsutil.OpenRegular) and returns it with its size.
func openFile(path string) (ioFile, int64, error) {
	fh, err := fsutil.OpenRegular(path)
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

// rawFile is the file a Reader keeps on Unix; elsewhere it is empty.
type rawFile struct{}

// openFile opens path with openFile: elsewhere than on Unix a Reader keeps
// no file of its own.
func (rd *Reader) openFile(path string) (ioFile, int64, error) { return openFile(path) }

// openFileIn opens path: elsewhere than on Unix a Dir reads by path.
func (rd *Reader) openFileIn(_ int, _, path string) (ioFile, int64, error) { return openFile(path) }
