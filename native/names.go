package native

import "strings"

const autoclass = "autoclass"

// maxSymbolLen caps the symbol and class names this package looks at; a
// longer name is skipped, never allocated for.
const maxSymbolLen = 4096

// ClassFromSymbol returns the class a symbol left by IMPLEMENT_CLASS
// registers: autoclass<Prefix><Name> with Prefix A, U or F names class
// Name. It understands the plain C name (autoclassUObject, as UE1 and UE2
// export it), a C-decorated one (_autoclassUObject in an import library),
// the MSVC (?autoclassUObject@UObject@@2VUClass@@A) and Itanium
// (_ZN7UObject16autoclassUObjectE) manglings of a static data member, and
// the gcc 2.95 forms (_7UObject.autoclassUObject, autoclassUObject__7UObject).
// ok is false for any other symbol.
func ClassFromSymbol(sym string) (class string, ok bool) {
	if len(sym) > maxSymbolLen || !strings.Contains(sym, autoclass) {
		return "", false
	}
	var ident string
	switch {
	case strings.HasPrefix(sym, "_Z"):
		ident = itaniumIdent(sym)
	case strings.HasPrefix(sym, "?"):
		// MSVC: ?name@scope@@type; the unqualified name runs to the first '@'.
		ident, _, _ = strings.Cut(sym[1:], "@")
	default:
		ident = plainIdent(sym)
	}
	if !strings.HasPrefix(ident, autoclass) {
		return "", false
	}
	return classFromIdent(ident[len(autoclass):])
}

// classFromIdent takes <Prefix><Name> apart.
func classFromIdent(s string) (string, bool) {
	if len(s) < 2 || (s[0] != 'A' && s[0] != 'U' && s[0] != 'F') || s[1] >= '0' && s[1] <= '9' {
		return "", false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return "", false
		}
	}
	return s[1:], true
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}

// itaniumIdent returns the component of an Itanium-mangled name
// (_Z[N[rVK]*]<len><id>...[E]) that starts with "autoclass", or "". The
// length prefix decides where a component ends: a trailing E or a letter
// of the next component is never part of it.
func itaniumIdent(sym string) string {
	s := strings.TrimPrefix(sym[2:], "L") // internal linkage
	nested := strings.HasPrefix(s, "N")
	if nested {
		s = strings.TrimLeft(s[1:], "rVK")
	}
	for len(s) > 0 && s[0] >= '0' && s[0] <= '9' {
		n, i := 0, 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			n = n*10 + int(s[i]-'0')
			i++
			if n > maxSymbolLen {
				return ""
			}
		}
		if n == 0 || i+n > len(s) {
			return ""
		}
		id := s[i : i+n]
		if strings.HasPrefix(id, autoclass) {
			return id
		}
		if !nested {
			return ""
		}
		s = s[i+n:]
	}
	return ""
}

// plainIdent handles unmangled and gcc 2.95-mangled names: the identifier
// starting at "autoclass", where the name follows a '.' or '$' scope
// separator (_7UObject.autoclassUObject) or leading underscores
// (_autoclassUObject, __imp__autoclassUObject), and a gcc 2.95 "__<digit>"
// or "__Q" qualifier suffix is not part of it.
func plainIdent(sym string) string {
	i := strings.LastIndex(sym, autoclass)
	if i > 0 {
		switch sym[i-1] {
		case '.', '$':
		case '_':
			// only leading underscores may precede it: _autoclassX, __imp__autoclassX
			pre := strings.TrimPrefix(sym[:i], "__imp_")
			if strings.Trim(pre, "_") != "" {
				return ""
			}
		default:
			return ""
		}
	}
	id := sym[i:]
	for j := len(autoclass); j+2 < len(id); j++ {
		if id[j] == '_' && id[j+1] == '_' {
			if c := id[j+2]; c >= '0' && c <= '9' || c == 'Q' || c == 't' {
				return id[:j]
			}
		}
	}
	return id
}
