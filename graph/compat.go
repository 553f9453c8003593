package graph

import "strings"

// engineCompat is an import that an engine's linker accepts although the
// export it names has another class: compatibility code for packages built
// against an older build of the same game.
type engineCompat struct {
	pkg, path          string // the export: Engine, Actor.Touching
	imported, exported string // the classes: Core.ObjectProperty, Core.ArrayProperty
	maxVersion         uint16 // the exporting file's package version at most (UE1: 69)
	note               string // what the engine does, for the message
}

// engineCompats are the documented compatibilities.
//
// UT v469 made Actor.Touching a dynamic array (ArrayProperty; v436 has a
// fixed Touching[4], an ObjectProperty), and its linker maps the old
// import of packages built against v436: v469's Core binary (Core.dll and
// Core.so alike, as wide strings) names Engine.Actor.Touching beside its
// compatibility entry points CheckExportCompat, HackGetImportIndex and
// ArrayCompatSave (TestCorpusEngineCompat reads them), and such mods load
// and run on v469 servers. A public reimplementation says the same of
// v469c: Actor.Touching "has been changed from a static array to
// dynamic-ish array that behaves like a static array" (SurrealEngine pull
// request 286, which splits its touch code paths for 469 and the rest).
var engineCompats = []engineCompat{{
	pkg: "Engine", path: "Actor.Touching", imported: "Core.ObjectProperty", exported: "Core.ArrayProperty", maxVersion: 69,
	note: "UT v469's linker maps v436's Actor.Touching (ObjectProperty) to its dynamic array: the package loads, but was built against v436",
}}

// compatNote returns what the engine does with an import of path from to
// as class imported, exported as exported, when a compatibility covers it
// ("" when none does).
func compatNote(to *Package, path, imported, exported string) string {
	for _, c := range engineCompats {
		if strings.EqualFold(c.pkg, to.Name) && to.Version <= c.maxVersion && strings.EqualFold(c.path, path) &&
			strings.EqualFold(c.imported, imported) && strings.EqualFold(c.exported, exported) {
			return c.note
		}
	}
	return ""
}
