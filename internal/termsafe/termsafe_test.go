package termsafe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain Name.u", "plain Name.u"},
		{"tab\tand\nnewline", "tab\tand\nnewline"},
		{"\x1b]0;owned\x07\x1b[2J", `\x1b]0;owned\x07\x1b[2J`},
		{"cr\rhides", `cr\x0dhides`},
		{"del\x7f", `del\u007f`},
		{"c1 \u009b2J", `c1 \u009b2J`},
		{"bidi \u202egnp.exe", `bidi \u202egnp.exe`},
		{"bad \xff\x9b utf-8", `bad \xff\x9b utf-8`},
		{"umlaut Ärger", "umlaut Ärger"},
	}
	for _, tt := range tests {
		if have := String(tt.in); have != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, have, tt.want)
		}
		var buf bytes.Buffer
		w := &Writer{W: &buf}
		if n, err := w.Write([]byte(tt.in)); err != nil || n != len(tt.in) || buf.String() != tt.want {
			t.Errorf("Writer(%q): %d %v %q", tt.in, n, err, buf.String())
		}
	}
	var buf bytes.Buffer
	(&Writer{W: &buf, KeepCR: true}).Write([]byte("50%\r\x1b"))
	if buf.String() != "50%\r\\x1b" {
		t.Errorf("KeepCR: %q", buf.String())
	}
}

// TestJSONStaysJSON: JSON written through a Writer decodes to the same
// value, whatever control characters its strings held.
func TestJSONStaysJSON(t *testing.T) {
	v := map[string]string{"name": "\x1b[2J\u009b\u202eevil\x7f\xff"}
	var raw, safe bytes.Buffer
	json.NewEncoder(&raw).Encode(v)
	json.NewEncoder(&Writer{W: &safe}).Encode(v)
	var back, want map[string]string
	if err := json.Unmarshal(safe.Bytes(), &back); err != nil {
		t.Fatalf("%v: %s", err, safe.Bytes())
	}
	json.Unmarshal(raw.Bytes(), &want)
	if back["name"] != want["name"] || bytes.ContainsAny(safe.Bytes(), "\x1b\u009b\u202e") {
		t.Errorf("have %q (%s), want %q", back["name"], safe.Bytes(), want["name"])
	}
}

// reference is String written rune by rune, the way it was first written:
// the fast path must give the same bytes.
func reference(s string, keepCR bool) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case escape(r, keepCR) != "":
			b.WriteString(escape(r, keepCR))
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// FuzzWriter: String and Writer give the reference's bytes for any input,
// and what they write holds no character a terminal acts on.
func FuzzWriter(f *testing.F) {
	for _, s := range []string{"plain", "a\x1b[2Jb", "Ärger\u009b\u202e", "\xff\xfe", "50%\r", "é\xc3", "\t\n\x7f"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, keepCR bool) {
		want := reference(s, keepCR)
		if !keepCR {
			if have := String(s); have != want {
				t.Fatalf("String(%q) = %q, want %q", s, have, want)
			}
		}
		var buf bytes.Buffer
		if n, err := (&Writer{W: &buf, KeepCR: keepCR}).Write([]byte(s)); err != nil || n != len(s) {
			t.Fatalf("Write(%q): %d, %v", s, n, err)
		}
		if buf.String() != want {
			t.Fatalf("Writer(%q) = %q, want %q", s, buf.String(), want)
		}
		for _, r := range buf.String() {
			if r < 0x20 && r != '\n' && r != '\t' && !(r == '\r' && keepCR) || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x202e {
				t.Fatalf("Writer(%q) left %U raw: %q", s, r, buf.String())
			}
		}
	})
}

// BenchmarkWriter: what the escape costs on the usual output, JSON of
// ASCII names with some Latin-1 (info --json writes megabytes of it).
func BenchmarkWriter(b *testing.B) {
	line := []byte(strings.Repeat(`      "path": "Engine.Texture", "class": "Ärger",`+"\n", 1300))
	b.SetBytes(int64(len(line)))
	w := &Writer{W: io.Discard}
	for b.Loop() {
		w.Write(line)
	}
}
