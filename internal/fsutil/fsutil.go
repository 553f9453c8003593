package fsutil

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Rename publishes a finished temporary file; Remove deletes a file. Every
// write and removal in this package and in the packages that change an
// installation goes through them, so tests can replace them to simulate a
// crash or a refusing file system at that exact step. Nothing else should
// change them.
var (
	Rename = os.Rename
	Remove = os.Remove
	// SyncFile makes a file's data (or a folder's entries) durable. Fuzz
	// targets and tests that do not crash replace it with a no-op: an
	// fsync per execution is most of a fuzzer's time.
	SyncFile = (*os.File).Sync
)

// ErrExists is matched (errors.Is) by an *ExistsError.
var ErrExists = errors.New("a different file already exists")

// ExistsError reports that CopyFileAtomic would replace a file whose content
// differs from the source.
type ExistsError struct {
	Path string
}

func (e *ExistsError) Error() string {
	return e.Path + ": a different file already exists"
}

// Is makes errors.Is(err, ErrExists) true.
func (e *ExistsError) Is(target error) bool { return target == ErrExists }

// tempPrefix and tempSuffix frame the names of temporary files; IsTemp
// recognises them so a later clean-up can remove what a crash left.
const (
	tempPrefix = ".upkdeps-"
	tempSuffix = ".tmp"
)

// IsTemp reports whether name (a base name) is a temporary file of an atomic
// write, left behind only when the process died before renaming it.
func IsTemp(name string) bool {
	return strings.HasPrefix(name, tempPrefix) && strings.HasSuffix(name, tempSuffix)
}

// tempTag is the part of a temporary file's name that names its
// destination: the destination's base name, cut to 64 bytes and with "*"
// (which os.CreateTemp would expand) replaced.
func tempTag(dst string) string {
	base := filepath.Base(dst)
	if len(base) > 64 {
		base = base[:64]
	}
	return strings.ReplaceAll(base, "*", "_")
}

// IsTempFor reports whether name (a base name) is a temporary file of an
// atomic write to dst (".upkdeps-" + dst's base name + "-" + digits +
// ".tmp"): what a write of dst killed before its rename leaves.
func IsTempFor(name, dst string) bool {
	rest, ok := strings.CutPrefix(name, tempPrefix+tempTag(dst)+"-")
	if !ok {
		return false
	}
	digits, ok := strings.CutSuffix(rest, tempSuffix)
	return ok && digits != "" && strings.Trim(digits, "0123456789") == ""
}

// StaleTemps lists, sorted, the temporary files in dir of atomic writes
// to the files dsts name (base names or paths; any folder), or of every
// write when dsts is nil. A command calls it for the folders it writes, to
// remove what its own earlier, killed runs left. In a folder that no lock
// protects, pass dsts: the temporary file of another process writing
// another file at this moment is not listed.
func StaleTemps(dir string, dsts []string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var out []string
	for _, e := range ents {
		name := e.Name()
		if !e.Type().IsRegular() || !IsTemp(name) {
			continue
		}
		ok := dsts == nil
		for _, d := range dsts {
			if IsTempFor(name, d) {
				ok = true
				break
			}
		}
		if ok {
			out = append(out, filepath.Join(dir, name))
		}
	}
	return out, nil
}

// RemoveStaleTemps removes the temporary files that killed atomic writes
// to the files dsts (paths) left in their folders (see StaleTemps), and
// returns what it removed, sorted. A writing command calls it before it
// writes dsts.
func RemoveStaleTemps(dsts []string) ([]string, error) {
	byDir := map[string][]string{}
	for _, d := range dsts {
		byDir[filepath.Dir(d)] = append(byDir[filepath.Dir(d)], filepath.Base(d))
	}
	var removed []string
	for dir, names := range byDir {
		temps, err := StaleTemps(dir, names)
		if err != nil {
			return removed, err
		}
		for _, tmp := range temps {
			if err := RemoveFile(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return removed, err
			}
			removed = append(removed, tmp)
		}
	}
	slices.Sort(removed)
	return removed, nil
}

// LockName is the file of a folder's lock (package internal/dirlock).
const LockName = ".upkdeps.lock"

// controlNames are the files upkdeps keeps for itself in the folders it
// writes: a cache's index, a redirect folder's manifest, the lock.
var controlNames = []string{"cache.ini", "manifest.json", LockName}

// IsControlFile reports whether a file named name (a base name) is one
// upkdeps keeps for itself in the folders it changes (cache.ini,
// manifest.json, the lock file; any case) or one of its temporary files.
// Writers never write package data to such a name, --force or not: a cache
// entry named cache.ini extracted into the cache folder would replace the
// cache's own index.
func IsControlFile(name string) bool {
	for _, c := range controlNames {
		if strings.EqualFold(name, c) {
			return true
		}
	}
	return IsTemp(name)
}

// WriteFileAtomic writes data to path atomically with permissions perm: a
// reader of path sees the old file or the new one, never a partial write.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	return WriteAtomic(path, bytes.NewReader(data), perm)
}

// WriteAtomic writes everything r yields to path atomically: into a
// temporary file in the same folder, synced to disk, then renamed over path,
// after which the folder is synced so the rename itself is durable. On error
// the temporary file is removed and path is untouched.
func WriteAtomic(path string, r io.Reader, perm fs.FileMode) error {
	return WriteAtomicFunc(path, perm, func(f *os.File) error {
		if _, err := io.Copy(f, r); err != nil {
			return fmt.Errorf("write %s: %w", path, unwrapPath(err))
		}
		return nil
	})
}

// WriteAtomicFunc is WriteAtomic for a caller that writes the temporary
// file itself: write fills f (and may read it back, to check the result
// before it is published); when it returns nil, f is synced and renamed over
// path. When write returns an error, the temporary file is removed, path is
// untouched and that error is returned as it is. write must not close f.
func WriteAtomicFunc(path string, perm fs.FileMode, write func(f *os.File) error) (err error) {
	dir := filepath.Dir(path)
	f, err := startTemp(dir, tempPrefix+tempTag(path)+"-*"+tempSuffix)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, unwrapPath(err))
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
			endTemp(tmp)
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil && runtime.GOOS != "windows" {
		return fmt.Errorf("write %s: %w", path, unwrapPath(err))
	}
	if err = SyncFile(f); err != nil {
		return fmt.Errorf("write %s: %w", path, unwrapPath(err))
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, unwrapPath(err))
	}
	if err = publish(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w%s", path, unwrapPath(err), replaceHint(err))
	}
	return SyncDir(dir)
}

// replaceHint names the likely causes of a refused rename over a file on
// Windows: it will not replace a file that another program opened without
// delete sharing (the game or a server running from the install; Go's own
// os.Open does not share delete either), where Linux replaces it and the
// other program keeps reading the old one. Windows also refuses a read-only
// destination (go-billy#186, swift-foundation#2007), which wine 8 replaces,
// so no test here can show it.
func replaceHint(err error) string {
	if runtime.GOOS != "windows" || !errors.Is(err, fs.ErrPermission) {
		return ""
	}
	return " (Windows will not replace a file that is read-only or that another program, such as the game or a server, has open)"
}

// SyncDir makes the entries of dir (a rename or removal in it) durable. It
// does nothing on Windows, which cannot sync a folder and does not need to.
func SyncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, unwrapPath(err))
	}
	defer d.Close()
	if err := SyncFile(d); err != nil {
		return fmt.Errorf("sync %s: %w", dir, unwrapPath(err))
	}
	return nil
}

// RemoveFile removes path through Remove and syncs its folder.
func RemoveFile(path string) error {
	if err := Remove(path); err != nil {
		return fmt.Errorf("remove %s: %w", path, unwrapPath(err))
	}
	return SyncDir(filepath.Dir(path))
}

// CopyFileAtomic copies the regular file src to dst atomically (see
// WriteAtomic), with src's permissions. When dst exists with the same
// content, or is src itself, it does nothing. When dst exists with other
// content it returns an *ExistsError unless force is set. dst must not be a
// folder.
func CopyFileAtomic(src, dst string, force bool) error {
	in, err := OpenRegular(src)
	if err != nil {
		return fmt.Errorf("copy %s: %w", src, unwrapPath(err))
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return fmt.Errorf("copy %s: %w", src, unwrapPath(err))
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("copy %s: not a regular file", src)
	}
	if dst2, err := os.Stat(dst); err == nil {
		if dst2.IsDir() {
			return fmt.Errorf("copy to %s: is a folder", dst)
		}
		same, err := SameContent(src, dst)
		if err != nil {
			return err
		}
		if same {
			return nil
		}
		if !force {
			return &ExistsError{Path: dst}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("copy to %s: %w", dst, unwrapPath(err))
	}
	return WriteAtomic(dst, in, st.Mode().Perm())
}

// SameContent reports whether the files a and b hold the same bytes (true
// as well when they are the same file). It reads them only when their sizes
// agree, in small blocks.
func SameContent(a, b string) (bool, error) {
	fa, err := OpenRegular(a)
	if err != nil {
		return false, fmt.Errorf("compare %s: %w", a, unwrapPath(err))
	}
	defer fa.Close()
	fb, err := OpenRegular(b)
	if err != nil {
		return false, fmt.Errorf("compare %s: %w", b, unwrapPath(err))
	}
	defer fb.Close()
	sa, err := fa.Stat()
	if err != nil {
		return false, fmt.Errorf("compare %s: %w", a, unwrapPath(err))
	}
	sb, err := fb.Stat()
	if err != nil {
		return false, fmt.Errorf("compare %s: %w", b, unwrapPath(err))
	}
	if os.SameFile(sa, sb) {
		return true, nil
	}
	if sa.Size() != sb.Size() {
		return false, nil
	}
	const block = 64 << 10
	ba, bb := make([]byte, block), make([]byte, block)
	for {
		na, ea := io.ReadFull(fa, ba)
		nb, eb := io.ReadFull(fb, bb)
		if !bytes.Equal(ba[:na], bb[:nb]) {
			return false, nil
		}
		aDone := ea == io.EOF || ea == io.ErrUnexpectedEOF
		bDone := eb == io.EOF || eb == io.ErrUnexpectedEOF
		switch {
		case ea != nil && !aDone:
			return false, fmt.Errorf("compare %s: %w", a, unwrapPath(ea))
		case eb != nil && !bDone:
			return false, fmt.Errorf("compare %s: %w", b, unwrapPath(eb))
		case aDone || bDone:
			return aDone && bDone, nil
		}
	}
}

// unwrapPath drops the *fs.PathError layer (whose message repeats the path
// our own message already names), keeping the cause for errors.Is.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	var ne *NotRegularError
	if errors.As(err, &ne) {
		return &NotRegularError{Mode: ne.Mode}
	}
	return err
}
