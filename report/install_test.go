package report

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/demo"
)

// TestFromInstall: the demo's page options carry its EditPackages order,
// its downloads (a root per ServerPackages line and map), its Paths
// folders and its unused packages; a done context stops it.
func TestFromInstall(t *testing.T) {
	dir := t.TempDir()
	if err := demo.Write(dir); err != nil {
		t.Fatal(err)
	}
	in, err := install.Open(install.Options{Ini: filepath.Join(dir, demo.Ini)})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rep, c, err := check.Run(ctx, in, check.Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	opt, err := FromInstall(ctx, in, c, "")
	if err != nil {
		t.Fatal(err)
	}
	if opt.Order == nil || len(opt.Order.EditPackages) != len(in.Ini.EditPackages()) {
		t.Errorf("order: %+v", opt.Order)
	}
	if opt.Downloads == nil || len(opt.Downloads.Roots) == 0 || opt.Downloads.Total.Count == 0 {
		t.Errorf("downloads: %+v", opt.Downloads)
	}
	if len(opt.Folders) != len(in.Folders()) || len(opt.Folders) == 0 {
		t.Errorf("folders %q", opt.Folders)
	}
	if opt.Unused == nil {
		t.Error("no unused report")
	}
	d := Build(rep, c.Graph, opt)
	if d.Order == nil || d.Downloads == nil || d.Unused == nil {
		t.Errorf("page data lacks a view: order %v, downloads %v, unused %v", d.Order != nil, d.Downloads != nil, d.Unused != nil)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := FromInstall(done, in, c, ""); err == nil {
		t.Error("a done context: no error")
	}
}

// TestSummary: the line report prints after writing a page, with its size
// in B, KB or MB.
func TestSummary(t *testing.T) {
	s := check.Summary{Errors: 2, Warnings: 1}
	for _, tc := range []struct {
		size int
		want string
	}{
		{512, "r.html (512 B): 40 packages, 2 error(s), 1 warning(s)"},
		{1536, "r.html (1.5 KB): 40 packages, 2 error(s), 1 warning(s)"},
		{5 << 20, "r.html (5.0 MB): 40 packages, 2 error(s), 1 warning(s)"},
	} {
		if have := Summary("r.html", tc.size, 40, s); have != tc.want {
			t.Errorf("size %d: %q, want %q", tc.size, have, tc.want)
		}
	}
}
