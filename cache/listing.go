package cache

// ListSchemaVersion is the version of Listing's JSON form (what
// `upkdeps cache list --json` prints; docs/json.md).
const ListSchemaVersion = 1

// Listing is every entry of a cache and its stray download files, in the
// order Entries and Strays give them: the JSON form of `cache list`.
// What an entry lacks is null: a line without a file has no size or
// version, a file without a line no name.
type Listing struct {
	SchemaVersion int           `json:"schema_version"`
	Cache         string        `json:"cache"`
	Entries       []ListedEntry `json:"entries"`
	Stray         []ListedStray `json:"stray"`
}

// ListedEntry is one cache entry in a Listing.
type ListedEntry struct {
	GUID       string  `json:"guid"`
	Generation int     `json:"generation"`
	Name       *string `json:"name"`
	File       *string `json:"file"`
	Size       *int64  `json:"size"`
	Version    *int    `json:"version"`
	State      string  `json:"state"`
	Installed  string  `json:"installed,omitempty"`
}

// ListedStray is one stray download file in a Listing.
type ListedStray struct {
	File     string  `json:"file"`
	Kind     string  `json:"kind"`
	Original *string `json:"original"`
}

// List returns the cache's Listing.
func (c *Cache) List() Listing {
	out := Listing{SchemaVersion: ListSchemaVersion, Cache: c.Dir, Entries: []ListedEntry{}, Stray: []ListedStray{}}
	for _, e := range c.Entries() {
		j := ListedEntry{GUID: e.GUID, Generation: e.Generation, Name: ptr(e.Name), File: ptr(e.File),
			Version: ptr(e.Version), State: string(e.State), Installed: e.Installed}
		if e.File != "" {
			size := e.Size
			j.Size = &size
		}
		out.Entries = append(out.Entries, j)
	}
	for _, s := range c.Strays() {
		out.Stray = append(out.Stray, ListedStray{File: s.File, Kind: s.Kind, Original: ptr(s.Original)})
	}
	return out
}
