package fsutil

import (
	"bytes"
	"io"
	"strconv"
)

// lfsPrefixes start a Git LFS pointer file: the spec's first line is its
// version key (https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md;
// "hawser" is the spec's name before Git LFS 1.0).
var lfsPrefixes = []string{"version https://git-lfs.github.com/spec/", "version https://hawser.github.com/spec/"}

// maxLFSPointer is the spec's bound on a pointer file's size.
const maxLFSPointer = 1024

// LFSPointer reports whether the size bytes of r are a Git LFS pointer: the
// small text file a repository holds in place of a large file until `git lfs
// pull` fetches it. real is the size of the file it stands for (its "size"
// line), or -1 when the pointer does not say. It reads at most 1024 bytes.
func LFSPointer(r io.ReaderAt, size int64) (real int64, ok bool) {
	if size < int64(len(lfsPrefixes[0])) || size > maxLFSPointer {
		return 0, false
	}
	b := make([]byte, size)
	if n, err := r.ReadAt(b, 0); int64(n) < size && err != nil {
		return 0, false
	}
	found := false
	for _, p := range lfsPrefixes {
		found = found || bytes.HasPrefix(b, []byte(p))
	}
	if !found {
		return 0, false
	}
	real = -1
	for line := range bytes.SplitSeq(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("size ")); ok {
			if n, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64); err == nil && n >= 0 {
				real = n
			}
		}
	}
	return real, true
}
