package termsafe

import (
	"bytes"
	"encoding/json"
	"testing"
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
