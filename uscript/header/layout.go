package header

import (
	"bytes"
	"strings"
)

// Layout is the header layout of one engine generation.
type Layout struct {
	Name string
	// AlignVectors writes GCC_ALIGN(16) instead of GCC_PACK(4) on a Vector
	// or Plane member that follows a bool (Undying's build aligns them).
	AlignVectors bool
	// ShortDeclareClass writes DECLARE_CLASS(AFoo,ABar,Flags) without the
	// package, as Unreal 2xx-era builds (Wheel of Time) do.
	ShortDeclareClass bool
	// UE2 selects the UE2 layout: SUPPORTS_PRAGMA_PACK, names sorted,
	// GCC_PACK after bytes too, TArrayNoInit members, delegate members,
	// return values cleared first, and the NATIVE_DEFS_ONLY, NATIVES_ONLY
	// and VERIFY_CLASS_SIZES sections at the end.
	UE2 bool
	// Early selects, with UE2, the layout of the UE2 builds before
	// UT2003's format (XIII's headers): AUTOGENERATE_NAME lines in
	// name-table order, GCC_PACK(4) not on a first member for being first,
	// event thunks that assign a bool parameter plainly and copy a static
	// array from its address (as UE1), name constants without quotes, and
	// the static-link block (#if __STATIC_LINK, #ifndef <PKG>_NATIVE_DEFS,
	// NATIVES_ONLY) instead of UT2004's three sections.
	Early bool
	// PackAfterByte, with Early, packs the first non-byte member after a
	// byte as UT2004 does; XIII's build does not.
	PackAfterByte bool
	// SizeChecks, with Early, writes the VERIFY_CLASS_SIZES section an
	// early UE2 header may have (XIII's have none): a
	// VERIFY_CLASS_SIZE_NODIE line for each exported class only, the
	// native noexport ones (UEngine...) left out, after the static-link
	// block or, with SizeChecksInStaticLink, at its end, as the existing
	// header has it.
	SizeChecks, SizeChecksInStaticLink bool
}

// The layouts Header knows.
var (
	// UE1 is the layout of UT99-era engines (ucc make -h of v4xx builds).
	UE1 = Layout{Name: "ue1"}
	// Undying is UE1 with 16-byte aligned vectors, as Clive Barker's
	// Undying writes it.
	Undying = Layout{Name: "undying", AlignVectors: true}
	// UE1Early is UE1 before UT (Unreal 2xx builds, Wheel of Time):
	// DECLARE_CLASS without the package.
	UE1Early = Layout{Name: "ue1-early", ShortDeclareClass: true}
	// UE2 is the layout of UT2004-era engines (build 3369, as the public
	// native SDK's headers show it).
	UE2 = Layout{Name: "ue2", UE2: true}
	// UE2Early is the layout of UE2 builds older than UT2003's header
	// format, as XIII's published headers show it.
	UE2Early = Layout{Name: "ue2-early", UE2: true, Early: true}
)

// LayoutByName returns the layout called name ("ue1", "ue1-early",
// "undying", "ue2", "ue2-early").
func LayoutByName(name string) (Layout, bool) {
	for _, l := range []Layout{UE1, UE1Early, Undying, UE2, UE2Early} {
		if strings.EqualFold(l.Name, name) {
			return l, true
		}
	}
	return Layout{}, false
}

var (
	reDeclareClass3 = &lazyRegexp{expr: `(?m)^\s+DECLARE_(?:ABSTRACT_)?CLASS\(\w+,\w+,[^,)]*\)`}
	// A byte member followed by a packed member that is neither a byte
	// nor a bool: UT2004's "first non-byte after a byte".
	rePackAfterByte = &lazyRegexp{expr: `(?m)^    BYTE \w+(?:\[\d+\])?;\r?\n    (?:[^B\s]|B[^IY])\S*(?: \S+)*? \w+(?:\[\d+\])? GCC_PACK\(4\);`}
)

// DetectLayout returns the layout the headers were written in (the
// generated headers of one game, in compile order), from what each shows:
// #if _MSC_VER (UE1) or #if SUPPORTS_PRAGMA_PACK (UE2) around the pragma,
// DECLARE_CLASS with three arguments (ue1-early), GCC_ALIGN(16)
// (undying), #if __STATIC_LINK (ue2-early) or UT2004's thunks and tables
// (ue2), and of ue2-early whether a VERIFY_CLASS_SIZES section is there
// and where. The first header that shows its generation decides it; ok is
// false when none does.
func DetectLayout(headers ...[]byte) (Layout, bool) {
	gen := 0
	var short, align, static, byteRule, sizes, sizesInStatic bool
	for _, h := range headers {
		head := h[:min(len(h), 4096)]
		switch {
		case gen != 0:
		case bytes.Contains(head, []byte("#if _MSC_VER")):
			gen = 1
		case bytes.Contains(head, []byte("#if SUPPORTS_PRAGMA_PACK")):
			gen = 2
		default:
			continue
		}
		short = short || reDeclareClass3.get().Match(h)
		align = align || bytes.Contains(h, []byte("GCC_ALIGN(16)"))
		static = static || bytes.Contains(h, []byte("\n#if __STATIC_LINK"))
		byteRule = byteRule || rePackAfterByte.get().Match(h)
		if v := bytes.Index(h, []byte("\n#ifdef VERIFY_CLASS_SIZES")); v >= 0 && !sizes {
			sizes = true
			end := bytes.Index(h, []byte("\n#endif // __STATIC_LINK"))
			sizesInStatic = v < end
		}
	}
	switch {
	case gen == 1 && align:
		l := Undying
		l.ShortDeclareClass = short
		return l, true
	case gen == 1 && short:
		return UE1Early, true
	case gen == 1:
		return UE1, true
	case gen == 2 && static:
		l := UE2Early
		l.PackAfterByte = byteRule
		l.SizeChecks, l.SizeChecksInStaticLink = sizes, sizesInStatic
		return l, true
	case gen == 2:
		return UE2, true
	}
	return Layout{}, false
}
