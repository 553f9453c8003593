package install

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/format"
)

// TestGameLabelWithoutCore: an install without Core.u whose packages are
// UE2's (versions 118-144, FORMAT.md: UT2003/UT2004 118-128, SWAT 4 129,
// Bioshock 141) and whose Paths name .unr maps is UE2, not (ue1, UE1).
func TestGameLabelWithoutCore(t *testing.T) {
	for _, v := range []uint16{118, 126, 129, 141, 144} {
		dir := t.TempDir()
		for _, d := range []string{"System", "Maps"} {
			if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		b := format.NewBuilder(v, 0)
		b.ExportSpec("MyLevel:Engine.Level", 16)
		if err := format.WriteFile(filepath.Join(dir, "Maps", "DM-Only.unr"), b.File); err != nil {
			t.Fatal(err)
		}
		ini := filepath.Join(dir, "System", "Server.ini")
		if err := os.WriteFile(ini, []byte("[Core.System]\r\nPaths=../System/*.u\r\nPaths=../Maps/*.unr\r\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		in, err := Open(Options{Ini: ini})
		if err != nil {
			t.Fatal(err)
		}
		if have := in.GameLabel(); have != "ue2, UE2" {
			t.Errorf("version %d: %q, want \"ue2, UE2\"", v, have)
		}
	}
}
