//go:build unix

package format

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
)

// TestViewIn: a package read through its folder (Dir, ViewIn) is the View
// of its path, before and after the Dir is closed and for a path outside
// the Dir; a named pipe, a link to a device and a folder named like a
// package are refused as View refuses them; a missing file's error names
// its path.
func TestViewIn(t *testing.T) {
	dir := t.TempDir()
	for i, v := range []uint16{61, 69, 128} {
		img, err := Marshal(sample(v, 0))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, []string{"A.u", "B.utx", "C.ut2"}[i]), img, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	other := t.TempDir()
	img, _ := Marshal(sample(69, 0))
	os.WriteFile(filepath.Join(other, "D.u"), img, 0o644)

	d := OpenDir(dir)
	defer d.Close()
	if d.Path() != dir {
		t.Errorf("Path() = %q, want %q", d.Path(), dir)
	}
	if (d.fd >= 0) != (openDirFD(dir) >= 0) {
		t.Errorf("fd %d", d.fd)
	}
	check := func(path string) {
		t.Helper()
		var a, b Reader
		want, err := a.View(path)
		if err != nil {
			t.Fatal(err)
		}
		have, err := b.ViewIn(d, path)
		if err != nil {
			t.Fatalf("ViewIn(%s): %v", path, err)
		}
		if !reflect.DeepEqual(have.Header(), want.Header()) || !reflect.DeepEqual(have.Imports(), want.Imports()) ||
			!reflect.DeepEqual(have.Exports(), want.Exports()) || have.NameCount() != want.NameCount() || have.PackageName() != want.PackageName() {
			t.Errorf("ViewIn(%s) differs from View", path)
		}
	}
	for _, n := range []string{"A.u", "B.utx", "C.ut2"} {
		check(filepath.Join(dir, n))
	}
	check(filepath.Join(other, "D.u"))

	// What View refuses, ViewIn refuses, with the same error.
	refuse := map[string]string{}
	if err := syscall.Mkfifo(filepath.Join(dir, "Pipe.u"), 0o644); err == nil {
		refuse["Pipe.u"] = "pipe"
	}
	if _, err := os.Stat("/dev/null"); err == nil && os.Symlink("/dev/null", filepath.Join(dir, "Null.u")) == nil {
		refuse["Null.u"] = "device"
	}
	os.Mkdir(filepath.Join(dir, "Folder.u"), 0o755)
	refuse["Folder.u"] = "folder"
	for n := range refuse {
		path := filepath.Join(dir, n)
		var rd Reader
		_, err := rd.ViewIn(d, path)
		_, want := rd.View(path)
		var nr *NotRegularError
		if !errors.As(err, &nr) || want == nil || err.Error() != want.Error() {
			t.Errorf("ViewIn(%s): have %v, want %v", n, err, want)
		}
	}
	var rd Reader
	if _, err := rd.ViewIn(d, filepath.Join(dir, "Missing.u")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: have %v, want not exist", err)
	}
	d.Close()
	check(filepath.Join(dir, "A.u")) // by path now
}
