package structval

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	fs, err := Parse(`"(bEnabled=True,GameName="Capture the Flag",MutatorList="Botpack.A,Botpack.B",Packages="")"`)
	if err != nil {
		t.Fatal(err)
	}
	want := []Field{{"bEnabled", "True"}, {"GameName", "Capture the Flag"}, {"MutatorList", "Botpack.A,Botpack.B"}, {"Packages", ""}}
	if !reflect.DeepEqual(fs, want) {
		t.Errorf("have %q, want %q", fs, want)
	}
	if v, ok := Get(fs, "gamename"); !ok || v != "Capture the Flag" {
		t.Errorf("Get = %q, %v", v, ok)
	}
	for _, tc := range []struct{ in, err string }{
		{"A=B", "not a parenthesised list"},
		{"(Name)", "has no '='"},
		{`(Name="x)`, "unterminated quote"},
		{`(Name="x"y)`, "after the closing quote"},
	} {
		if _, err := Parse(tc.in); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Parse(%q) = %v, want %q", tc.in, err, tc.err)
		}
	}
}

func TestList(t *testing.T) {
	for in, want := range map[string][]string{
		`("SoldierSkins","Botpack", "de")`: {"SoldierSkins", "Botpack", "de"},
		`A, B,,C`:                          {"A", "B", "C"},
		``:                                 nil,
	} {
		if got := List(in); !reflect.DeepEqual(got, want) {
			t.Errorf("List(%q) = %q, want %q", in, got, want)
		}
	}
}
