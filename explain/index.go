package explain

import (
	"context"
	"fmt"

	"github.com/upkdeps/upkdeps/index"
)

// DBIndex answers through a package index: db's copies of a package
// (index.DB.Candidates: those with the GUID first), each as where it is
// (the file, "archive!member", or the source of a package the index only
// describes) and its GUID. A failed look-up lists none.
func DBIndex(db *index.DB) Index {
	return func(ctx context.Context, pkg, guid string) []string {
		cs, err := db.Candidates(ctx, pkg, guid)
		if err != nil {
			return nil
		}
		var out []string
		for _, c := range cs {
			where := c.Path
			if c.Member != "" {
				where += "!" + c.Member
			}
			if where == "" {
				where = c.Source
			}
			out = append(out, fmt.Sprintf("%s (GUID %s)", where, c.GUID))
		}
		return out
	}
}
