package unrealarchive

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerify: a file with an item's SHA-1 and size is ok, one named like
// an item's archive (any case) with other bytes a mismatch, another
// unknown; a folder is skipped; a cancelled run stops.
func TestVerify(t *testing.T) {
	dir := t.TempDir()
	good := []byte("tech archive bytes")
	for name, data := range map[string][]byte{"tech.zip": good, "BASE.zip": []byte("truncated"), "other.7z": []byte("x")} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	sum, size, err := SHA1File(context.Background(), filepath.Join(dir, "tech.zip"))
	if want := sha1.Sum(good); err != nil || size != int64(len(good)) || sum != hex.EncodeToString(want[:]) {
		t.Fatalf("SHA1File: %s %d %v", sum, size, err)
	}
	items := []Item{
		{Name: "Tech Pack", ArchiveName: "tech.zip", Hash: sum, Size: size},
		{Name: "Base Pack", ArchiveName: "base.zip", Hash: strings.Repeat("0", 40), Size: 100},
	}
	rep, err := Verify(context.Background(), dir, items)
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, f := range rep.Files {
		have = append(have, f.File+"="+string(f.Status)+":"+f.Item)
	}
	if got, want := strings.Join(have, " "), "BASE.zip=mismatch:Base Pack other.7z=unknown: tech.zip=ok:Tech Pack"; got != want || rep.Mismatches != 1 {
		t.Errorf("have %s (%d mismatches), want %s (1)", got, rep.Mismatches, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Verify(ctx, dir, items); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: have %v, want context.Canceled", err)
	}
}

// TestSummary: the best working download (direct over a page), the
// URLs that are not http(s) listed as refused, never offered.
func TestSummary(t *testing.T) {
	it := Item{Name: "Pack", Hash: "abc", Size: 5, Path: "content/x.yml", Downloads: []Download{
		{URL: "https://example.invalid/page", State: "OK"},
		{URL: "javascript:alert(1)", Direct: true, State: "OK"},
		{URL: "https://example.invalid/pack.zip", Direct: true, State: "OK"},
		{URL: "https://example.invalid/gone.zip", Direct: true, Main: true, State: "MISSING"},
	}}
	s := it.Summary()
	if s.Download != "https://example.invalid/pack.zip" || !s.Direct || s.SHA1 != "abc" || s.Metadata != "content/x.yml" ||
		len(s.Refused) != 1 || s.Refused[0] != "javascript:alert(1)" {
		t.Errorf("have %+v", s)
	}
	if s := (Item{Downloads: []Download{{URL: "file:///etc/passwd", State: "OK"}}}).Summary(); s.Download != "" || s.Direct || len(s.Refused) != 1 {
		t.Errorf("no working download: have %+v", s)
	}
}
