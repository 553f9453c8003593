package index

import "context"

// ReportSchemaVersion is the schema_version of the reports of `upkdeps
// index add`, `index list` and `index remove` (AddReport, SourceList,
// Removal; docs/json.md).
const ReportSchemaVersion = 1

// AddReport is what `upkdeps index add --json` prints: what each source
// and each Unreal Archive checkout added, in the order added.
type AddReport struct {
	SchemaVersion int               `json:"schema_version"`
	DB            string            `json:"db"` // the database's file
	Sources       []*AddResult      `json:"sources"`
	Metadata      []*MetadataResult `json:"metadata"`
	Errors        int               `json:"errors"` // files and members of the sources that could not be read
}

// NewAddReport returns an empty report of adds to d.
func (d *DB) NewAddReport() *AddReport {
	return &AddReport{SchemaVersion: ReportSchemaVersion, DB: d.Path(), Sources: []*AddResult{}, Metadata: []*MetadataResult{}}
}

// AddSource records what Add did.
func (r *AddReport) AddSource(res *AddResult) {
	r.Sources = append(r.Sources, res)
	r.Errors += len(res.Errors)
}

// AddMetadata records what AddUnrealArchive did.
func (r *AddReport) AddMetadata(res *MetadataResult) { r.Metadata = append(r.Metadata, res) }

// Added is the number of sources and checkouts recorded.
func (r *AddReport) Added() int { return len(r.Sources) + len(r.Metadata) }

// SourceList is what `upkdeps index list --json` prints: the sources, by
// location.
type SourceList struct {
	SchemaVersion int      `json:"schema_version"`
	DB            string   `json:"db"`
	Sources       []Source `json:"sources"`
}

// List lists the sources (Sources) with the database's file.
func (d *DB) List(ctx context.Context) (*SourceList, error) {
	srcs, err := d.Sources(ctx)
	if err != nil {
		return nil, err
	}
	return &SourceList{SchemaVersion: ReportSchemaVersion, DB: d.Path(), Sources: srcs}, nil
}

// Removal is what `upkdeps index remove --json` prints: the sources
// removed, as given.
type Removal struct {
	SchemaVersion int      `json:"schema_version"`
	DB            string   `json:"db"`
	Removed       []string `json:"removed"`
}

// RemoveAll removes each location in turn (Remove). On an error it
// returns the locations removed before it with the error.
func (d *DB) RemoveAll(ctx context.Context, locations []string) (*Removal, error) {
	r := &Removal{SchemaVersion: ReportSchemaVersion, DB: d.Path(), Removed: []string{}}
	for _, loc := range locations {
		if err := d.Remove(ctx, loc); err != nil {
			return r, err
		}
		r.Removed = append(r.Removed, loc)
	}
	return r, nil
}

// FindReportVersion is the schema_version of FindReport.
const FindReportVersion = 2

// FindReport is what `upkdeps find --json` prints: the indexed copies of
// what was asked for, newest first, and, for a package name, its versions
// in the Unreal Archive's catalogue.
type FindReport struct {
	SchemaVersion int                     `json:"schema_version"`
	Query         string                  `json:"query"` // as given
	Copies        []Package               `json:"copies"`
	Archive       []ArchiveVersionSummary `json:"archive"`
	q             Query                   // Query parsed: the object WriteText looks for
}

// Report looks query up (ParseQuery's forms): its copies (Find) and, when
// it names a package alone, the catalogue's versions of it.
func (d *DB) Report(ctx context.Context, query string, q Query) (FindReport, error) {
	rep := FindReport{SchemaVersion: FindReportVersion, Query: query, Archive: []ArchiveVersionSummary{}, q: q}
	var err error
	if rep.Copies, err = d.Find(ctx, q); err != nil {
		return rep, err
	}
	if q.Name != "" && q.Object == "" {
		found, err := d.ArchiveVersions(ctx, q.Name)
		if err != nil {
			return rep, err
		}
		for _, v := range found {
			rep.Archive = append(rep.Archive, v.Summary())
		}
	}
	return rep, nil
}
