package format

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// Package tags. KF writes a variant of the standard tag; the byte-swapped
// standard tag marks a big-endian (console) package.
const (
	Tag        uint32 = 0x9E2A83C1
	TagKF      uint32 = 0x9E2A83C2
	tagSwapped uint32 = 0xC1832A9E
)

// HasTag reports whether b starts with a package tag the reader reads (Tag
// or TagKF): the one sniff that tells a package file from other data by its
// first four bytes, before it is parsed.
func HasTag(b []byte) bool {
	if len(b) < 4 {
		return false
	}
	t := binary.LittleEndian.Uint32(b)
	return t == Tag || t == TagKF
}

// GUID is a package GUID as the engine stores it: four 32-bit words.
type GUID [4]uint32

// String returns the engine's text form, 32 upper-case hex digits of A, B, C, D,
// as used in cache file names and cache.ini keys.
func (g GUID) String() string {
	// Not fmt: the graph spells the GUID of every package it reads.
	const digits = "0123456789ABCDEF"
	var b [32]byte
	for i, w := range g {
		for j := 7; j >= 0; j-- {
			b[8*i+j] = digits[w&0xF]
			w >>= 4
		}
	}
	return string(b[:])
}

// IsZero reports whether all words are zero.
func (g GUID) IsZero() bool { return g == GUID{} }

// ParseGUID parses the 32-hex-digit text form (any case).
func ParseGUID(s string) (GUID, error) {
	var g GUID
	if len(s) != 32 {
		return g, fmt.Errorf("format: guid %q: want 32 hex digits", s)
	}
	for i := range g {
		var v uint32
		for _, c := range s[i*8 : i*8+8] {
			var d uint32
			switch {
			case c >= '0' && c <= '9':
				d = uint32(c - '0')
			case c >= 'a' && c <= 'f':
				d = uint32(c-'a') + 10
			case c >= 'A' && c <= 'F':
				d = uint32(c-'A') + 10
			default:
				return GUID{}, fmt.Errorf("format: guid %q: %q is not a hex digit", s, c)
			}
			v = v<<4 | d
		}
		g[i] = v
	}
	return g, nil
}

func (g GUID) put(b []byte) {
	for i, w := range g {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
}

func getGUID(b []byte) GUID {
	var g GUID
	for i := range g {
		g[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return g
}

// PackageFlags are the package-wide flags in the header.
type PackageFlags uint32

// Package flag bits.
const (
	FlagAllowDownload  PackageFlags = 0x0001
	FlagClientOptional PackageFlags = 0x0002
	FlagServerSideOnly PackageFlags = 0x0004
	FlagBrokenLinks    PackageFlags = 0x0008
	FlagUnsecure       PackageFlags = 0x0010
	FlagOfficial       PackageFlags = 0x0020 // UE2 Official; 227's DeltaCompress
	FlagNeed           PackageFlags = 0x8000
)

var flagNames = []struct {
	bit  PackageFlags
	name string
}{
	{FlagAllowDownload, "AllowDownload"},
	{FlagClientOptional, "ClientOptional"},
	{FlagServerSideOnly, "ServerSideOnly"},
	{FlagBrokenLinks, "BrokenLinks"},
	{FlagUnsecure, "Unsecure"},
	{FlagOfficial, "Official"},
	{FlagNeed, "Need"},
}

// Names returns the names of the set flags in bit order; unknown bits appear
// as hexadecimal values such as "0x40000".
func (f PackageFlags) Names() []string {
	names := []string{}
	rest := f
	for _, fn := range flagNames {
		if f&fn.bit != 0 {
			names = append(names, fn.name)
			rest &^= fn.bit
		}
	}
	for bit := PackageFlags(1); bit != 0; bit <<= 1 {
		if rest&bit != 0 {
			names = append(names, fmt.Sprintf("0x%X", uint32(bit)))
		}
	}
	return names
}

func (f PackageFlags) String() string { return strings.Join(f.Names(), "|") }

// Generation is one entry of the generation table (version 68 and later).
type Generation struct {
	ExportCount int32
	NameCount   int32
}

// Header is the fixed part at the start of a package.
type Header struct {
	Tag          uint32
	Version      uint16
	Licensee     uint16
	Flags        PackageFlags
	NameCount    int32
	NameOffset   int32
	ExportCount  int32
	ExportOffset int32
	ImportCount  int32
	ImportOffset int32

	// Version < 68: the heritage table; its last GUID is the package GUID.
	HeritageCount  int32
	HeritageOffset int32
	Heritage       []GUID

	// GUID is the package GUID: from the header (>= 68) or the last heritage
	// entry (< 68).
	GUID GUID
	// Generations (>= 68 only).
	Generations []Generation

	// Licensee header fields (see Layout), kept so that a package writes
	// back as it was read: the int32 before the flags (FlagsPrefix
	// layouts) and the raw bytes between the table offsets and the GUID
	// (GUIDPrefix layouts, and Splinter Cell's magic and byte array).
	FlagsPrefix uint32
	GUIDPrefix  []byte
}

// scMagic is the constant Splinter Cell builds write before their byte
// array (umodel UnPackage2.cpp and UELib UnrealPackage.cs both name it).
const scMagic uint32 = 0x0FF0ADDE

// maxSCArray caps Splinter Cell's header byte array (a user, computer and
// folder name with a time stamp: a few hundred bytes in practice).
const maxSCArray = 64 << 10

// HasHeritage reports whether the version keeps a heritage table instead of
// a GUID and generations in the header.
func (h *Header) HasHeritage() bool { return h.Version < 68 }

// Name is a name-table entry.
type Name struct {
	Name  string
	Flags uint32
}

// Ref is an object reference: 0 is None, i > 0 is export i-1, i < 0 is
// import -i-1.
type Ref int32

// IsNull reports whether r is None.
func (r Ref) IsNull() bool { return r == 0 }

// IsImport reports whether r refers to the import table.
func (r Ref) IsImport() bool { return r < 0 }

// IsExport reports whether r refers to the export table.
func (r Ref) IsExport() bool { return r > 0 }

// Index returns the table index r refers to (meaningless for None).
func (r Ref) Index() int {
	if r < 0 {
		return int(-r) - 1
	}
	return int(r) - 1
}

// ImportRef returns the reference to import i.
func ImportRef(i int) Ref { return Ref(-(i + 1)) }

// ExportRef returns the reference to export i.
func ExportRef(i int) Ref { return Ref(i + 1) }

// Import is an import-table entry: an object of another package.
type Import struct {
	ClassPackage int32 // name index: package of the object's class
	ClassName    int32 // name index
	Outer        Ref   // 0 for a top-level (package) import
	ObjectName   int32 // name index
}

// ObjectFlagNative (RF_Native) is set in the ObjectFlags of a class export
// that the package's C++ module registers (Engine.u's Actor, IpDrv.u's
// TcpLink): a package with one has native code.
const ObjectFlagNative uint32 = 0x04000000

// Export is an export-table entry: an object this package defines.
type Export struct {
	Class        Ref // 0: the object is itself a class
	Super        Ref
	Outer        Ref // 0: the package itself
	ObjectName   int32
	ObjectFlags  uint32
	SerialSize   int32
	SerialOffset int32 // only meaningful when SerialSize > 0
}
