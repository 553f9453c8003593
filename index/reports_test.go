package index

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReports: the reports of index add, list and remove, as their JSON
// forms print them: an add's errors counted over its sources, the list by
// location, and a removal that stops at the first unknown location with
// what it removed before.
func TestReports(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	collection(t, dir)
	db := openDB(t)
	rep := db.NewAddReport()
	if js, _ := json.Marshal(rep); !strings.Contains(string(js), `"sources":[],"metadata":[]`) || rep.Added() != 0 {
		t.Errorf("empty add report: %s", js)
	}
	for _, loc := range []string{filepath.Join(dir, "System"), filepath.Join(dir, "Junk")} {
		res, err := db.Add(ctx, loc, AddOptions{Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		rep.AddSource(res)
	}
	if rep.Added() != 2 || rep.Errors != len(rep.Sources[1].Errors) || rep.Errors < 2 || rep.DB != db.Path() || rep.SchemaVersion != ReportSchemaVersion {
		t.Errorf("add report: %d added, %d errors (Junk has %d): %+v", rep.Added(), rep.Errors, len(rep.Sources[1].Errors), rep)
	}

	list, err := db.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var locs []string
	for _, s := range list.Sources {
		locs = append(locs, filepath.Base(s.Location))
	}
	if !slices.Equal(locs, []string{"Junk", "System"}) || list.DB != db.Path() {
		t.Errorf("list: %q in %s", locs, list.DB)
	}

	rm, err := db.RemoveAll(ctx, []string{filepath.Join(dir, "Junk"), filepath.Join(dir, "Nope"), filepath.Join(dir, "System")})
	if !errors.Is(err, ErrNoSource) || len(rm.Removed) != 1 || filepath.Base(rm.Removed[0]) != "Junk" {
		t.Errorf("remove: %+v, %v; want Junk removed, then ErrNoSource", rm, err)
	}
	if rm, err := db.RemoveAll(ctx, nil); err != nil || rm.Removed == nil {
		t.Errorf("remove nothing: %+v, %v", rm, err)
	}
}
