package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/upkdeps/upkdeps/internal/demo"
	"github.com/upkdeps/upkdeps/redirect"
)

// TestUnused: on a generated server with known orphans, unused lists
// exactly them (exit 1), with what would reach each; the ServerPackages
// line nothing needs says so; and each line's download equals the
// server_packages root of downloads --json for an ini with only that line.
func TestUnused(t *testing.T) {
	const n, mods = 665, 30 // server665
	dir := server665(t)
	t.Chdir(dir)
	// System/One.ini below is written into the shared install for the
	// test's time.
	t.Cleanup(func() { os.Remove(filepath.Join(dir, "System", "One.ini")) })
	out, errOut, code := runCLI(t, "unused", "--ini", demo.ServerIni, "--json")
	var rep redirect.Unused
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != exitFindings {
		t.Fatalf("unused --json: code %d, %v, stderr %q", code, err, errOut)
	}
	var names []string
	var total int64
	for _, u := range rep.Packages {
		names = append(names, u.Name)
		total += u.Bytes
		if u.Bytes <= 0 || u.Folder == "" || !strings.HasPrefix(u.File, u.Folder+"/") {
			t.Errorf("%s: %+v", u.Name, u)
		}
		if u.Name == "Mod30Tex" && !slices.Equal(u.Through, []string{"Mod30Extra"}) {
			t.Errorf("Mod30Tex reached through %v, want Mod30Extra", u.Through)
		}
	}
	slices.SortFunc(names, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	want, _ := demo.ServerOrphans(n, mods)
	slices.SortFunc(want, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	if !slices.Equal(names, want) || total != rep.Bytes {
		t.Errorf("unused %v (%d bytes, total %d), want %v", names, total, rep.Bytes, want)
	}
	unneeded, _ := demo.ServerUnneeded(n, mods)
	ini, err := os.ReadFile(demo.ServerIni)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, sp := range rep.ServerPackages {
		if sp.NothingNeedsIt != (sp.Package == unneeded) {
			t.Errorf("%s: nothing needs it %v, needed by %v", sp.Line, sp.NothingNeedsIt, sp.NeededBy)
		}
		if sp.Package != unneeded && sp.Package != "Mod10" {
			continue
		}
		// The same install with only this ServerPackages line.
		var lines []string
		for _, l := range strings.Split(string(ini), "\r\n") {
			if !strings.HasPrefix(l, "ServerPackages=") || l == "ServerPackages="+sp.Package {
				lines = append(lines, l)
			}
		}
		if err := os.WriteFile("System/One.ini", []byte(strings.Join(lines, "\r\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		out, _, code := runCLI(t, "downloads", "--ini", "System/One.ini", "--json")
		var dl redirect.Downloads
		if err := json.Unmarshal([]byte(out), &dl); err != nil || code != exitOK {
			t.Fatalf("downloads: code %d, %v", code, err)
		}
		for _, r := range dl.Roots {
			if r.Kind == "server_packages" {
				checked++
				if r.Sizes != sp.Download.Sizes || !slices.Equal(r.Packages, sp.Download.Packages) || r.Count == 0 {
					t.Errorf("%s: unused says %+v, downloads %+v", sp.Line, sp.Download, r)
				}
			}
		}
		// Mod29's own packages are for it alone; the shared texture is not.
		if sp.Package == unneeded && (sp.Only.Count == 0 || sp.Only.Count >= sp.Download.Count) {
			t.Errorf("%s: only %+v of %+v", sp.Line, sp.Only, sp.Download.Sizes)
		}
	}
	if checked != 2 {
		t.Errorf("%d lines compared with downloads, want 2", checked)
	}
	text, _, code := runCLI(t, "unused", "--ini", demo.ServerIni)
	if code != exitFindings || !strings.Contains(text, "ServerPackages="+unneeded+"\n    downloads") || !strings.Contains(text, "nothing on this server needs it") ||
		!strings.Contains(text, "Textures/OldTex01.utx") {
		t.Errorf("unused: code %d, output\n%s", code, text)
	}
}

// TestUnusedInBrowser: the report page's Unused view of the generated
// server lists exactly the orphans, and the ServerPackages lines with the
// download unused --json gives, the unneeded one marked.
func TestUnusedInBrowser(t *testing.T) {
	const n, mods = 665, 30 // server665
	t.Chdir(server665(t))
	tb := newTab(t)
	page := server665Page(t)
	out, _, _ := runCLI(t, "unused", "--ini", demo.ServerIni, "--json")
	var rep redirect.Unused
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	tb.open(t, page, "#/unused")
	var names []string
	tb.run(t, "unused rows", chromedp.Evaluate(`Array.from(document.querySelectorAll('#unused-packages tbody tr')).map(function (r) { return r.getAttribute('data-name'); })`, &names))
	want, _ := demo.ServerOrphans(n, mods)
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Errorf("page lists %v, want %v", names, want)
	}
	unneeded, _ := demo.ServerUnneeded(n, mods)
	for _, sp := range rep.ServerPackages {
		row := tb.text(t, `#unused-lines tr[data-package="`+sp.Package+`"]`)
		if !strings.Contains(row, strconv.Itoa(sp.Download.Count)+" packages") ||
			strings.Contains(row, "nothing on this server needs it") != (sp.Package == unneeded) {
			t.Errorf("%s: row %q", sp.Line, row)
		}
	}
	tb.clean(t)
}
