package check

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/demo"
)

func openDemo(t *testing.T) *install.Install {
	t.Helper()
	dir := t.TempDir()
	if err := demo.Write(dir); err != nil {
		t.Fatal(err)
	}
	in, err := install.Open(install.Options{Ini: filepath.Join(dir, demo.Ini)})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestRunCancelled: Ctrl-C (a cancelled context) stops a check with its
// error, and no report; the same install checks in full afterwards.
func TestRunCancelled(t *testing.T) {
	in := openDemo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if rep, _, err := Run(ctx, in, Options{}); !errors.Is(err, context.Canceled) || rep != nil {
		t.Fatalf("have %v, %v; want no report and context.Canceled", rep, err)
	}
	rep, c, err := Run(context.Background(), in, Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.SchemaVersion != SchemaVersion || len(rep.Findings) == 0 || c.Graph == nil || len(rep.Summary.FixFirst) != 3 {
		t.Errorf("report: schema %d, %d findings, fix first %d", rep.SchemaVersion, len(rep.Findings), len(rep.Summary.FixFirst))
	}
}
