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
