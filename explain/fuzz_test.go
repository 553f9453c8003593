package explain

import (
	"bytes"
	"context"
	"testing"
)

// FuzzExplain: any bytes read as a log give a report, never a panic, and
// every explained or not-understood line is a line read.
func FuzzExplain(f *testing.F) {
	for _, s := range []string{ut99Uses, ut99CantFind, ut99Mismatch, ut99Loaded, ut99Import, ut99CantFindFile, ut99Unknown,
		ut2004CantFind, ut2004Import, ut2004CantFindQuoted, ue2MissingObject, ue2Unknown} {
		f.Add([]byte(s + "\r\n"))
		f.Add(utf16LE(s + "\r\n"))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := Explain(context.Background(), bytes.NewReader(data), "fuzz.log", Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range append(rep.Explained, rep.NotUnderstood...) {
			if l.Number < 1 || l.Number > rep.Lines {
				t.Fatalf("line %d of %d", l.Number, rep.Lines)
			}
		}
	})
}
