package redirect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// ManifestName is the file Build writes into the redirect folder.
const ManifestName = "manifest.json"

// ManifestSchema is the schema_version Build writes.
const ManifestSchema = 1

// maxManifestSize bounds what ReadManifest reads: 64 MiB is over 200,000
// entries.
const maxManifestSize = 64 << 20

// Manifest describes the files of a redirect folder as Build wrote them.
type Manifest struct {
	SchemaVersion int             `json:"schema_version"`
	Entries       []ManifestEntry `json:"entries"` // sorted by name, then file
}

// ManifestEntry is one published package.
type ManifestEntry struct {
	Name             string `json:"name"`                     // package name
	File             string `json:"file"`                     // the server's file name (base name)
	GUID             string `json:"guid"`                     // package GUID, 32 hex digits
	Size             int64  `json:"size"`                     // bytes of the server's copy
	SHA256           string `json:"sha256"`                   // of the server's copy
	CompressedFile   string `json:"compressed_file"`          // name in the redirect folder
	CompressedSize   int64  `json:"compressed_size"`          // its bytes
	CompressedSHA256 string `json:"compressed_sha256"`        // its digest
	LowercaseFile    string `json:"lowercase_file,omitempty"` // the lower-case copy, when written
}

// ReadManifest reads dir's manifest.json. A missing file is (nil, nil); a
// file that is too big, not JSON, of another schema or with an invalid entry
// is an error, which callers treat as "no manifest".
func ReadManifest(dir string) (*Manifest, error) {
	path := dir + string(os.PathSeparator) + ManifestName
	data, err := fsutil.ReadRegular(path, maxManifestSize)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil
	case errors.Is(err, fsutil.ErrTooBig):
		return nil, fmt.Errorf("redirect: %s: larger than %d bytes", path, maxManifestSize)
	case err != nil:
		return nil, fmt.Errorf("redirect: %w", err)
	}
	m, err := parseManifest(data)
	if err != nil {
		return nil, fmt.Errorf("redirect: %s: %w", path, err)
	}
	return m, nil
}

// parseManifest decodes and checks a manifest.
func parseManifest(data []byte) (*Manifest, error) {
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&m); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("offset %d: %v", se.Offset, err)
		}
		return nil, err
	}
	if m.SchemaVersion != ManifestSchema {
		return nil, fmt.Errorf("schema_version %d, want %d", m.SchemaVersion, ManifestSchema)
	}
	for i, e := range m.Entries {
		if e.Name == "" || fsutil.SafeFileName(e.File) != nil || fsutil.SafeFileName(e.CompressedFile) != nil || e.Size < 0 || e.CompressedSize < 0 {
			return nil, fmt.Errorf("entry %d (%q): invalid", i, e.CompressedFile)
		}
		if _, err := format.ParseGUID(e.GUID); err != nil {
			return nil, fmt.Errorf("entry %d (%q): %v", i, e.CompressedFile, err)
		}
	}
	return &m, nil
}

// marshal returns the manifest as written: entries sorted, indented, with a
// trailing newline.
func (m *Manifest) marshal() []byte {
	slices.SortFunc(m.Entries, func(a, b ManifestEntry) int {
		if c := cmpFold(a.Name, b.Name); c != 0 {
			return c
		}
		return cmpFold(a.CompressedFile, b.CompressedFile)
	})
	if m.Entries == nil {
		m.Entries = []ManifestEntry{}
	}
	data, _ := json.MarshalIndent(m, "", "  ")
	return append(data, '\n')
}

// byCompressed indexes the entries by compressed file name.
func (m *Manifest) byCompressed() map[string]ManifestEntry {
	out := map[string]ManifestEntry{}
	if m != nil {
		for _, e := range m.Entries {
			out[e.CompressedFile] = e
		}
	}
	return out
}
