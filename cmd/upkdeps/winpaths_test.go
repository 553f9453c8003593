package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// TestIniPathForms: a Windows install's ini (CRLF line ends, Paths such as
// ..\Maps\*.unr) checked through each way a user may name it: relative and
// absolute, and on Windows with a lower-case drive letter, with "/", with
// the \\?\ prefix and as the UNC path of the drive's administrative share
// (where the machine serves one). Every form finds the same packages,
// missing packages and case notes, under Windows rules and under Linux
// rules, and report -o writes its page where asked.
func TestIniPathForms(t *testing.T) {
	dir := t.TempDir()
	writeDevInstall(t, dir, "Core.dll")
	writeText(t, filepath.Join(dir, "System", "Game.ini"), strings.ReplaceAll(devIni, "\n", "\r\n"))
	t.Chdir(dir)
	abs := filepath.Join(dir, "System", "Game.ini")
	forms := []string{filepath.Join("System", "Game.ini"), abs}
	if runtime.GOOS == "windows" {
		vol := filepath.VolumeName(abs)
		forms = append(forms, strings.ToLower(vol)+abs[len(vol):], filepath.ToSlash(abs), `\\?\`+abs)
		if len(vol) == 2 && vol[1] == ':' {
			unc := `\\localhost\` + vol[:1] + `$` + abs[len(vol):]
			if _, err := os.Stat(unc); err == nil {
				forms = append(forms, unc)
			} else {
				t.Logf("no administrative share here, UNC form not tried: %v", err)
			}
		}
	}
	for _, tt := range []struct {
		platform string
		want     string
	}{
		{"windows", "windows: 4 scanned, missing [], notes [folder dev extension .Utx]"},
		{"linux", "linux: 2 scanned, missing [Engine], notes [folder dev extension .Utx]"},
	} {
		for _, ini := range forms {
			out, errOut, code := runCLI(t, "check", "--ini", ini, "--json", "--no-progress", "--platform", tt.platform)
			if code == exitError {
				t.Fatalf("check --ini %s: code %d, stderr %q", ini, code, errOut)
			}
			var rep platformReport
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("check --ini %s: %v\n%s", ini, err, errOut)
			}
			var missing, notes []string
			for _, f := range rep.Findings {
				if f.Kind == "missing_package" && !slices.Contains(missing, f.Package) {
					missing = append(missing, f.Package)
				}
			}
			slices.Sort(missing)
			for _, n := range rep.CaseNotes {
				notes = append(notes, n.Kind+" "+n.Have)
			}
			have := fmt.Sprintf("%s: %d scanned, missing %v, notes %v", rep.Platform, rep.PackagesScanned, missing, notes)
			if have != tt.want {
				t.Errorf("check --ini %s:\nhave %s\nwant %s", ini, have, tt.want)
			}
		}
	}
	for i, ini := range forms {
		page := filepath.Join(t.TempDir(), fmt.Sprintf("report%d.html", i))
		if _, errOut, code := runCLI(t, "report", "--ini", ini, "-o", page, "--no-progress"); code == exitError {
			t.Fatalf("report --ini %s: code %d, stderr %q", ini, code, errOut)
		}
		if st, err := os.Stat(page); err != nil || st.Size() == 0 {
			t.Errorf("report --ini %s -o %s: %v", ini, page, err)
		}
	}
}

// TestCacheExtractReplaceHeld: cache extract --force replaces an installed
// file that is read-only (a game copied from a CD) or that another handle
// holds open (the game or a server running). Linux replaces both; Windows
// refuses to replace an open file, and cache extract then fails (exit 2)
// saying why, with the installed file whole and no temporary file left.
func TestCacheExtractReplaceHeld(t *testing.T) {
	for _, held := range []string{"read-only", "open"} {
		t.Run(held, func(t *testing.T) {
			t.Chdir(t.TempDir())
			writeCacheInstall(t)
			old := readFile(t, "System/Other.u")
			switch held {
			case "read-only":
				if err := os.Chmod("System/Other.u", 0o444); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.Chmod("System/Other.u", 0o644) })
			case "open":
				f, err := os.Open("System/Other.u")
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
			}
			out, errOut, code := runCLI(t, "cache", "extract", "--ini", "System/Game.ini", "--force", "Other.u")
			replaced := !bytes.Equal(readFile(t, "System/Other.u"), old)
			switch {
			case code == exitOK && replaced:
			case runtime.GOOS == "windows" && held == "open" && code == exitError && !replaced:
				t.Logf("refused, as Windows does: %s", strings.TrimSpace(errOut))
				if !strings.Contains(errOut, "Other.u") || !strings.Contains(errOut, "another program") {
					t.Errorf("refusal: stderr %q, want the file and the likely cause", errOut)
				}
			default:
				t.Fatalf("code %d, replaced %v\nstdout %s\nstderr %s", code, replaced, out, errOut)
			}
			for _, name := range testutil.DirNames(t, "System") {
				if strings.HasSuffix(name, ".tmp") {
					t.Errorf("temporary file left: System/%s", name)
				}
			}
		})
	}
}
