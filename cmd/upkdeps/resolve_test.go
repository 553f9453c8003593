package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/demo"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

// resolveClient is one result of `resolve --json` output as a client reads it.
type resolveClient struct {
	Name         string   `json:"name"`
	File         *string  `json:"file"`
	Step         string   `json:"step"`
	CaseMismatch bool     `json:"case_mismatch"`
	Tried        []string `json:"tried"`
	Shadowed     []string `json:"shadowed"`
	Warnings     []string `json:"warnings"`
}

func parseResolve(t *testing.T, out string) []resolveClient {
	t.Helper()
	var doc struct {
		SchemaVersion int             `json:"schema_version"`
		Results       []resolveClient `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("resolve --json: %v\n%s", err, out)
	}
	if doc.SchemaVersion != 1 {
		t.Errorf("resolve --json: schema_version %d, want 1", doc.SchemaVersion)
	}
	rs := doc.Results
	// Lists are [] rather than null.
	if strings.Contains(out, "null") && !strings.Contains(out, `"file": null`) {
		t.Errorf("resolve --json has a null list:\n%s", out)
	}
	return rs
}

func TestResolveDemo(t *testing.T) {
	chdirDemo(t)
	// Credits collides with Music/Credits.umx, DemoBase is shadowed in Mods,
	// demofx.utx is found only ignoring case, Missing does not resolve.
	names := []string{"Credits", "DemoBase", "DemoFX", "Missing", "Core"}
	out, errOut, code := runCLI(t, append([]string{"resolve", "--ini", demo.Ini}, names...)...)
	if code != exitFindings {
		t.Errorf("resolve: code %d, want %d (stderr %q)", code, exitFindings, errOut)
	}
	golden(t, "resolve-demo.txt", out)

	out, _, code = runCLI(t, append([]string{"resolve", "--ini", demo.Ini, "--json"}, names...)...)
	if code != exitFindings {
		t.Errorf("resolve --json: code %d, want %d", code, exitFindings)
	}
	golden(t, "resolve-demo.json", out)
	rs := parseResolve(t, out)
	if len(rs) != len(names) {
		t.Fatalf("resolve --json: %d results, want %d", len(rs), len(names))
	}
	for _, tc := range []struct {
		i        int
		file     string // "" for null
		shadowed string
		mismatch bool
	}{
		{0, "Textures/Credits.utx", "Music/Credits.umx", false},
		{1, "System/DemoBase.u", "Mods/DemoBase.u", false},
		{2, "Textures/demofx.utx", "", true},
		{3, "", "", false},
		{4, "System/Core.u", "", false},
	} {
		r := rs[tc.i]
		have := ""
		if r.File != nil {
			have = *r.File
		}
		if have != tc.file || r.CaseMismatch != tc.mismatch || strings.Join(r.Shadowed, ",") != tc.shadowed {
			t.Errorf("%s: have file %q shadowed %q mismatch %v, want %q %q %v", r.Name, have, r.Shadowed, r.CaseMismatch, tc.file, tc.shadowed, tc.mismatch)
		}
		if len(r.Tried) == 0 || (r.File != nil && r.Tried[len(r.Tried)-1] != *r.File && !r.CaseMismatch) {
			t.Errorf("%s: tried %q does not end with the file", r.Name, r.Tried)
		}
	}

	// Every name resolves: exit 0.
	if _, _, code := runCLI(t, "resolve", "--ini", demo.Ini, "Core", "Engine"); code != exitOK {
		t.Errorf("resolve Core Engine: code %d, want %d", code, exitOK)
	}
}

func TestResolveGUID(t *testing.T) {
	chdirDemo(t)
	// CityTex is only in the cache.
	out, _, code := runCLI(t, "resolve", "--ini", demo.Ini, "--json", "--guid", "DE30003211D4015EA00032000000C110", "CityTex")
	if code != exitOK {
		t.Errorf("resolve --guid CityTex: code %d, want %d", code, exitOK)
	}
	rs := parseResolve(t, out)
	if len(rs) != 1 || rs[0].File == nil || *rs[0].File != "Cache/DE30003211D4015EA00032000000C110.uxx" || rs[0].Step != "cache" {
		t.Errorf("CityTex by GUID: have %+v", rs)
	}
	// Without the GUID the cache is not searched.
	if _, _, code := runCLI(t, "resolve", "--ini", demo.Ini, "CityTex"); code != exitFindings {
		t.Errorf("resolve CityTex: code %d, want %d", code, exitFindings)
	}
	// The installed DemoSkins has another GUID than the cached one.
	out, _, _ = runCLI(t, "resolve", "--ini", demo.Ini, "--guid", "DE30003311D40165A00033000000C111", "DemoSkins")
	golden(t, "resolve-demo-guid.txt", out)
	if !strings.Contains(out, "version mismatch") || !strings.Contains(out, "Cache/DE30003311D40165A00033000000C111.uxx") {
		t.Errorf("DemoSkins by GUID: no mismatch warning or shadowed cache file:\n%s", out)
	}

	for _, args := range [][]string{
		{"--guid", "XYZ", "CityTex"},
		{"--guid", "DE30003211D4015EA00032000000C110", "CityTex", "Core"},
		{"--guid", "DE30003211D4015EA00032000000C110", "--generation", "-1", "CityTex"},
		{},
	} {
		if _, _, code := runCLI(t, append([]string{"resolve", "--ini", demo.Ini}, args...)...); code != exitError {
			t.Errorf("resolve %q: code %d, want %d", args, code, exitError)
		}
	}
}

// TestResolveCorpus is the acceptance check on a real UT99 install.
func TestResolveCorpus(t *testing.T) {
	iniPath := testutil.CorpusFile(t, "adrak0__ut99/System/UnrealTournament.ini")
	out, errOut, code := runCLI(t, "resolve", "--ini", iniPath, "--json", "Core", "Engine", "DM-Tutorial", "Faces", "BotPack")
	if code != exitFindings {
		t.Errorf("code %d, want %d (BotPack is absent); stderr %q", code, exitFindings, errOut)
	}
	rs := parseResolve(t, out)
	want := []string{"System/Core.u", "System/Engine.u", "Maps/DM-Tutorial.unr", "Textures/Faces.utx", ""}
	if len(rs) != len(want) {
		t.Fatalf("%d results, want %d", len(rs), len(want))
	}
	for i, w := range want {
		have := ""
		if rs[i].File != nil {
			have = *rs[i].File
		}
		if have != w {
			t.Errorf("%s: have %q, want %q", rs[i].Name, have, w)
		}
	}
}
