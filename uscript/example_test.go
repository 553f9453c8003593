package uscript_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/upkdeps/upkdeps/uscript"
)

func ExampleScan() {
	src := `class MyWeapon extends Engine.Weapon;
// var Botpack.Enforcer Old;   (a comment: ignored)
#exec OBJ LOAD FILE=..\Textures\MySkins.utx
var class<Projectile> ProjClass;
defaultproperties
{
	Skin=Texture'MySkins.Weapons.Gun'
}
`
	c, err := uscript.Scan("MyWeapon.uc", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range c.Refs {
		fmt.Printf("%d %s %s\n", r.Line, r.Kind, r)
	}
	// Output:
	// 1 extends Engine.Weapon
	// 3 exec ..\Textures\MySkins.utx
	// 4 type Projectile
	// 7 literal Texture'MySkins.Weapons.Gun'
}

func ExampleIndex_Dependencies() {
	root, _ := os.MkdirTemp("", "uscript-example")
	defer os.RemoveAll(root)
	write := func(name, text string) {
		path := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, []byte(text), 0o644)
	}
	write("ModBase/Classes/ModPawn.uc", "class ModPawn extends Pawn;\n")
	write("ModGame/Classes/ModGame.uc", "class ModGame extends GameInfo;\n\nvar class<ModPawn> PawnClass;\n")

	// Compiled packages first, then the sources in EditPackages order.
	idx := uscript.NewIndex(map[string][]string{"Engine": {"Actor", "Pawn", "GameInfo"}})
	var pkgs []*uscript.Package
	for _, name := range []string{"ModBase", "ModGame"} {
		p, err := uscript.ScanPackage(root, name)
		if err != nil {
			fmt.Println(err)
			return
		}
		idx.AddSource(p)
		pkgs = append(pkgs, p)
	}
	for _, p := range pkgs {
		for _, d := range idx.Dependencies(p) {
			for _, e := range d.Evidence {
				fmt.Printf("%s -> %s  %s:%d %q\n", p.Name, d.Package, filepath.Base(e.File), e.Line, e.Text)
			}
		}
	}
	// Output:
	// ModBase -> Engine  ModPawn.uc:1 "class ModPawn extends Pawn;"
	// ModGame -> Engine  ModGame.uc:1 "class ModGame extends GameInfo;"
	// ModGame -> ModBase  ModGame.uc:3 "var class<ModPawn> PawnClass;"
}
