package textw

import (
	"errors"
	"io"
	"strings"
	"testing"
)

type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errors.New("disk full")
	}
	f.n--
	return len(p), nil
}

func TestWriterKeepsFirstError(t *testing.T) {
	var b strings.Builder
	w := &Writer{W: &b}
	w.Printf("%d %s\n", 2, Plural(2, "file", "files"))
	w.Printf("%d %s\n", 1, Plural(1, "file", "files"))
	if w.Err != nil || b.String() != "2 files\n1 file\n" {
		t.Fatalf("got %q, %v", b.String(), w.Err)
	}
	f := &failAfter{n: 1}
	w = &Writer{W: f}
	w.Printf("a")
	w.Printf("b")
	w.Printf("c")
	if w.Err == nil || w.Err.Error() != "disk full" || f.n != 0 {
		t.Fatalf("err %v", w.Err)
	}
}

func TestDoAndGUID(t *testing.T) {
	var b strings.Builder
	w := &Writer{W: &b}
	w.Do(func(x io.Writer) error { _, err := io.WriteString(x, GUID("")+" "+GUID("AB")); return err })
	if w.Err != nil || b.String() != "(no GUID) AB" {
		t.Fatalf("got %q, %v", b.String(), w.Err)
	}
	w.Err = errors.New("earlier")
	w.Do(func(io.Writer) error { t.Fatal("called after an error"); return nil })
}
