package header

import (
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/uscript"
)

// compiledEngine is an Engine.u without sources: Actor (with a struct and
// an event), Interactions and Interaction (with the events a mod
// overrides), and a name spelled the engine's way.
func compiledEngine() *format.File {
	b := format.NewBuilder(69, 0)
	object := b.ImportPath("Core.Object", "Core", "Class")
	fn := b.ImportPath("Core.Function", "Core", "Class")
	st := b.ImportPath("Core.Struct", "Core", "Class")
	b.Name("myMarker")
	actor := b.Export(0, "Actor", 0, object, 100)
	b.Export(actor, "PointRegion", st, 0, 10)
	b.Export(actor, "Touch", fn, 0, 10)
	inters := b.Export(0, "Interactions", 0, object, 10)
	inter := b.Export(0, "Interaction", 0, inters, 10)
	b.Export(inter, "Initialized", fn, 0, 10)
	b.Export(inter, "Tick", fn, 0, 10)
	return b.File
}

func TestAddCompiled(t *testing.T) {
	g := New(UE1)
	obj, _ := uscript.ReadDecls("Core/Classes/Object.uc", []byte("class Object native noexport;\n"))
	if err := g.Add(Package{Name: "Core", Classes: []*uscript.Decls{obj}}); err != nil {
		t.Fatal(err)
	}
	if err := g.AddCompiled("Engine", compiledEngine()); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := g.Header("Engine"); ok || err != nil {
		t.Errorf("a compiled package got a header: ok %v err %v", ok, err)
	}
	inter, _ := uscript.ReadDecls("Mod/Classes/ModInteraction.uc", []byte(`class ModInteraction extends Interaction native;
var PointRegion Region;
var Actor MyMarker;
event Initialized();
event Fresh();
`))
	act, _ := uscript.ReadDecls("Mod/Classes/ModActor.uc", []byte("class ModActor extends Actor native;\nevent Touch(Actor Other);\nvar int X;\n"))
	if err := g.Add(Package{Name: "Mod", Classes: []*uscript.Decls{inter, act}}); err != nil {
		t.Fatal(err)
	}
	text, _, ok, err := g.Header("Mod")
	if err != nil || !ok {
		t.Fatalf("ok %v err %v", ok, err)
	}
	got := string(text)
	for _, want := range []string{
		"class MOD_API UModInteraction : public UInteraction",
		"class MOD_API AModActor : public AActor",
		"    FPointRegion Region;\n    class AActor* myMarker;\n",
		"    void eventFresh()",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("header lacks %q:\n%s", want, got)
		}
	}
	for _, absent := range []string{"eventInitialized", "eventTouch"} {
		if strings.Contains(got, absent) {
			t.Errorf("header has %s, an override of a compiled parent's event", absent)
		}
	}
}
