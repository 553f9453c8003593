package redirect

import (
	"fmt"

	"github.com/upkdeps/upkdeps/internal/textw"
	"github.com/upkdeps/upkdeps/uz"
)

// Line is the line `upkdeps uz` prints for a job done (Result not nil):
// its input and output, what happened to the output ("would be ..." in a
// dry run, except unchanged) and the sizes with the ratio, or for a .uz
// larger than its source, that it is larger.
func (j *FileJob) Line() string {
	r := j.Result
	status := string(r.Status)
	if r.DryRun && r.Status != Unchanged {
		status = "would be " + status
	}
	var sizes string
	if r.CompressedSize > r.Size && r.Kind == uz.KindUZ {
		sizes = fmt.Sprintf("%d bytes, .uz %d bytes (larger)", r.Size, r.CompressedSize)
	} else {
		sizes = fmt.Sprintf("%d bytes, %s %d bytes (%s)", r.Size, r.Kind.Ext(), r.CompressedSize, textw.Percent(r.CompressedSize, r.Size))
	}
	return fmt.Sprintf("%s -> %s: %s; %s", j.Input, r.Dst, status, sizes)
}
