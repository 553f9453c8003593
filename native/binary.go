package native

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/internal/fold"
	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// MaxFileSize is the largest binary ReadBinary and NewBinary read: 256 MiB.
// The biggest UE1/UE2 module (a UT2004 Engine.dll) is under 10 MiB.
const MaxFileSize = 256 << 20

// Limits on what one file may claim, checked before anything is allocated.
const (
	maxExports = 1 << 20 // PE export names, import library members
	maxSymbols = 1 << 21 // ELF symbols per table
)

// How a Binary's classes were found.
const (
	MethodPE        = "pe-exports"      // the PE export directory
	MethodELF       = "elf-symbols"     // defined ELF .dynsym and .symtab symbols
	MethodImportLib = "coff-import-lib" // the import objects of an MSVC import library (.lib)
	MethodByteScan  = "byte-scan"       // a PE or ELF file without export table or symbols: its bytes
)

// Binary is what one native module says about its package: the classes its
// IMPLEMENT_CLASS lines register.
type Binary struct {
	Path    string   // as given
	Package string   // the package the module belongs to (Core.dll -> Core)
	Method  string   // how the classes were found: MethodPE, MethodELF, MethodImportLib or MethodByteScan
	Classes []string // class names without prefix, sorted case-insensitively, spelling kept, no duplicates
}

// PackageOf returns the package a native module belongs to: its file name
// without the extension (Core.dll, Core.so -> Core; udemo.dll -> udemo).
// UE1 and UE2 name the Linux modules like the Windows ones (Core.so, not
// libCore.so), so no "lib" prefix is stripped.
func PackageOf(path string) string {
	base := filepath.Base(path)
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return base
}

// ReadBinary reads the classes registered by the native module at path: a
// PE (.dll), an ELF shared object (.so) or an MSVC import library (.lib). It
// opens regular files only, so a FIFO or device never blocks it, and nothing
// in the file is ever executed.
func ReadBinary(path string) (*Binary, error) {
	f, err := fsutil.OpenRegular(path)
	var nr *fsutil.NotRegularError
	switch {
	case errors.As(err, &nr): // the message names the path once
		return nil, fmt.Errorf("native: %s: %w", path, &fsutil.NotRegularError{Mode: nr.Mode})
	case err != nil:
		return nil, fmt.Errorf("native: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("native: %w", err)
	}
	return NewBinary(f, st.Size(), path)
}

// NewBinary reads the classes registered by the native module in r, which
// holds size bytes; path names it in errors and gives the package
// (PackageOf). Corrupt input gives a *FormatError.
func NewBinary(r io.ReaderAt, size int64, path string) (*Binary, error) {
	if size < 0 || size > MaxFileSize {
		return nil, bad(path, 0, "file size %d is outside 0..%d", size, MaxFileSize)
	}
	var magic [8]byte
	n, err := r.ReadAt(magic[:], 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("native: %s: %w", path, err)
	}
	b := &Binary{Path: path, Package: PackageOf(path)}
	var syms []string
	switch {
	case n >= 2 && string(magic[:2]) == "MZ":
		b.Method = MethodPE
		syms, err = peExports(r, size, path)
	case n >= 4 && string(magic[:4]) == "\x7fELF":
		b.Method = MethodELF
		syms, err = elfSymbols(r, size, path)
	case n == 8 && string(magic[:]) == "!<arch>\n":
		b.Method = MethodImportLib
		syms, err = importLibSymbols(r, size, path, b.Package)
	case size == 0:
		return nil, bad(path, 0, "the file is empty (0 bytes)")
	default:
		if real, ok := fsutil.LFSPointer(r, size); ok {
			return nil, &LFSPointerError{Path: path, Size: real}
		}
		return nil, bad(path, 0, "not a PE, ELF or import library file (starts % x)", magic[:n])
	}
	if errors.Is(err, errNoTable) {
		b.Method = MethodByteScan
		b.Classes, err = scanBytes(r, size, path)
		if err != nil {
			return nil, err
		}
		return b, nil
	}
	if err != nil {
		return nil, err
	}
	var classes []string
	for _, s := range syms {
		if c, ok := ClassFromSymbol(s); ok {
			classes = append(classes, c)
		}
	}
	b.Classes = sortClasses(classes)
	return b, nil
}

// errNoTable: the file is well-formed but has no export table or symbols.
var errNoTable = errors.New("no export table or symbols")

// compareFold orders names case-insensitively, then by spelling so the
// order is total.
func compareFold(a, b string) int {
	return cmp.Or(strings.Compare(strings.ToLower(a), strings.ToLower(b)), strings.Compare(a, b))
}

// sortClasses sorts names case-insensitively and drops later spellings of
// a name already present (ignoring case).
func sortClasses(names []string) []string {
	slices.SortStableFunc(names, fold.Compare)
	return slices.CompactFunc(names, strings.EqualFold)
}

// FindBinaries lists the native modules in dirs: regular files whose names
// end in .dll or .so (any case), not recursing. The result is sorted and
// has no duplicates (a folder given twice). A folder that does not exist
// is skipped; one that cannot be read is an error.
func FindBinaries(dirs []string) ([]string, error) {
	listed := map[string]bool{}
	var out []string
	for _, dir := range dirs {
		// The same folder may be given twice, spelled differently (the
		// ini's folder and a Paths folder "../System"): listed once.
		key := absPath(dir)
		if listed[key] {
			continue
		}
		listed[key] = true
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("native: %w", err)
		}
		for _, e := range entries {
			ext := strings.ToLower(filepath.Ext(e.Name()))
			if ext != ".dll" && ext != ".so" {
				continue
			}
			p := filepath.Join(dir, e.Name())
			if !e.Type().IsRegular() {
				// a symlink counts when it leads to a regular file
				st, err := os.Stat(p)
				if err != nil || !st.Mode().IsRegular() {
					continue
				}
			}
			out = append(out, filepath.Clean(p))
		}
	}
	slices.Sort(out)
	return out, nil
}

// readAt reads exactly len(buf) bytes at off or reports where the file ended.
func readAt(r io.ReaderAt, buf []byte, off int64, path, what string) error {
	n, err := r.ReadAt(buf, off)
	if n == len(buf) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return bad(path, off, "%s: file ends after %d of %d bytes", what, n, len(buf))
	}
	return fmt.Errorf("native: %s: %w", path, err)
}

// cString returns the NUL-terminated string at the start of b, or false
// when b holds no NUL within maxSymbolLen bytes.
func cString(b []byte) (string, bool) {
	s, ok := cBytes(b)
	return string(s), ok
}

// cBytes is cString without the copy: the bytes before the NUL.
func cBytes(b []byte) ([]byte, bool) {
	if len(b) > maxSymbolLen+1 {
		b = b[:maxSymbolLen+1]
	}
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return nil, false
	}
	return b[:i], true
}
