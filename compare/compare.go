package compare

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/redirect"
)

// SchemaVersion is the Report's schema_version.
const SchemaVersion = 1

// Finding kinds.
const (
	// VersionMismatch: the client's copy has another GUID.
	VersionMismatch = "version_mismatch"
	// GenerationBehind: same GUID, fewer generations than the server's
	// copy (UE2).
	GenerationBehind = "generation_behind"
	// MissingDownload: the client has no copy; the server lets it download
	// one.
	MissingDownload = "missing_download"
	// MissingNoDownload: the client has no copy and the package is not
	// downloadable (no AllowDownload flag): the client cannot join.
	MissingNoDownload = "missing_no_download"
	// ClientUnreadable: the client's copy cannot be read.
	ClientUnreadable = "client_unreadable"
	// RedirectOutdated: the redirect folder's compressed file was made from
	// another version than the server's file (or does not decompress to
	// it): clients download the wrong package.
	RedirectOutdated = "redirect_outdated"
)

// Finding is one package the client will not load as the server's.
type Finding struct {
	Kind     string         `json:"kind"`
	Severity graph.Severity `json:"severity"`
	Package  string         `json:"package"`
	// Why the server sends it: "ServerPackages" or the map or package that
	// imports it first.
	Via              string `json:"via"`
	ServerFile       string `json:"server_file"`
	ServerGUID       string `json:"server_guid"`
	ServerGeneration int    `json:"server_generation"`
	ClientFile       string `json:"client_file,omitempty"` // relative to the client's root
	ClientGUID       string `json:"client_guid,omitempty"`
	ClientGeneration int    `json:"client_generation,omitempty"`
	RedirectFile     string `json:"redirect_file,omitempty"` // the redirect folder's file (redirect_outdated)
	// PlayerError is what the player sees (the client log's line).
	PlayerError string `json:"player_error"`
	Fix         string `json:"fix"`
}

// Report is what `upkdeps compare --json` prints.
type Report struct {
	SchemaVersion int       `json:"schema_version"`
	Server        string    `json:"server"` // the server's ini
	Client        string    `json:"client"` // the client's ini
	ClientCache   string    `json:"client_cache,omitempty"`
	Preset        string    `json:"preset,omitempty"`
	Redirect      string    `json:"redirect,omitempty"` // the redirect folder checked`
	Packages      int       `json:"packages"`           // packages compared
	Findings      []Finding `json:"findings"`
	Errors        int       `json:"errors"`
	Warnings      int       `json:"warnings"`
}

// Options say what to compare.
type Options struct {
	// Preset is the mapvote preset whose ServerPackages count
	// (install.Install.ServerPackagesFor); "" the ini's.
	Preset string
	// Maps selects the server's maps (redirect.MapOptions.Maps); "" all.
	Maps string
	// Redirect is the server's redirect folder, checked against the
	// server's files too ("" not checked).
	Redirect string
	// Jobs bounds the redirect files decompressed at once (0: one per core).
	Jobs int
}

// Compare compares the packages the server (its install and graph) sends
// with what the client install resolves them to.
func Compare(ctx context.Context, server *install.Install, g *graph.Graph, client *install.Install, opt Options) (*Report, error) {
	sp, err := server.ServerPackagesFor(opt.Preset)
	if err != nil {
		return nil, err
	}
	m, err := redirect.NewMap(g, redirect.MapOptions{ServerPackages: sp, Maps: opt.Maps, IncludeStock: true,
		Generation: server.Search.Generation(), Stock: ini.StockOf(server.Game)})
	if err != nil {
		return nil, err
	}
	rep := &Report{SchemaVersion: SchemaVersion, Server: server.IniPath, Client: client.IniPath, Preset: opt.Preset, Findings: []Finding{}}
	if client.Search.CacheDir() != "" {
		rep.ClientCache = client.Search.CacheDir()
	}
	ue2 := server.Search.Generation() == 2
	for _, e := range m.Entries {
		sh, err := header(e.File)
		if err != nil {
			continue // the server's own findings (check) report it
		}
		rep.Packages++
		if f, ok := clientFinding(e, sh, client, ue2); ok {
			rep.Findings = append(rep.Findings, f)
		}
	}
	if opt.Redirect != "" {
		fs, err := redirectFindings(ctx, server, g, sp, opt)
		if err != nil {
			return nil, err
		}
		rep.Redirect = opt.Redirect
		rep.Findings = append(rep.Findings, fs...)
	}
	slices.SortFunc(rep.Findings, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(sev(a.Severity), sev(b.Severity)), strings.Compare(a.Kind, b.Kind),
			strings.Compare(strings.ToLower(a.Package), strings.ToLower(b.Package)))
	})
	for _, f := range rep.Findings {
		if f.Severity == graph.Error {
			rep.Errors++
		} else {
			rep.Warnings++
		}
	}
	return rep, nil
}

func sev(s graph.Severity) int {
	if s == graph.Error {
		return 0
	}
	return 1
}

// clientFinding compares the client's copy of the map's entry e (the
// server's header sh) with the server's: missing (with or without a
// download), unreadable, another GUID or, on UE2, fewer generations. It
// returns false when the client's copy matches.
func clientFinding(e redirect.Entry, sh format.Header, client *install.Install, ue2 bool) (Finding, bool) {
	via := e.Via
	if via == "" {
		via = "ServerPackages or a map"
	}
	f := Finding{Package: e.Name, Via: via, ServerFile: e.Rel, ServerGUID: sh.GUID.String(), ServerGeneration: len(sh.Generations)}
	r := client.Search.FindGUID(e.Name, sh.GUID, len(sh.Generations))
	if !r.Found() {
		if e.Publish || e.Stock {
			f.Kind, f.Severity = MissingDownload, graph.Warning
			f.PlayerError = fmt.Sprintf("(none: the client downloads %s, %d bytes, on joining)", filepath.Base(e.File), e.Size)
			f.Fix = fmt.Sprintf("nothing to do; to spare the download, install the server's %s", e.Rel)
			if e.Stock {
				f.Severity = graph.Error
				f.PlayerError = fmt.Sprintf("Failed to load %s: Can't find file for package %s", e.Name, e.Name)
				f.Fix = fmt.Sprintf("%s is a retail package every client should have: reinstall it (the server's copy is %s)", e.Name, e.Rel)
			}
		} else {
			f.Kind, f.Severity = MissingNoDownload, graph.Error
			f.PlayerError = fmt.Sprintf("Failed to load %s: Can't find file for package %s", e.Name, e.Name)
			f.Fix = fmt.Sprintf("the package has no AllowDownload flag, so clients must install it themselves: give players the server's %s (GUID %s)", e.Rel, sh.GUID)
		}
		return f, true
	}
	f.ClientFile = client.Search.Rel(r.File)
	ch, err := header(r.File)
	if err != nil {
		f.Kind, f.Severity = ClientUnreadable, graph.Error
		f.PlayerError = fmt.Sprintf("Failed to load %s: %v", e.Name, err)
		f.Fix = fmt.Sprintf("delete the client's %s (the server sends its own copy)", f.ClientFile)
		return f, true
	}
	f.ClientGUID, f.ClientGeneration = ch.GUID.String(), len(ch.Generations)
	switch {
	case ch.GUID != sh.GUID:
		f.Kind, f.Severity = VersionMismatch, graph.Error
		f.PlayerError = fmt.Sprintf("Failed to load %s: Package %s version mismatch", e.Name, e.Name)
		f.Fix = fmt.Sprintf("delete or replace the client's %s (GUID %s): the server's %s has GUID %s", f.ClientFile, ch.GUID, e.Rel, sh.GUID)
		if r.Step == "cache" {
			f.Fix = fmt.Sprintf("delete the client's cached %s and its cache.ini line (GUID %s); the server's has GUID %s", f.ClientFile, ch.GUID, sh.GUID)
		}
	case ue2 && len(ch.Generations) < len(sh.Generations):
		f.Kind, f.Severity = GenerationBehind, graph.Error
		f.PlayerError = fmt.Sprintf("(no message at connect: the package map takes the lower generation count, %d of the server's %d, so objects the later generations of %s added do not reach this client: missing actors, sounds or textures in game)", len(ch.Generations), len(sh.Generations), e.Name)
		f.Fix = fmt.Sprintf("replace the client's %s with the server's %s (same GUID %s, %d generations)", f.ClientFile, e.Rel, sh.GUID, len(sh.Generations))
	default:
		return f, false
	}
	return f, true
}

// header reads the header of the package at path.
func header(path string) (format.Header, error) {
	f, err := format.Open(path)
	if err != nil {
		return format.Header{}, err
	}
	defer f.Close()
	return f.Header, nil
}

// redirectFindings checks the redirect folder against the server's files
// (redirect.Verify) and keeps what makes clients download another version
// than the server's: outdated and corrupt files.
func redirectFindings(ctx context.Context, server *install.Install, g *graph.Graph, sp []string, opt Options) ([]Finding, error) {
	m, err := redirect.NewMap(g, redirect.MapOptions{ServerPackages: sp, Maps: opt.Maps,
		Generation: server.Search.Generation(), Stock: ini.StockOf(server.Game)})
	if err != nil {
		return nil, err
	}
	vr, err := redirect.Verify(ctx, m, redirect.VerifyOptions{Dir: opt.Redirect, Jobs: opt.Jobs})
	if err != nil {
		return nil, err
	}
	byName := map[string]redirect.Entry{}
	for _, e := range m.Entries {
		byName[strings.ToLower(e.Name)] = e
	}
	var out []Finding
	for _, rf := range vr.Findings {
		if rf.Kind != redirect.Outdated && rf.Kind != redirect.Corrupt {
			continue
		}
		e := byName[strings.ToLower(rf.Package)]
		out = append(out, Finding{Kind: RedirectOutdated, Severity: graph.Error, Package: rf.Package, Via: "the redirect folder",
			ServerFile: e.Rel, ServerGUID: e.GUID, RedirectFile: filepath.Join(opt.Redirect, rf.File),
			PlayerError: fmt.Sprintf("(the download of %s completes, then the file is not the server's version: %s; every client that downloads it fails to load %s)", rf.File, rf.Message, rf.Package),
			Fix:         fmt.Sprintf("rebuild the file from the server's %s: upkdeps redirect build -o %s (it replaces outdated files)", e.Rel, opt.Redirect)})
	}
	return out, nil
}
