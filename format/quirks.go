package format

import (
	"fmt"
	"strings"
)

// MinVersion is the oldest package version the engine loads: the published
// UE1 source (OldUnreal/Unreal-PubSrc Core/Inc/UnObjVer.h, and the same
// header of every later UE1/UE2 build) defines PACKAGE_MIN_VERSION 60, and
// its linker (UnLinker.cpp, ULinkerLoad) refuses an older file unless the
// user confirms the OldVersion prompt. Unreal's retail maps are version 60.
const MinVersion = 60

// NameKind is how a name-table entry stores its string.
type NameKind uint8

// Name-table string encodings.
const (
	// NameStandard: an FString (compact index length, negative for UTF-16)
	// from version 64, a NUL-terminated string before.
	NameStandard NameKind = iota
	// NameByteLen: one length byte L, then L characters and a NUL.
	NameByteLen
	// NameU16Len: a 16-bit length L, then L characters and a NUL.
	NameU16Len
	// NameInt32Len: an FString whose length is a plain int32.
	NameInt32Len
)

// Layout says how a licensee build's header and table records differ from
// the standard UE1/UE2 layout (FORMAT.md). The zero Layout is the standard
// one. One code path reads and writes every layout.
type Layout struct {
	// Header.
	FlagsPrefix bool // an int32 precedes PackageFlags
	GUIDPrefix  int  // bytes of int32 fields between the table offsets and the GUID
	SCMagic     bool // optional 0x0FF0ADDE and a byte array before the GUID (read when the magic is there)
	NoGUID      bool // no GUID: the generation count follows the table offsets (or GUIDPrefix)

	// Name records.
	Names NameKind

	// Import and export records.
	Int32Index  bool // name indices, object references and serial fields are plain int32, not compact indices
	Outer16     bool // the outer reference is an int16, not an int32
	ExportExtra bool // exports carry one more compact index after the outer (discarded)
	FixedSerial bool // exports store SerialSize and SerialOffset as int32, the offset always
	Reordered   bool // Pariah's field order: imports outer, name, class package, class; exports name, super, outer, flags, class, size, offset
}

// IsStandard reports whether l is the standard layout.
func (l Layout) IsStandard() bool { return l == Layout{} }

// Quirk is one row of the licensee table: the builds of one game, the
// layout their packages use and where that fact comes from.
type Quirk struct {
	Game                     string
	MinVersion, MaxVersion   uint16
	MinLicensee, MaxLicensee uint16
	Layout                   Layout
	// Unsupported, when set, is why packages of this build are refused
	// (encryption, compression, fields we cannot read).
	Unsupported string
	// Source names the public reader the facts come from (UELib:
	// EliotVU/Unreal-Library; umodel: gildor2/UEViewer).
	Source string
	// Corpus is set when real files of the game are read by the corpus tests.
	Corpus bool
}

func (q *Quirk) matches(version, licensee uint16) bool {
	return version >= q.MinVersion && version <= q.MaxVersion && licensee >= q.MinLicensee && licensee <= q.MaxLicensee
}

// Versions returns the version/licensee ranges as text, e.g. "100/120-124".
func (q *Quirk) Versions() string {
	v := fmt.Sprint(q.MinVersion)
	if q.MaxVersion != q.MinVersion {
		v += fmt.Sprintf("-%d", q.MaxVersion)
	}
	l := fmt.Sprint(q.MinLicensee)
	if q.MaxLicensee != q.MinLicensee {
		l += fmt.Sprintf("-%d", q.MaxLicensee)
	}
	return v + "/" + l
}

// Sources of the facts in Quirks.
const (
	srcUELibReadme = "UELib README.md (supported games table)"
	srcUELibBuilds = "UELib src/UnrealPackage.cs (GameBuild.BuildName)"
	srcUELibHeader = "UELib src/UnrealPackage.cs (PackageFileSummary.Deserialize)"
	srcUmodelDB    = "umodel Unreal/GameDatabase.cpp (DetectGame)"
	srcUmodelPkg2  = "umodel Unreal/UnrealPackage/UnPackage2.cpp"
	srcUmodelPkg   = "umodel Unreal/UnrealPackage/UnPackage.cpp"
	srcUmodelRdr   = "umodel Unreal/UnrealPackage/UnPackageReader.cpp"
	srcUmodelSer   = "umodel Unreal/UnCoreSerialize.cpp"
)

// Quirks is the licensee table: every UE1/UE2 build (versions 60-177) that
// UELib or umodel documents, with the layout its packages use. The first
// row matching a package's version and licensee applies. Rows with the
// standard layout only name the game. Where builds overlap, the more
// specific row comes first.
var Quirks = []*Quirk{
	{Game: "Unreal (early)", MinVersion: 60, MaxVersion: 60, Source: "a real Unreal (1998) install: its retail maps are version 60; OldUnreal/Unreal-PubSrc Core/Inc/UnObjVer.h (PACKAGE_MIN_VERSION 60)"},
	{Game: "Unreal (early)", MinVersion: 61, MaxVersion: 63, Source: srcUELibReadme, Corpus: true},
	{Game: "Unreal", MinVersion: 64, MaxVersion: 67, Source: srcUELibReadme, Corpus: true},
	{Game: "UT99 / Unreal / Deus Ex / Rune", MinVersion: 68, MaxVersion: 69, Source: srcUELibReadme, Corpus: true},
	{Game: "Duke Nukem Forever (2001 build)", MinVersion: 68, MaxVersion: 68, MinLicensee: 2, MaxLicensee: 2, Source: srcUELibReadme},
	{Game: "Star Trek: Deep Space Nine: The Fallen", MinVersion: 73, MaxVersion: 73, Source: srcUELibReadme},
	{Game: "Harry Potter and the Sorcerer's Stone", MinVersion: 76, MaxVersion: 76, Source: srcUELibReadme},
	{Game: "Harry Potter and the Chamber of Secrets", MinVersion: 79, MaxVersion: 79, Source: srcUELibReadme},
	{Game: "Disney's Brother Bear", MinVersion: 80, MaxVersion: 80, Source: srcUELibReadme},
	{Game: "Clive Barker's Undying", MinVersion: 84, MaxVersion: 85, Source: srcUELibBuilds + " (72-83 overlap other games)"},
	{Game: "Clive Barker's Undying / Mobile Forces", MinVersion: 72, MaxVersion: 83, Source: srcUELibReadme},
	{Game: "Deus Ex: Invisible War", MinVersion: 95, MaxVersion: 95, MinLicensee: 69, MaxLicensee: 69,
		Layout: Layout{GUIDPrefix: 4}, Source: srcUELibHeader + ": an int32 before the GUID"},
	{Game: "Thief: Deadly Shadows", MinVersion: 95, MaxVersion: 95, MinLicensee: 133, MaxLicensee: 133,
		Layout: Layout{GUIDPrefix: 4}, Source: srcUELibHeader + ": an int32 before the GUID"},
	{Game: "Unreal Tournament 2003 (early)", MinVersion: 99, MaxVersion: 117, MinLicensee: 5, MaxLicensee: 8, Source: srcUELibBuilds},
	{Game: "Tom Clancy's Splinter Cell", MinVersion: 100, MaxVersion: 100, MinLicensee: 9, MaxLicensee: 17,
		Layout: Layout{SCMagic: true}, Source: srcUmodelDB + "; " + srcUmodelPkg2 + " and " + srcUELibHeader + ": magic 0x0FF0ADDE and a byte array before the GUID"},
	{Game: "Tom Clancy's Splinter Cell: Chaos Theory (legacy files)", MinVersion: 100, MaxVersion: 100, MinLicensee: 22, MaxLicensee: 22,
		Layout: Layout{SCMagic: true}, Source: srcUELibBuilds + "; " + srcUELibHeader},
	{Game: "XIII", MinVersion: 100, MaxVersion: 100, MinLicensee: 58, MaxLicensee: 58, Source: srcUELibBuilds + "; " + srcUELibReadme},
	{Game: "Tom Clancy's Splinter Cell: Chaos Theory (legacy files)", MinVersion: 100, MaxVersion: 100, MinLicensee: 99, MaxLicensee: 99,
		Layout: Layout{SCMagic: true}, Source: srcUELibBuilds + "; " + srcUELibHeader},
	{Game: "Tom Clancy's Splinter Cell: Chaos Theory", MinVersion: 100, MaxVersion: 100, MinLicensee: 120, MaxLicensee: 124,
		Layout: Layout{FlagsPrefix: true, SCMagic: true, Names: NameByteLen},
		Source: srcUELibBuilds + "; " + srcUELibHeader + " and " + srcUmodelPkg2 + ": an int32 before the flags (licensee >= 83), names with a length byte (licensee >= 85, UELib src/Branch/UE2/SCX)"},
	{Game: "Tom Clancy's Splinter Cell: Double Agent (offline)", MinVersion: 100, MaxVersion: 100, MinLicensee: 167, MaxLicensee: 167,
		Layout: Layout{FlagsPrefix: true, SCMagic: true, Names: NameByteLen},
		Source: srcUELibBuilds + "; " + srcUELibHeader + " and " + srcUmodelPkg2},
	{Game: "Tom Clancy's Splinter Cell: Pandora Tomorrow", MinVersion: 102, MaxVersion: 102, MinLicensee: 28, MaxLicensee: 28,
		Layout: Layout{SCMagic: true}, Source: srcUELibBuilds + " (SCX); " + srcUELibHeader},
	{Game: "Tom Clancy's Splinter Cell: Conviction / Blacklist", MinVersion: 102, MaxVersion: 102, MinLicensee: 116, MaxLicensee: 116,
		Unsupported: "LEAD engine packages (compressed, packed name references) are not read",
		Source:      srcUELibBuilds + " (Lead); " + srcUmodelPkg2},
	{Game: "Unreal II: The Awakening", MinVersion: 110, MaxVersion: 110, MinLicensee: 2481, MaxLicensee: 2609, Source: srcUELibBuilds},
	{Game: "Unreal II: The Awakening", MinVersion: 126, MaxVersion: 126, MinLicensee: 2609, MaxLicensee: 2609, Source: srcUELibReadme},
	{Game: "Postal 2: Paradise Lost", MinVersion: 118, MaxVersion: 118, MinLicensee: 2, MaxLicensee: 2, Source: srcUELibReadme},
	{Game: "Devastation", MinVersion: 118, MaxVersion: 120, MinLicensee: 4, MaxLicensee: 8, Source: srcUELibBuilds},
	{Game: "Tom Clancy's Rainbow Six 3: Raven Shield", MinVersion: 118, MaxVersion: 118, MinLicensee: 11, MaxLicensee: 14, Source: srcUELibBuilds},
	{Game: "Pariah", MinVersion: 119, MaxVersion: 119, MinLicensee: 0x9127, MaxLicensee: 0x9127,
		Layout: Layout{Names: NameU16Len, Reordered: true},
		Source: srcUmodelDB + "; " + srcUmodelPkg2 + " (names with a 16-bit length, reordered export fields); " + srcUmodelPkg + " (reordered import fields)"},
	{Game: "Unreal Championship", MinVersion: 119, MaxVersion: 119, MinLicensee: 30, MaxLicensee: 30,
		Layout: Layout{Names: NameU16Len}, Source: srcUmodelDB + " (119/28 and 119/30; 119/28 overlaps UT2004 in UELib and is read as UT2004); " + srcUmodelPkg2},
	{Game: "Unreal Tournament 2003", MinVersion: 117, MaxVersion: 120, MinLicensee: 25, MaxLicensee: 28, Source: srcUmodelDB},
	{Game: "ambiguous: Lineage 2 or Unreal II: eXpanded MultiPlayer / Desert Thunder", MinVersion: 123, MaxVersion: 123,
		Source: srcUELibBuilds + " (XMP 123-126); UEViewer Unreal/UnPackage.cpp and Unreal/GameDatabase.cpp (Lineage 2 is told by its Lineage2Ver file header, not by the version; its licensee is below 1000)"},
	{Game: "Unreal II: eXpanded MultiPlayer / Desert Thunder", MinVersion: 123, MaxVersion: 126, Source: srcUELibBuilds},
	{Game: "Dead Man's Hand", MinVersion: 123, MaxVersion: 123, MinLicensee: 2, MaxLicensee: 2, Source: srcUELibReadme},
	{Game: "Land of the Dead: Road to Fiddler's Green", MinVersion: 126, MaxVersion: 126, MinLicensee: 1, MaxLicensee: 1, Source: srcUELibReadme},
	{Game: "Netherworld: Beyond Time I Stand", MinVersion: 127, MaxVersion: 127, MinLicensee: 2, MaxLicensee: 2, Source: srcUELibReadme},
	{Game: "Tribes: Vengeance", MinVersion: 123, MaxVersion: 123, MinLicensee: 3, MaxLicensee: 15, Source: srcUmodelDB},
	{Game: "Tribes: Vengeance", MinVersion: 126, MaxVersion: 126, MinLicensee: 18, MaxLicensee: 23, Source: srcUmodelDB},
	{Game: "America's Army 2", MinVersion: 128, MaxVersion: 128, MinLicensee: 32, MaxLicensee: 33,
		Unsupported: "America's Army 2 packages are encrypted after the header and obfuscate their names",
		Source:      srcUELibBuilds + "; " + srcUmodelRdr + "; " + srcUmodelPkg2},
	{Game: "UT2004 / Killing Floor / Red Orchestra", MinVersion: 118, MaxVersion: 128, MinLicensee: 25, MaxLicensee: 29, Source: srcUELibBuilds + "; " + srcUmodelDB + "; " + srcUELibReadme, Corpus: true},
	{Game: "Harry Potter and the Prisoner of Azkaban / Shrek 2", MinVersion: 129, MaxVersion: 129, Source: srcUELibReadme},
	{Game: "Lemony Snicket's A Series of Unfortunate Events / Shark Tale", MinVersion: 129, MaxVersion: 129, MinLicensee: 3, MaxLicensee: 3, Source: srcUELibBuilds},
	{Game: "Shadow Ops: Red Mercury / Combat: Task Force 121", MinVersion: 129, MaxVersion: 129, MinLicensee: 10, MaxLicensee: 10, Source: srcUELibBuilds},
	{Game: "SWAT 4", MinVersion: 129, MaxVersion: 129, MinLicensee: 27, MaxLicensee: 27, Source: srcUELibBuilds + " (umodel's DetectGame counts 129/23-27 as Tribes: Vengeance)"},
	{Game: "Tribes: Vengeance", MinVersion: 129, MaxVersion: 130, MinLicensee: 23, MaxLicensee: 27, Source: srcUmodelDB + "; " + srcUELibBuilds + " (130/27)"},
	{Game: "Stargate SG-1: The Alliance", MinVersion: 130, MaxVersion: 130, MinLicensee: 4, MaxLicensee: 4, Source: srcUELibBuilds},
	{Game: "Bioshock / Bioshock 2", MinVersion: 130, MaxVersion: 143, MinLicensee: 56, MaxLicensee: 59,
		Unsupported: "Bioshock packages store names with 64-bit flags and instance numbers and may be compressed",
		Source:      srcUELibBuilds + "; " + srcUmodelPkg2 + "; " + srcUmodelRdr},
	{Game: "Land of Chaos Online", MinVersion: 131, MaxVersion: 134, MinLicensee: 29, MaxLicensee: 29, Source: srcUmodelDB},
	{Game: "Star Wars: Republic Commando", MinVersion: 133, MaxVersion: 148, MinLicensee: 1, MaxLicensee: 1, Source: srcUmodelDB + "; " + srcUELibBuilds},
	{Game: "Arctic Combat", MinVersion: 134, MaxVersion: 134, MinLicensee: 38, MaxLicensee: 39,
		Unsupported: "Arctic Combat packages are compressed (UELib README: third-party decompression is required)",
		Source:      srcUELibBuilds + "; " + srcUELibReadme},
	{Game: "The Regiment", MinVersion: 136, MaxVersion: 136, Source: srcUELibReadme},
	{Game: "Men of Valor", MinVersion: 137, MaxVersion: 137, Source: srcUELibBuilds},
	{Game: "Advent Rising", MinVersion: 141, MaxVersion: 143, MinLicensee: 0xF007, MaxLicensee: 0xF007,
		Layout: Layout{Outer16: true}, Source: "UELib src/Branch/UE2/Eon/EonPackageSerializer.cs (16-bit outer from 141); " + srcUELibBuilds},
	{Game: "Advent Rising", MinVersion: 144, MaxVersion: 146, MinLicensee: 0xF007, MaxLicensee: 0xF007,
		Layout: Layout{Outer16: true, Int32Index: true, Names: NameInt32Len},
		Source: "UELib src/Branch/UE2/Eon/EonPackageSerializer.cs; UELib src/UnrealStream.cs (ReadIndex is an int32 from 144)"},
	{Game: "Unreal Championship 2", MinVersion: 151, MaxVersion: 151, MinLicensee: 0, MaxLicensee: 2,
		Layout: Layout{Outer16: true, Int32Index: true, Names: NameInt32Len},
		Source: srcUmodelDB + " (151/0-1); " + srcUELibReadme + " (151/2); " + srcUmodelPkg + " and " + srcUmodelPkg2 + " (Serialize2X); " + srcUmodelSer + " (no compact indices from 145)"},
	{Game: "Star Wars: Republic Commando", MinVersion: 154, MaxVersion: 158, MinLicensee: 1, MaxLicensee: 1,
		Layout: Layout{FixedSerial: true}, Source: "UELib src/Branch/UE2/CT/CTPackageSerializer.cs; " + srcUmodelPkg2},
	{Game: "Duke Nukem Forever (2011)", MinVersion: 156, MaxVersion: 156, MinLicensee: 36, MaxLicensee: 36,
		Source: srcUELibBuilds + "; " + srcUELibHeader + " (build date and a string after the generations, not needed to find the tables); UELib src/Branch/UE2/DNF (standard table records); " + srcUELibReadme + " (retail packages must first be extracted from their mega-packages)"},
	{Game: "The Chronicles of Spellborn", MinVersion: 159, MaxVersion: 159, MinLicensee: 29, MaxLicensee: 29,
		Layout: Layout{NoGUID: true}, Source: srcUELibHeader + " (no GUID from 148)"},
	{Game: "Star Wars: Republic Commando", MinVersion: 159, MaxVersion: 159, MinLicensee: 1, MaxLicensee: 1,
		Layout: Layout{FixedSerial: true, ExportExtra: true}, Source: "UELib src/Branch/UE2/CT/CTPackageSerializer.cs; " + srcUmodelPkg2},
	{Game: "Tom Clancy's Splinter Cell: Chaos Theory (Versus)", MinVersion: 175, MaxVersion: 175,
		Unsupported: "ShadowStrike packages encrypt their strings",
		Source:      srcUELibBuilds + " (ShadowStrike); UELib src/UnrealStream.cs"},
}

// LookupQuirk returns the row of Quirks for a version and licensee, or nil.
func LookupQuirk(version, licensee uint16) *Quirk {
	for _, q := range Quirks {
		if q.matches(version, licensee) {
			return q
		}
	}
	return nil
}

// Game names the game a version/licensee pair comes from, for display: the
// game of its Quirks row, else the engine generation.
func Game(version, licensee uint16) string {
	if q := LookupQuirk(version, licensee); q != nil {
		return q.Game
	}
	switch {
	case version < 100:
		return "UE1 licensee game"
	case version < 130:
		return "UE2 licensee game"
	case version < 178:
		return "UE2.5 licensee game"
	}
	return fmt.Sprintf("unknown (%d/%d)", version, licensee)
}

// Game names the game the package comes from (see the function Game).
func (f *File) Game() string { return Game(f.Version, f.Licensee) }

// unsupported returns why a version/licensee is refused, or "".
func unsupported(version, licensee uint16) string {
	switch {
	case version < MinVersion:
		return fmt.Sprintf("older than version %d, the engine's PACKAGE_MIN_VERSION: the engine itself refuses to load it", MinVersion)
	case version >= 178:
		return "Unreal Engine 3 package"
	}
	if q := LookupQuirk(version, licensee); q != nil && q.Unsupported != "" {
		return q.Game + ": " + q.Unsupported
	}
	return ""
}

// knownLayout reports whether the tables of a version/licensee pair are
// known to use the layout we read: a row of Quirks, or the standard layout
// of licensee 0 before version 130. A table that fails to parse for any
// other pair is reported as an unknown layout, not as corruption.
func knownLayout(version, licensee uint16) bool {
	if LookupQuirk(version, licensee) != nil {
		return true
	}
	return licensee == 0 && version < 130
}

// layoutOf returns the layout of a version/licensee pair.
func layoutOf(version, licensee uint16) Layout {
	if q := LookupQuirk(version, licensee); q != nil {
		return q.Layout
	}
	return Layout{}
}

// String describes how the layout differs from the standard one, or
// "standard".
func (l Layout) String() string {
	var parts []string
	if l.FlagsPrefix {
		parts = append(parts, "int32 before the flags")
	}
	if l.GUIDPrefix > 0 {
		parts = append(parts, fmt.Sprintf("%d bytes before the GUID", l.GUIDPrefix))
	}
	if l.SCMagic {
		parts = append(parts, "magic 0x0FF0ADDE and a byte array before the GUID (when present)")
	}
	if l.NoGUID {
		parts = append(parts, "no GUID")
	}
	switch l.Names {
	case NameByteLen:
		parts = append(parts, "names with a length byte")
	case NameU16Len:
		parts = append(parts, "names with a 16-bit length")
	case NameInt32Len:
		parts = append(parts, "names with an int32 length")
	}
	if l.Int32Index {
		parts = append(parts, "int32 indices")
	}
	if l.Outer16 {
		parts = append(parts, "16-bit outers")
	}
	if l.ExportExtra {
		parts = append(parts, "an extra index in exports")
	}
	if l.FixedSerial {
		parts = append(parts, "int32 serial size and offset")
	}
	if l.Reordered {
		parts = append(parts, "reordered import and export fields")
	}
	if len(parts) == 0 {
		return "standard"
	}
	return strings.Join(parts, "; ")
}

// GamesTable returns the licensee table as the Markdown table
// docs/supported-files.md shows.
func GamesTable() string {
	var b strings.Builder
	b.WriteString("| version/licensee | game | layout | read | corpus-tested | source |\n|---|---|---|---|---|---|\n")
	for _, q := range Quirks {
		read, layout := "yes", q.Layout.String()
		if q.Unsupported != "" {
			read, layout = "no: "+q.Unsupported, "—"
		}
		corpus := "no"
		if q.Corpus {
			corpus = "yes"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", q.Versions(), q.Game, layout, read, corpus, q.Source)
	}
	return b.String()
}
