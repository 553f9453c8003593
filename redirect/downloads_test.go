package redirect

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestDownloads(t *testing.T) {
	s := modServer(t, 1)
	g, sp := s.graphOf(t)
	size := func(rel string) int64 {
		st, err := os.Stat(filepath.Join(s.root, rel))
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	d, err := NewDownloads(context.Background(), g, DownloadOptions{ServerPackages: sp, Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	type root struct {
		name, kind string
		pkgs       []string
		bytes      int64
	}
	var have []root
	for _, r := range d.Roots {
		have = append(have, root{r.Name, r.Kind, r.Packages, r.Bytes})
		if r.Count != len(r.Packages) || r.Compressed != -1 || r.CompressedCount != 0 {
			t.Errorf("%s: count %d of %d packages, compressed %d (%d files); want -1 without a folder", r.Name, r.Count, len(r.Packages), r.Compressed, r.CompressedCount)
		}
	}
	game, tex, snd := size("System/ModGame.u"), size("Textures/ModTex.utx"), size("Sounds/ModSnd.uax")
	want := []root{ // heaviest first; Core and Engine are stock, ModAdmin ServerSideOnly
		{"CTF-Gen", "map", []string{"CTF-Gen", "ModGame", "ModSnd", "ModTex"}, size("Maps/CTF-Gen.unr") + game + snd + tex},
		{"ServerPackages", "server_packages", []string{"ModGame", "ModSnd", "ModTex"}, game + snd + tex},
		{"DM-Gen", "map", []string{"DM-Gen", "ModTex"}, size("Maps/DM-Gen.unr") + tex},
	}
	if !slices.EqualFunc(have, want, func(a, b root) bool {
		return a.name == b.name && a.kind == b.kind && slices.Equal(a.pkgs, b.pkgs) && a.bytes == b.bytes
	}) {
		t.Errorf("roots:\nhave %+v\nwant %+v", have, want)
	}
	var shared []string
	for _, p := range d.Packages {
		shared = append(shared, p.Name)
	}
	if want := []string{"ModTex", "ModGame", "ModSnd", "DM-Gen", "CTF-Gen"}; !slices.Equal(shared, want) {
		t.Errorf("packages by roots sharing them: have %v, want %v", shared, want)
	}
	if want := size("Maps/CTF-Gen.unr") + size("Maps/DM-Gen.unr") + game + snd + tex; d.Total.Count != 5 || d.Total.Bytes != want {
		t.Errorf("total: %+v, want 5 packages, %d bytes", d.Total, want)
	}

	// With the redirect built, compressed sizes are its files'.
	out := t.TempDir()
	m := s.mapOf(t, MapOptions{})
	if _, err := Build(context.Background(), m, BuildOptions{Out: out, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	d, err = NewDownloads(context.Background(), g, DownloadOptions{ServerPackages: sp, Generation: 1, Dir: out, Maps: []string{"dm-gen.unr"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Roots) != 2 || d.Roots[0].Name != "ServerPackages" || d.Roots[1].Name != "DM-Gen" {
		t.Fatalf("--maps DM-Gen: roots %+v", d.Roots)
	}
	var sum int64
	for _, p := range d.Packages {
		st, err := os.Stat(filepath.Join(out, p.CompressedFile))
		if err != nil || st.Size() != p.Compressed {
			t.Errorf("%s: compressed %d, file %v %v", p.Name, p.Compressed, st, err)
			continue
		}
		sum += p.Compressed
	}
	if d.Total.Compressed != sum || d.Total.CompressedCount != d.Total.Count || d.Total.Count != 4 {
		t.Errorf("total %+v, want 4 packages, all compressed, %d compressed bytes", d.Total, sum)
	}
	if _, err := NewDownloads(context.Background(), g, DownloadOptions{Maps: []string{"DM-Nope"}}); err == nil {
		t.Errorf("an unknown map is not an error")
	}
}

// TestDownloadsDir: a redirect folder that is missing or a plain file is
// an error (every size was -1 and the exit 0), a symbolic link in it is
// not measured through (a link to a system file was sized), and a done
// context stops the computation.
func TestDownloadsDir(t *testing.T) {
	s := modServer(t, 1)
	g, sp := s.graphOf(t)
	out := t.TempDir()
	if _, err := Build(context.Background(), s.mapOf(t, MapOptions{}), BuildOptions{Out: out, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(t.TempDir(), "file")
	os.WriteFile(plain, []byte("x"), 0o644)
	for _, dir := range []string{filepath.Join(out, "nope"), plain} {
		if _, err := NewDownloads(context.Background(), g, DownloadOptions{ServerPackages: sp, Generation: 1, Dir: dir}); err == nil {
			t.Errorf("--redirect %s: no error", dir)
		}
	}
	// Replace ModTex's compressed file by a link to a big file elsewhere.
	d, err := NewDownloads(context.Background(), g, DownloadOptions{ServerPackages: sp, Generation: 1, Dir: out})
	if err != nil {
		t.Fatal(err)
	}
	var tex PackageDownload
	for _, p := range d.Packages {
		if p.Name == "ModTex" {
			tex = p
		}
	}
	if tex.Compressed < 0 {
		t.Fatalf("ModTex: %+v, want its compressed size", tex)
	}
	big := filepath.Join(t.TempDir(), "big")
	os.WriteFile(big, make([]byte, 1<<20), 0o644)
	link := filepath.Join(out, tex.CompressedFile)
	os.Remove(link)
	if err := os.Symlink(big, link); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	if d, err = NewDownloads(context.Background(), g, DownloadOptions{ServerPackages: sp, Generation: 1, Dir: out}); err != nil {
		t.Fatal(err)
	}
	for _, p := range d.Packages {
		if p.Name == "ModTex" && p.Compressed != -1 {
			t.Errorf("ModTex through a link: compressed %d, want -1 (not measured)", p.Compressed)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewDownloads(ctx, g, DownloadOptions{ServerPackages: sp, Generation: 1}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: have %v, want context.Canceled", err)
	}
}
