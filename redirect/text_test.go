package redirect

import (
	"fmt"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/graph"
)

// TestVerifyWriteTextStockLine: retail packages left out are one line that
// names the first eight; other findings one line each.
func TestVerifyWriteTextStockLine(t *testing.T) {
	r := &VerifyReport{Server: Server{Ini: "UT2004.ini", Game: "UT2004", Platform: "windows"}, Dir: "redir", Packages: 3, Checked: 2}
	for i := range 10 {
		r.Findings = append(r.Findings, Finding{Kind: Stock, Severity: graph.Warning, Package: fmt.Sprintf("S%d", i)})
	}
	r.Findings = append(r.Findings, Finding{Kind: Outdated, Severity: graph.Error, File: "A.u.uz", Message: "holds another version"})
	r.Summary.Errors, r.Summary.Warnings = 1, 10
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "upkdeps redirect verify: redir against UT2004.ini (UT2004; Windows rules)\n" +
		"3 package(s) to publish, 2 file(s) checked; 1 error(s), 10 warning(s)\n\n" +
		"ERROR outdated: A.u.uz: holds another version\n" +
		"WARNING stock: 10 retail package(s) every client owns, not published (--include-stock publishes them): " +
		"S0, S1, S2, S3, S4, S5, S6, S7, ... (2 more; --json lists each)\n"
	if b.String() != want {
		t.Errorf("have\n%s\nwant\n%s", b.String(), want)
	}
}

// TestDownloadsWriteText: a line per root and the total, the singular for
// one package, the compressed sizes when files were found, and at most top
// shared packages (none with top 0).
func TestDownloadsWriteText(t *testing.T) {
	d := &Downloads{
		Roots: []RootDownload{
			{Name: "DM-AVeryLongMapName", Sizes: Sizes{Count: 2, Bytes: 3 << 10, Compressed: 1 << 10, CompressedCount: 1}},
			{Name: "ServerPackages", Sizes: Sizes{Count: 1, Bytes: 100, Compressed: -1}},
		},
		Packages: []PackageDownload{
			{Name: "Shared", File: "System/Shared.u", Bytes: 100, Roots: 2},
			{Name: "Map", File: "Maps/DM-AVeryLongMapName.unr", Bytes: 3<<10 - 100, Roots: 1},
		},
		Total: Sizes{Count: 2, Bytes: 3 << 10, Compressed: 1 << 10, CompressedCount: 1},
	}
	var b strings.Builder
	if err := d.WriteText(&b, 1); err != nil {
		t.Fatal(err)
	}
	want := "DM-AVeryLongMapName      2 packages    3.0 KiB     1.0 KiB compressed (1 of 2 files)\n" +
		"ServerPackages           1 package       100 B\n" +
		"total (each once)        2 packages    3.0 KiB     1.0 KiB compressed (1 of 2 files)\n" +
		"\nshared by the most (of 2):\n" +
		"  Shared                 2      100 B  System/Shared.u\n"
	if b.String() != want {
		t.Errorf("have\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := d.WriteText(&b, 0); err != nil || strings.Contains(b.String(), "shared") {
		t.Errorf("top 0: %v\n%s", err, b.String())
	}
}
