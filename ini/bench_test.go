package ini

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// BenchmarkLoadUnrealTournamentIni loads the 83 KB, 4,463-line ini of a
// real UT99 469d install.
func BenchmarkLoadUnrealTournamentIni(b *testing.B) {
	path := benchCorpusFile(b, "adrak0__ut99/System/UnrealTournament.ini")
	for b.Loop() {
		f, err := Load(path)
		if err != nil {
			b.Fatal(err)
		}
		if len(f.System().Paths) != 5 {
			b.Fatal("wrong Paths")
		}
	}
}

// BenchmarkParseGenerated parses a generated ini of the same shape: 70
// sections of 60 keys, with repeated Paths and ServerPackages.
func BenchmarkParseGenerated(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("[Core.System]\r\n")
	for i := range 8 {
		fmt.Fprintf(&sb, "Paths=../Dir%d/*.u\r\n", i)
	}
	for s := range 70 {
		fmt.Fprintf(&sb, "\r\n[Package%d.Class%d]\r\n", s, s)
		for k := range 60 {
			fmt.Fprintf(&sb, "Setting%d=(X=%d,Y=\"a;b\")\r\n", k, k)
		}
	}
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("Bench.ini", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadSectionsInt loads the [Public] section of the 83 KB, 164-
// section localisation file of UT2004's GUI2K4 package, as a check reads
// every .int file of an install.
func BenchmarkLoadSectionsInt(b *testing.B) {
	path := benchCorpusFile(b, "jmarshall23__Unreal2004/System/GUI2K4.int")
	for b.Loop() {
		f, err := LoadSections(path, "Public")
		if err != nil {
			b.Fatal(err)
		}
		if len(f.Sections()) != 164 {
			b.Fatalf("%d sections, want 164", len(f.Sections()))
		}
	}
}

// benchCorpusFile returns the path of the corpus file rel (skipping when
// the corpus is absent), with the benchmark counting its bytes and
// allocations.
func benchCorpusFile(b *testing.B, rel string) string {
	path := testutil.CorpusFile(b, rel)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	return path
}
