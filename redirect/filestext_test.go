package redirect

import (
	"testing"

	"github.com/upkdeps/upkdeps/uz"
)

// TestFileJobLine: the sizes with the ratio, "would be" in a dry run but
// not for an unchanged output, and a .uz larger than its source said so
// (a larger .uz2 is only a ratio over 100%).
func TestFileJobLine(t *testing.T) {
	for _, tc := range []struct {
		r    FileResult
		want string
	}{
		{FileResult{Dst: "out/Mod.u.uz", Kind: uz.KindUZ, Status: Created, Size: 1000, CompressedSize: 169},
			"in/Mod.u -> out/Mod.u.uz: created; 1000 bytes, .uz 169 bytes (16.9%)"},
		{FileResult{Dst: "out/Mod.u.uz", Kind: uz.KindUZ, Status: Created, DryRun: true, Size: 1000, CompressedSize: 169},
			"in/Mod.u -> out/Mod.u.uz: would be created; 1000 bytes, .uz 169 bytes (16.9%)"},
		{FileResult{Dst: "out/Mod.u.uz", Kind: uz.KindUZ, Status: Unchanged, DryRun: true, Size: 1000, CompressedSize: 169},
			"in/Mod.u -> out/Mod.u.uz: unchanged; 1000 bytes, .uz 169 bytes (16.9%)"},
		{FileResult{Dst: "out/Mod.u.uz", Kind: uz.KindUZ, Status: Replaced, Size: 10, CompressedSize: 40},
			"in/Mod.u -> out/Mod.u.uz: replaced; 10 bytes, .uz 40 bytes (larger)"},
		{FileResult{Dst: "out/Mod.u.uz2", Kind: uz.KindUZ2, Status: Created, Size: 10, CompressedSize: 40},
			"in/Mod.u -> out/Mod.u.uz2: created; 10 bytes, .uz2 40 bytes (400.0%)"},
		{FileResult{Dst: "out/Empty.u.uz2", Kind: uz.KindUZ2, Status: Created, Size: 0, CompressedSize: 14},
			"in/Mod.u -> out/Empty.u.uz2: created; 0 bytes, .uz2 14 bytes (-)"},
	} {
		j := FileJob{Input: "in/Mod.u", Result: &tc.r}
		if have := j.Line(); have != tc.want {
			t.Errorf("have %q\nwant %q", have, tc.want)
		}
	}
}
