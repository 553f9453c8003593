package uscript

import "sync"

// Identifier classes. An identifier is looked up lower-cased; anything not
// in this table is an ordinary name that may be a class.
const (
	kwReserved = 1 << iota // never a class name: language keywords and builtin types
	kwModifier             // may precede the type in var, local and parameter declarations
	kwFunction             // starts a function header: function, event, delegate, operators
)

// keywords are the identifiers of the classes above, lower-cased (made
// with kwTable and extTable on first use, not at start: most commands
// never read UnrealScript).
var keywords map[string]uint8

// tablesOnce makes keywords, kwTable and extTable.
var tablesOnce sync.Once

// loadTables makes the keyword tables once; every reader of them calls it.
func loadTables() {
	tablesOnce.Do(func() {
		makeKeywords()
		makeExt()
	})
}

// kwTable is keywords arranged for classify: a few buckets chosen by
// length and first and last letter, so that the common case (not a
// keyword) costs a handful of byte compares and no hashing.
var kwTable [1024][]kwEntry

type kwEntry struct {
	word  string
	flags uint8
}

func kwSlot(n int, first, last byte) int {
	return (n*131 + int(first)*31 + int(last)) & 1023
}

func makeKeywords() {
	keywords = map[string]uint8{}
	for _, w := range []string{
		// builtin types (the brief's "not refs") and struct types every
		// class sees through Object
		"byte", "int", "bool", "float", "string", "name", "pointer", "button",
		"vector", "rotator", "plane", "coords", "color", "scale", "range", "rangevector",
		"quat", "matrix", "guid", "box", "boundingvolume", "compressedposition",
		"void", "map", "array", "delegate", "enum", "struct", "class", "interface",
		// statements and expressions
		"if", "else", "while", "do", "until", "for", "foreach", "switch", "case",
		"default", "break", "continue", "return", "goto", "stop", "new", "none",
		"self", "super", "global", "static", "outer", "true", "false", "assert",
		"vect", "rot", "rng", "arraycount", "sizeof", "enumcount", "nameof",
		// declarations
		"var", "local", "const", "state", "ignores", "extends", "expands",
		"within", "dependson", "implements", "replication", "reliable", "unreliable",
		"defaultproperties", "structdefaultproperties", "cpptext", "cppstruct",
		"structcpptext", "cppbitmask", "auto", "operator", "preoperator", "postoperator",
		"function", "event",
	} {
		keywords[w] |= kwReserved
	}
	for _, w := range []string{
		"function", "event", "delegate", "operator", "preoperator", "postoperator",
	} {
		keywords[w] |= kwFunction
	}
	// Modifiers of variables, parameters and functions. They are reserved
	// too: a modifier is never a class, and several (native, config, ...)
	// are followed by parentheses that must not read as a cast.
	for _, w := range []string{
		"config", "globalconfig", "localized", "const", "editconst", "editconstarray",
		"private", "protected", "public", "transient", "native", "input", "export",
		"noexport", "editinline", "editinlineuse", "editinlinenotify", "edfindable",
		"deprecated", "travel", "automated", "noclear", "noimport",
		"repnotify", "interp", "duplicatetransient", "editfixedsize",
		"privatewrite", "protectedwrite", "nontransactional",
		"optional", "out", "coerce", "skip", "simulated", "final",
		"latent", "iterator", "singular", "exec", "abstract",
		"placeable", "notplaceable", "perobjectconfig", "nativereplication",
		"hidecategories", "showcategories", "collapsecategories", "dontcollapsecategories",
		"editinlinenew", "noteditinlinenew", "hidedropdown", "cacheexempt",
		"exportstructs", "instanced", "parseconfig", "safereplace", "guid",
	} {
		keywords[w] |= kwReserved | kwModifier
	}
	for w, f := range keywords {
		k := kwSlot(len(w), w[0], w[len(w)-1])
		kwTable[k] = append(kwTable[k], kwEntry{w, f})
	}
}

// classify returns the keyword flags of the identifier b (0 for a plain
// name).
func classify(b []byte) uint8 {
	loadTables()
	if len(b) == 0 || len(b) > 32 {
		return 0
	}
	for _, e := range kwTable[kwSlot(len(b), lower(b[0]), lower(b[len(b)-1]))] {
		if equalFold(b, e.word) {
			return e.flags
		}
	}
	return 0
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// keywordBlocksLiteral reports whether an identifier directly before a quote
// makes the quote a name literal rather than an object literal:
// "case'Idle':", "return'None';". Class is the one keyword that is also an
// object type (Class'Engine.Actor').
func keywordBlocksLiteral(b []byte) bool {
	return classify(b)&kwReserved != 0 && !equalFold(b, "class")
}

// equalFold compares an ASCII identifier with a lower-case word.
func equalFold(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
