package uscript

import "testing"

func TestClassify(t *testing.T) {
	loadTables()
	if len(keywords) < 140 {
		t.Fatalf("%d keywords", len(keywords))
	}
	for w, want := range keywords {
		for _, form := range []string{w, string(lowerBytes([]byte(w))), upper(w)} {
			if have := classify([]byte(form)); have != want {
				t.Errorf("classify(%q) = %d, want %d", form, have, want)
			}
		}
	}
	for _, w := range []string{"", "Actor", "Pawn", "classes", "Functions", "x", "Object", "intx", "var_", "averylongidentifierthatgoesonandonforeverandever"} {
		if have := classify([]byte(w)); have != 0 {
			t.Errorf("classify(%q) = %d, want 0", w, have)
		}
	}
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
