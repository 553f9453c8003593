package format_test

import (
	"bytes"
	"fmt"

	"github.com/upkdeps/upkdeps/format"
)

// Build a small package with the Builder, write it, and read it back.
func ExampleNewFile() {
	b := format.NewBuilder(69, 0)
	b.File.GUID = format.GUID{0x4770B884, 0x11D38E3E, 0x100067B9, 0xF6F8975A}
	actor := b.ImportPath("Engine.Actor", "Core", "Class")
	b.Export(0, "MyActor", 0, actor, 128)
	img, err := format.Marshal(b.File)
	if err != nil {
		panic(err)
	}

	f, err := format.NewFile(bytes.NewReader(img), int64(len(img)))
	if err != nil {
		panic(err)
	}
	fmt.Println(f.Version, f.GUID, f.Dependencies())
	for i := range f.Imports {
		ref := format.ImportRef(i)
		class, pkg := f.ClassOf(ref)
		fmt.Printf("import %s (%s.%s)\n", f.ObjectPath(ref), pkg, class)
	}
	// Output:
	// 69 4770B88411D38E3E100067B9F6F8975A [Engine]
	// import Engine (Core.Package)
	// import Engine.Actor (Core.Class)
}
