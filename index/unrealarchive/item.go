package unrealarchive

import (
	"bytes"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// MaxFileSize bounds one metadata file: the largest real ones (gametypes
// with many releases) are well under 1 MiB.
const MaxFileSize = 4 << 20

// Item is one downloadable archive of the Unreal Archive.
type Item struct {
	Path        string // the metadata file, relative to the checkout, with "/"
	Type        string // MAP, MAP_PACK, MUTATOR, SKIN, MODEL, VOICE, GAMETYPE, MANAGED, ...
	Game        string // "Unreal Tournament", "Unreal Tournament 2004", "Unreal", ...
	Name        string // the item's name (a gametype release: "Name: release title")
	Author      string
	ReleaseDate string
	ArchiveName string // the archive's file name (originalFilename)
	Hash        string // SHA-1 of the archive, lower-case hex; "" when unknown
	Size        int64  // archive size in bytes
	VariationOf string // hash of the item this one repackages
	Deleted     bool
	Downloads   []Download
	Files       []File
	// Dependencies are the packages each file imports, by file name, as
	// the archive's indexer saw them: a hint, not a fact of this install.
	Dependencies map[string][]Dependency
}

// Download is one place an archive can be downloaded from.
type Download struct {
	URL    string
	Direct bool   // a direct file link (not a page to click through)
	Main   bool   // the archive's own mirror (old and middle schemas)
	Repack bool   // a repackaged copy
	State  string // "OK", "MISSING", ... ("OK"/"DELETED" from the old schema's ok/deleted)
}

// OK reports whether the download was found working and is an http(s)
// link: a javascript:, file: or data: URL from a catalogue is never offered.
func (d Download) OK() bool { return d.State == "OK" && WebURL(d.URL) }

// StateRefused is the State of a download whose URL is not http(s).
const StateRefused = "REFUSED (not an http or https URL)"

// WebURL reports whether u is an absolute http or https URL with a host.
func WebURL(u string) bool {
	p, err := url.Parse(u)
	return err == nil && (strings.EqualFold(p.Scheme, "http") || strings.EqualFold(p.Scheme, "https")) && p.Host != ""
}

// File is one package file an archive ships.
type File struct {
	Name string
	Size int64
	Hash string // SHA-1, lower-case hex
}

// Dependency is one package a file imports, with the indexer's verdict.
type Dependency struct {
	Name   string // package name, no extension, as the importer spells it
	Status string // "OK", "MISSING", "PARTIAL"
}

// Warning is a problem with one metadata file that did not stop the walk.
type Warning struct {
	Path string
	Msg  string
}

func (w Warning) Error() string { return w.Path + ": " + w.Msg }

// raw mirrors the YAML of every schema; unknown keys are ignored.
type raw struct {
	ContentType      string              `yaml:"contentType"`
	Game             string              `yaml:"game"`
	Name             string              `yaml:"name"`
	Author           string              `yaml:"author"`
	ReleaseDate      string              `yaml:"releaseDate"`
	OriginalFilename string              `yaml:"originalFilename"`
	Hash             string              `yaml:"hash"`
	FileSize         int64               `yaml:"fileSize"`
	VariationOf      string              `yaml:"variationOf"`
	Deleted          bool                `yaml:"deleted"`
	Files            []rawFile           `yaml:"files"`
	Dependencies     map[string][]rawDep `yaml:"dependencies"`
	Downloads        []rawDownload       `yaml:"downloads"`
	Releases         []rawRelease        `yaml:"releases"`
}

type rawFile struct {
	// A content item's files are packages (name, fileSize, hash); a
	// gametype release's files are archives with their own packages.
	Name             string              `yaml:"name"`
	FileSize         int64               `yaml:"fileSize"`
	Hash             string              `yaml:"hash"`
	Title            string              `yaml:"title"`
	OriginalFilename string              `yaml:"originalFilename"`
	Deleted          bool                `yaml:"deleted"`
	Downloads        []rawDownload       `yaml:"downloads"`
	Files            []rawFile           `yaml:"files"`
	Dependencies     map[string][]rawDep `yaml:"dependencies"`
}

type rawDep struct {
	Name   string `yaml:"name"`
	Status string `yaml:"status"`
}

type rawDownload struct {
	URL     string `yaml:"url"`
	Main    bool   `yaml:"main"`
	Repack  bool   `yaml:"repack"`
	Direct  bool   `yaml:"direct"`
	State   string `yaml:"state"`
	OK      *bool  `yaml:"ok"`
	Deleted bool   `yaml:"deleted"`
	// A managed item's downloads are groups with their own list.
	Title     string        `yaml:"title"`
	Version   string        `yaml:"version"`
	Downloads []rawDownload `yaml:"downloads"`
}

type rawRelease struct {
	Title   string    `yaml:"title"`
	Version string    `yaml:"version"`
	Date    string    `yaml:"releaseDate"`
	Files   []rawFile `yaml:"files"`
}

// Parse reads one metadata file (rel is its path in the checkout, for the
// items and warnings) and returns its items, sorted by hash then name.
// A problem with one part of the file is a warning; a file that cannot be
// read at all is an error.
func Parse(rel string, data []byte) ([]Item, []Warning, error) {
	if len(data) > MaxFileSize {
		return nil, nil, fmt.Errorf("%s: %d bytes, over the limit of %d", rel, len(data), MaxFileSize)
	}
	var r raw
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&r); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", rel, err)
	}
	var warns []Warning
	warn := func(format string, args ...any) { warns = append(warns, Warning{rel, fmt.Sprintf(format, args...)}) }
	items := itemsOf(rel, &r)
	out := items[:0]
	for _, it := range items {
		if it.Hash != "" || it.Type != "MANAGED" {
			h := strings.ToLower(it.Hash)
			if !isSHA1(h) {
				warn("item %q: archive hash %q is not 40 hex digits: skipped", it.Name, it.Hash)
				continue
			}
			it.Hash = h
		}
		kept := it.Files[:0]
		for _, f := range it.Files {
			if !isSHA1(f.Hash) {
				warn("item %q: file %q: hash %q is not 40 hex digits: skipped", it.Name, f.Name, f.Hash)
				continue
			}
			if f.Name == "" || strings.ContainsAny(f.Name, "/\\\x00") {
				warn("item %q: file name %q is not a plain name: skipped", it.Name, f.Name)
				continue
			}
			kept = append(kept, f)
		}
		it.Files = kept
		out = append(out, it)
	}
	slices.SortFunc(out, func(a, b Item) int {
		if c := strings.Compare(a.Hash, b.Hash); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, warns, nil
}

// itemsOf returns the items of the metadata r of the file rel: one per
// release file of a gametype, one per download group of a managed item,
// else one.
func itemsOf(rel string, r *raw) []Item {
	var items []Item
	base := Item{Path: rel, Type: strings.ToUpper(r.ContentType), Game: r.Game, Name: r.Name, Author: r.Author,
		ReleaseDate: r.ReleaseDate}
	switch {
	case len(r.Releases) > 0: // a gametype: one item per release file
		if base.Type == "" {
			base.Type = "GAMETYPE"
		}
		for _, rel := range r.Releases {
			for _, f := range rel.Files {
				it := base
				it.Name = base.Name + ": " + strings.TrimSpace(rel.Title+" "+f.Title)
				if rel.Date != "" {
					it.ReleaseDate = rel.Date
				}
				it.ArchiveName, it.Hash, it.Size, it.Deleted = f.OriginalFilename, f.Hash, f.FileSize, f.Deleted
				it.Downloads = downloads(f.Downloads)
				it.Files = files(f.Files)
				it.Dependencies = deps(f.Dependencies)
				items = append(items, it)
			}
		}
	case r.Hash == "" && len(r.Downloads) > 0 && len(r.Downloads[0].Downloads) > 0: // a managed item
		if base.Type == "" {
			base.Type = "MANAGED"
		}
		for _, g := range r.Downloads {
			it := base
			it.Name = strings.TrimSpace(base.Name + ": " + g.Title)
			it.Downloads = downloads(g.Downloads)
			items = append(items, it)
		}
	default:
		it := base
		it.ArchiveName, it.Hash, it.Size, it.Deleted = r.OriginalFilename, r.Hash, r.FileSize, r.Deleted
		it.VariationOf = strings.ToLower(r.VariationOf)
		it.Downloads = downloads(r.Downloads)
		it.Files = files(r.Files)
		it.Dependencies = deps(r.Dependencies)
		items = append(items, it)
	}
	return items
}

func downloads(rs []rawDownload) []Download {
	var out []Download
	for _, d := range rs {
		if d.URL == "" {
			continue
		}
		st := strings.ToUpper(d.State)
		if st == "" { // the oldest schema: ok and deleted flags
			switch {
			case d.Deleted:
				st = "DELETED"
			case d.OK != nil && *d.OK:
				st = "OK"
			case d.OK != nil:
				st = "MISSING"
			}
		}
		if !WebURL(d.URL) {
			st = StateRefused
		}
		out = append(out, Download{URL: d.URL, Direct: d.Direct, Main: d.Main, Repack: d.Repack, State: st})
	}
	return out
}

func files(rs []rawFile) []File {
	out := make([]File, 0, len(rs))
	for _, f := range rs {
		out = append(out, File{Name: f.Name, Size: f.FileSize, Hash: strings.ToLower(f.Hash)})
	}
	return out
}

func deps(m map[string][]rawDep) map[string][]Dependency {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string][]Dependency, len(m))
	for file, ds := range m {
		for _, d := range ds {
			if d.Name != "" {
				out[file] = append(out[file], Dependency{Name: d.Name, Status: strings.ToUpper(d.Status)})
			}
		}
	}
	return out
}

// isSHA1 reports whether s is 40 lower-case hex digits.
func isSHA1(s string) bool {
	if len(s) != 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// errSize is the error of a file over MaxFileSize.
var errSize = fmt.Errorf("over the size limit of %d bytes", MaxFileSize)

// Summary is an item as find, check --index and plan print it: what to
// download and where from.
type Summary struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Game        string `json:"game"`
	SHA1        string `json:"sha1"`
	Size        int64  `json:"size"`
	ArchiveName string `json:"archive_name"`
	VariationOf string `json:"variation_of,omitempty"`
	Download    string `json:"download"` // the best working download (BestDownload); "" when none works
	Direct      bool   `json:"direct"`
	Metadata    string `json:"metadata"` // the metadata file, relative to the checkout
	// Refused are the item's download URLs that are not http(s)
	// (javascript:, file:, data:, ...): shown, never offered.
	Refused []string `json:"refused_downloads,omitempty"`
}

// Summary returns the item's summary.
func (it Item) Summary() Summary {
	s := Summary{Name: it.Name, Type: it.Type, Game: it.Game, SHA1: it.Hash, Size: it.Size,
		ArchiveName: it.ArchiveName, VariationOf: it.VariationOf, Metadata: it.Path}
	if d := BestDownload(it); d != nil {
		s.Download, s.Direct = d.URL, d.Direct
	}
	for _, d := range it.Downloads {
		if !WebURL(d.URL) {
			s.Refused = append(s.Refused, d.URL)
		}
	}
	return s
}
