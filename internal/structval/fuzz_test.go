package structval

import "testing"

// FuzzParse: any value parses or fails with an error, never a panic, and
// List never returns an empty item.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`(Name=MyMod.MutA,Class=Class,MetaClass=Engine.Mutator,Description="A, B")`,
		`"(bEnabled=True,GameName="CTF",Packages="A,B")"`, `("A","B")`, `(Name="x`, `()`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		Parse(s)
		for _, item := range List(s) {
			if item == "" {
				t.Fatalf("List(%q) has an empty item", s)
			}
		}
	})
}
