package uscript

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// genClass writes a plausible UnrealScript class of about lines lines:
// a header comment, the declaration, #exec lines, variables, a struct,
// functions with locals, casts, literals, comments and strings, a state,
// and defaultproperties. It names classes from others (which may be in
// other packages) so that resolution has work to do.
func genClass(r *rand.Rand, pkg, name, super string, others []string, lines int) string {
	var b strings.Builder
	pick := func() string { return others[r.IntN(len(others))] }
	fmt.Fprintf(&b, "//=============================================================================\n// %s.\n// Generated for upkdeps tests.\n//=============================================================================\n", name)
	fmt.Fprintf(&b, "class %s extends %s\n\tconfig(User)\n\tdependson(%s);\n\n", name, super, pick())
	fmt.Fprintf(&b, "#exec OBJ LOAD FILE=..\\Textures\\%sTex.utx\n#exec AUDIO IMPORT FILE=\"Sounds\\%s.wav\" NAME=%sSound\n\n", pkg, name, name)
	fmt.Fprintf(&b, "var() config class<%s> SpawnClass;\nvar array<%s> Items;\nvar(Display) %s Helper;\nvar(Display) Texture Icon;\nvar transient int Count, Limit[4];\n", pick(), pick(), pick())
	fmt.Fprintf(&b, "var localized string Message;\nvar %s.EType Kind;\n\nstruct SEntry\n{\n\tvar %s Owner;\n\tvar float Time;\n};\nvar array<SEntry> Entries;\n\n", super, pick())
	n := b.Len()
	for fn := 0; strings.Count(b.String()[n:], "\n") < lines-30; fn++ {
		fmt.Fprintf(&b, "/* Function%d does things.\n   It used to call %s.default.Stuff /* nested */ here. */\n", fn, pick())
		fmt.Fprintf(&b, "simulated function %s Function%d(%s Other, optional int N, out string S)\n{\n", pick(), fn, pick())
		fmt.Fprintf(&b, "\tlocal %s A;\n\tlocal int i;\n\tlocal vector V;\n\n", pick())
		fmt.Fprintf(&b, "\tA = %s(Other);\n\tif (A == None || A.bDeleteMe) // the cast failed\n\t\treturn None;\n", pick())
		fmt.Fprintf(&b, "\tfor (i = 0; i < Items.Length; i++)\n\t{\n\t\tif (Items[i].IsA('%s') && Items[i].Health > 0)\n\t\t\tCount++;\n\t}\n", pick())
		fmt.Fprintf(&b, "\tS = \"Function%d: class'%s' is \" $ string(Count) $ \" // not code\";\n", fn, pick())
		fmt.Fprintf(&b, "\tV = Other.Location + vect(0,0,1) * Limit[0];\n\tSpawn(class'%s', self,, V, rot(0,0,0));\n", pick())
		fmt.Fprintf(&b, "\tLevel.Game.Broadcast(self, Message @ S, 'Say');\n\tSetTimer(%d.5, false);\n\treturn %s.static.Find(A);\n}\n\n", fn, pick())
	}
	fmt.Fprintf(&b, "state Active\n{\n\tignores Touch;\n\n\tfunction Timer()\n\t{\n\t\tGotoState('Idle');\n\t}\nBegin:\n\tSleep(1.0);\n\tGoto('Begin');\n}\n\n")
	fmt.Fprintf(&b, "defaultproperties\n{\n\tSpawnClass=Class'%s.%s'\n\tIcon=Texture'%sTex.Icons.%s'\n\tMessage=\"Hello, {world} // not a comment\"\n\tCount=3\n\tEntries(0)=(Time=1.5)\n}\n", pkg, name, pkg, name)
	return b.String()
}

// genTree writes packages*perPkg classes under root as a game root of
// packages Pkg00, Pkg01, ... in build order; each package uses classes of
// the earlier ones and of Engine. It returns the package names and the
// total source size.
func genTree(t testing.TB, root string, packages, perPkg int, seed uint64) ([]string, int) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, seed))
	engine := []string{"Actor", "Pawn", "Weapon", "Inventory", "Info", "Controller", "PlayerController", "HUD"}
	known := append([]string(nil), engine...)
	files := map[string]string{}
	var names []string
	size := 0
	for p := range packages {
		pkg := fmt.Sprintf("Pkg%02d", p)
		names = append(names, pkg)
		var mine []string
		for c := range perPkg {
			name := fmt.Sprintf("%sClass%03d", pkg, c)
			super := known[r.IntN(len(known))]
			if len(mine) > 0 && r.IntN(2) == 0 {
				super = mine[r.IntN(len(mine))]
			}
			others := append(append([]string(nil), known...), mine...)
			text := genClass(r, pkg, name, super, others, 100+r.IntN(301))
			files[pkg+"/Classes/"+name+".uc"] = text
			size += len(text)
			mine = append(mine, name)
		}
		known = append(known, mine...)
	}
	writeTree(t, root, files)
	return names, size
}

func TestGenClassScans(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	text := genClass(r, "Pkg", "Gen", "Actor", []string{"Pawn", "Weapon"}, 200)
	if n := strings.Count(text, "\n"); n < 180 || n > 260 {
		t.Errorf("generated %d lines, want about 200", n)
	}
	c, err := Scan("Gen.uc", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Diagnostics) > 0 {
		t.Errorf("diagnostics: %v", c.Diagnostics)
	}
	kinds := map[RefKind]bool{}
	for _, ref := range c.Refs {
		kinds[ref.Kind] = true
		if strings.Contains(ref.Text, "not code") && ref.Kind != KindType {
			t.Errorf("reference from a string: %v %q", ref, ref.Text)
		}
	}
	for _, k := range []RefKind{KindExtends, KindDependsOn, KindType, KindLiteral, KindExec} {
		if !kinds[k] {
			t.Errorf("no %s reference in a generated class", k)
		}
	}
}
