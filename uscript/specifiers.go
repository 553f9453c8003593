package uscript

import "strings"

// The specifiers of declarations, by engine, each row with the public
// source that documents it (or, for a licensee or community build, the
// public sources that use it and build). The scanner reads a declaration
// as "specifiers type name" whatever the order of the specifiers, and a
// word it does not know that stands where a specifier stands (a word
// followed by the type and the name) is read as one too (see
// parser.skipModifiers): this table says which words are specifiers where
// the shape alone cannot (function headers: "function static string F(").
//
// Words of keywords.go's modifier list are specifiers as well; this table
// holds those that are not reserved words, since a script may also use
// them as names (Engine.Cache is a class of UT2004).

// specRow is one row of the table.
type specRow struct {
	words   string // the specifiers, space-separated, lower case
	of      string // what they qualify: class, var, function, param
	engines string // where they exist
	source  string // the public document or source that shows them
}

const (
	srcVariables = "https://wiki.beyondunreal.com/Variables (Modifiers)"
	srcFunctions = "https://wiki.beyondunreal.com/Functions (Modifiers)"
	srcClasses   = "https://wiki.beyondunreal.com/Class_syntax (Class modifiers)"
	srcUE2Ref    = "https://docs.unrealengine.com/udk/Two/UnrealScriptReference.html"
	src227       = "https://github.com/OldUnreal/Unreal-PubSrc (Unreal 227 public sources)"
	src469       = "https://github.com/OldUnreal/UnrealTournamentPatches (UT99 469 release notes and sources)"
)

var specTable = []specRow{
	{"static final simulated singular latent iterator exec native intrinsic private protected public", "function", "UE1 UE2", srcFunctions},
	{"reliable unreliable client server", "function", "UE2", srcUE2Ref},
	{"const config globalconfig localized transient native private protected travel editconst input export", "var", "UE1 UE2", srcVariables},
	{"cache automated editinline editinlineuse editinlinenotify edfindable deprecated noexport editconstarray", "var", "UE2", srcVariables},
	{"nowarn noedsave noduplicate norepnotify", "var", "227", src227 + ": Engine/Classes/Actor.uc, Bitmap.uc, PX_RigidBodyData.uc"},
	{"intrinsic nousercreate native abstract transient config perobjectconfig nativereplication safereplace", "class", "UE1 UE2", srcClasses},
	{"placeable notplaceable hidecategories showcategories collapsecategories dontcollapsecategories editinlinenew noteditinlinenew hidedropdown cacheexempt exportstructs parseconfig", "class", "UE2", srcClasses},
	{"optional out coerce skip", "param", "UE1 UE2", srcFunctions},
}

// The types the compilers have built in beyond keywords.go's list, each
// with the public source that uses it.
var intrinsicTypes = []specRow{
	{"uint dword", "type", "227", src227 + ": Emitter/Classes/EmitterGarbageCollector.uc, Engine/Classes/SecurityData.uc"},
	{"staticlightdata", "type", "227", src227 + ": Engine/Classes/Mover.uc (declared by no script)"},
	{"lazyarray", "type", "227", src227 + ": Engine/Classes/Bitmap.uc (lazyarray<byte>)"},
}

// Flags of extTable.
const (
	extSpecifier = 1 << iota
	extIntrinsic
)

// extTable holds the words of specTable and intrinsicTypes in kwTable's
// buckets: they are looked up for every declaration and type, where a
// map's hashing would cost more than the rest of the scan.
var extTable [1024][]kwEntry

func makeExt() {
	add := func(rows []specRow, flag uint8) {
		for _, r := range rows {
			for _, w := range strings.Fields(r.words) {
				k := kwSlot(len(w), w[0], w[len(w)-1])
				found := false
				for i := range extTable[k] {
					if extTable[k][i].word == w {
						extTable[k][i].flags |= flag
						found = true
					}
				}
				if !found {
					extTable[k] = append(extTable[k], kwEntry{w, flag})
				}
			}
		}
	}
	add(specTable, extSpecifier)
	add(intrinsicTypes, extIntrinsic)
}

func classifyExt(b []byte) uint8 {
	loadTables()
	if len(b) == 0 || len(b) > 32 {
		return 0
	}
	for _, e := range extTable[kwSlot(len(b), lower(b[0]), lower(b[len(b)-1]))] {
		if equalFold(b, e.word) {
			return e.flags
		}
	}
	return 0
}

// isSpecifier reports whether b is a specifier of the table or a modifier
// of keywords.go.
func isSpecifier(b []byte) bool {
	return classify(b)&kwModifier != 0 || classifyExt(b)&extSpecifier != 0
}

// isIntrinsic reports whether b is a type the compiler knows without a
// declaration (beyond keywords.go's reserved types).
func isIntrinsic(b []byte) bool { return classifyExt(b)&extIntrinsic != 0 }
