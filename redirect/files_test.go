package redirect

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/upkdeps/upkdeps/uz"
)

// TestFiles: CompressFiles names each output by its package's version
// (a file that is no package is a KindError), takes each input once, in
// order, refuses the second of two inputs with one output, removes the
// temporary files a killed run left beside the outputs, and
// DecompressFiles restores the originals.
func TestFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	ue1 := filepath.Join(dir, "a", "Mod.u")
	ue2 := filepath.Join(dir, "b", "Tex.utx")
	twin := filepath.Join(dir, "c", "mod.u") // the same output as ue1, ignoring case
	junk := filepath.Join(dir, "a", "junk.u")
	for _, d := range []string{"a", "b", "c"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeRaw(t, ue1, packageImage(t, spec{exports: []string{"Thing:Class"}, payload: 4 << 10}))
	writeRaw(t, ue2, packageImage(t, spec{version: 128, exports: []string{"Wall:Engine.Texture"}, payload: 4 << 10}))
	writeRaw(t, twin, packageImage(t, spec{exports: []string{"Thing:Class"}, payload: 4 << 10}))
	writeRaw(t, junk, []byte("junk"))
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(out, ".upkdeps-Mod.u.uz-42.tmp")
	writeRaw(t, stale, []byte("left"))
	var calls atomic.Int32 // the workers call the progress func
	fs, err := CompressFiles(ctx, []string{ue2, ue1, junk, twin, ue1}, CompressOptions{AllowBigger: true},
		FilesOptions{Dir: out, Jobs: 2, Progress: func(total int) func() { return func() { calls.Add(1) } }})
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, j := range fs.Jobs {
		s := filepath.Base(j.Input) + ">" + filepath.Base(j.Output)
		if j.Err != nil {
			s += " error"
		}
		have = append(have, s)
	}
	if want := []string{"Mod.u>Mod.u.uz", "junk.u>. error", "Tex.utx>Tex.utx.uz2", "mod.u>mod.u.uz error"}; !slices.Equal(have, want) {
		t.Errorf("jobs %q, want %q", have, want)
	}
	var ke *KindError
	if !errors.As(fs.Jobs[1].Err, &ke) || ke.Path != junk || strings.Contains(fs.Jobs[1].Err.Error(), "--") {
		t.Errorf("junk: %v, want a KindError naming it", fs.Jobs[1].Err)
	}
	if fs.Failed() != 2 || calls.Load() != 4 || fs.Jobs[0].Kind != uz.KindUZ || fs.Jobs[2].Kind != uz.KindUZ2 {
		t.Errorf("failed %d, progress %d, kinds %v %v", fs.Failed(), calls.Load(), fs.Jobs[0].Kind, fs.Jobs[2].Kind)
	}
	if len(fs.Removed) != 1 || fs.Removed[0] != stale {
		t.Errorf("removed %q, want %s", fs.Removed, stale)
	}

	back := filepath.Join(dir, "back")
	if err := os.Mkdir(back, 0o755); err != nil {
		t.Fatal(err)
	}
	ds, err := DecompressFiles(ctx, []string{fs.Jobs[2].Output, fs.Jobs[0].Output}, DecompressOptions{}, FilesOptions{Dir: back})
	if err != nil || ds.Failed() != 0 || len(ds.Jobs) != 2 {
		t.Fatalf("decompress: %+v, %v", ds, err)
	}
	for _, src := range []string{ue1, ue2} {
		if !slices.Equal(readRaw(t, src), readRaw(t, filepath.Join(back, filepath.Base(src)))) {
			t.Errorf("%s: not restored", filepath.Base(src))
		}
	}

	// Cancelled before it starts: every job fails with the context's error.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	cs, err := CompressFiles(cctx, []string{ue1, ue2}, CompressOptions{Force: true}, FilesOptions{Dir: out})
	if err != nil || cs.Failed() != 2 || !errors.Is(cs.Jobs[0].Err, context.Canceled) {
		t.Errorf("cancelled: %+v, %v", cs, err)
	}
}
