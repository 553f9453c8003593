package header

import (
	"slices"
	"strings"
)

// regEntry is a class the native module registers.
type regEntry struct {
	cpp    string
	c      *class // nil for a class without script
	lookup bool
}

// nativeTables writes UE2's tables for statically linked builds: the
// native types of the exported classes and of the classes with native
// functions, the registrants macro (every class
// the native module registers, C++-only ones too), the native function
// maps and the class size checks (the script classes that are native,
// noexport ones too). All come in the module's registration order: the
// existing header's, else that of the AUTOGENERATE_FUNCTION lines, with
// what it lacks after.
func (w *writer) nativeTables(order []*class, h *Hints) {
	g := w.g
	pkg := w.pkg.name
	// The script classes the module registers: exported ones in order,
	// then the noexport ones.
	script := slices.Clone(order)
	seen := map[*class]bool{}
	for _, c := range order {
		seen[c] = true
	}
	for _, c := range w.pkg.classes {
		if c.native && !seen[c] {
			script = append(script, c)
		}
	}
	var master []regEntry
	done := map[*class]bool{}
	if h != nil {
		byName := map[string]*class{}
		for _, c := range script {
			byName[strings.ToLower(g.cppName(c))] = c
		}
		names := h.Registrants
		if len(names) == 0 {
			names = h.RegClasses
		}
		for _, cpp := range names {
			if c := byName[strings.ToLower(cpp)]; c != nil {
				if !done[c] {
					done[c] = true
					master = append(master, regEntry{g.cppName(c), c, len(natives(c)) > 0})
				}
				continue
			}
			if g.declaredClass(pkg, cpp) != nil {
				continue // a script class no longer native
			}
			master = append(master, regEntry{cpp, nil, h.Lookups[strings.ToLower(cpp)]})
		}
	}
	for _, c := range script {
		if !done[c] {
			master = append(master, regEntry{g.cppName(c), c, len(natives(c)) > 0})
		}
	}
	if g.layout.Early {
		w.staticLink(master)
		return
	}
	w.printf("\n\n#ifdef NATIVE_DEFS_ONLY\n")
	for _, e := range master {
		// The exported classes and the noexport ones with natives.
		if e.c != nil && (e.c.exported || len(natives(e.c)) > 0) {
			w.printf("DECLARE_NATIVE_TYPE(%s,%s);\n", pkg, e.cpp)
		}
	}
	w.printf("\n#define AUTO_INITIALIZE_REGISTRANTS_%s \\\n", strings.ToUpper(pkg))
	for _, e := range master {
		w.printf("\t%s::StaticClass(); \\\n", e.cpp)
		if e.lookup {
			w.printf("\tGNativeLookupFuncs[Lookup++] = &Find%s%sNative; \\\n", pkg, e.cpp)
		}
	}
	w.printf("\n#endif // NATIVE_DEFS_ONLY\n\n#ifdef NATIVES_ONLY\n")
	w.nativeInfos(master)
	w.printf("#endif // NATIVES_ONLY\n")
	w.sizeChecks(master)
}

// sizeChecks writes the VERIFY_CLASS_SIZES section, after a blank line:
// a size check for each script class the module registers, in its order.
// UT2004 checks the noexport ones too; the early UE2 builds only the
// exported ones, those the header declares (issue 29).
func (w *writer) sizeChecks(master []regEntry) {
	w.printf("\n#ifdef VERIFY_CLASS_SIZES\n")
	for _, e := range master {
		if e.c != nil && (e.c.exported || !w.g.layout.Early) {
			w.printf("VERIFY_CLASS_SIZE_NODIE(%s)\n", e.cpp)
		}
	}
	w.printf("#endif // VERIFY_CLASS_SIZES\n")
}

// nativeInfos writes the native function map of each registered class
// with native functions.
func (w *writer) nativeInfos(master []regEntry) {
	pkg := w.pkg.name
	for _, e := range master {
		if e.c == nil {
			continue
		}
		fs := natives(e.c)
		if len(fs) == 0 {
			continue
		}
		w.printf("NATIVE_INFO(%s) G%s%sNatives[] = \n{ \n", e.cpp, pkg, e.cpp)
		for _, f := range fs {
			w.printf("\tMAP_NATIVE(%s,exec%s)\n", e.cpp, w.g.funcName(f))
		}
		w.printf("\t{NULL,NULL}\n};\nIMPLEMENT_NATIVE_HANDLER(%s,%s);\n\n", pkg, e.cpp)
	}
}

// staticLink writes the early UE2 builds' tables: the native types and
// the registrants macro inside #ifndef <PKG>_NATIVE_DEFS (its #endif
// comment keeps the package's spelling), the native function maps inside
// NATIVES_ONLY, all inside #if __STATIC_LINK (XIII's headers); the size
// checks where the layout has them (XIII's have none).
func (w *writer) staticLink(master []regEntry) {
	pkg := w.pkg.name
	upper := strings.ToUpper(pkg)
	w.printf("\n#if __STATIC_LINK\n#ifndef %s_NATIVE_DEFS\n#define %s_NATIVE_DEFS\n\n", upper, upper)
	for _, e := range master {
		if e.c != nil && (e.c.exported || len(natives(e.c)) > 0) {
			w.printf("DECLARE_NATIVE_TYPE(%s,%s);\n", pkg, e.cpp)
		}
	}
	w.printf("\n#define AUTO_INITIALIZE_REGISTRANTS_%s \\\n", upper)
	for _, e := range master {
		w.printf("\t%s::StaticClass(); \\\n", e.cpp)
		if e.lookup {
			w.printf("\tGNativeLookupFuncs[Lookup++] = &Find%s%sNative; \\\n", pkg, e.cpp)
		}
	}
	w.printf("\n#endif // %s_NATIVE_DEFS\n\n#ifdef NATIVES_ONLY\n", pkg)
	w.nativeInfos(master)
	w.printf("#endif // NATIVES_ONLY\n")
	l := w.g.layout
	if l.SizeChecks && l.SizeChecksInStaticLink {
		w.sizeChecks(master)
	}
	w.printf("#endif // __STATIC_LINK\n")
	if l.SizeChecks && !l.SizeChecksInStaticLink {
		w.sizeChecks(master)
	}
}
