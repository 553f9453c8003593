package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestApply: each status of a copy and of its native binary, a dry run
// writing nothing, and an interrupted run whose binaries are refused with
// their destination relative to the game root, as every other's (the
// command printed their absolute path, status empty).
func TestApply(t *testing.T) {
	ctx := context.Background()
	src, game := t.TempDir(), t.TempDir()
	b := pkgBytes(t, 2, nil)
	write(t, filepath.Join(src, "A.u"), pkgBytes(t, 1, nil))
	write(t, filepath.Join(src, "a.DLL"), []byte("MZ native code"))
	write(t, filepath.Join(src, "B.u"), b)
	write(t, filepath.Join(src, "C.u"), pkgBytes(t, 3, nil))
	write(t, filepath.Join(src, "D.utx"), pkgBytes(t, 4, nil))
	write(t, filepath.Join(game, "System", "B.u"), b)
	write(t, filepath.Join(game, "System", "C.u"), []byte("other content"))
	db := openDB(t)
	if _, err := db.Add(ctx, src, AddOptions{}); err != nil {
		t.Fatal(err)
	}
	plan, err := db.Plan(ctx, []Need{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "D"}}, PlanOptions{Installed: func(string) bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	opt := func(root string, dryRun bool) ApplyOptions {
		return ApplyOptions{
			Place: func(name string) (string, bool) {
				return filepath.Join(root, "System"), strings.EqualFold(filepath.Ext(name), ".u")
			},
			Rel: func(p string) string {
				r, _ := filepath.Rel(root, p)
				return r
			},
			DryRun: dryRun,
		}
	}
	summary := func(a *Applied) string {
		var s []string
		for _, c := range a.Copies {
			s = append(s, c.Name+"="+string(c.Status)+"@"+c.To)
			for _, b := range c.Binaries {
				s = append(s, "+"+string(b.Status)+"@"+b.To)
			}
		}
		return strings.Join(s, " ")
	}
	for _, c := range []struct {
		dryRun  bool
		want    string
		refused bool
	}{
		{true, "A=planned@System/A.u +planned@System/a.DLL B=present@System/B.u C=refused@System/C.u D=refused@", true},
		{false, "A=copied@System/A.u +copied@System/a.DLL B=present@System/B.u C=refused@System/C.u D=refused@", true},
		{false, "A=present@System/A.u +present@System/a.DLL B=present@System/B.u C=refused@System/C.u D=refused@", true},
	} {
		a, err := db.Apply(ctx, plan, opt(game, c.dryRun))
		if err != nil {
			t.Fatal(err)
		}
		if have := summary(a); have != c.want || a.Refused() != c.refused {
			t.Errorf("dry run %v: have %s (refused %v), want %s", c.dryRun, have, a.Refused(), c.want)
		}
	}
	if data, err := os.ReadFile(filepath.Join(game, "System", "C.u")); err != nil || string(data) != "other content" {
		t.Errorf("C.u replaced: %q, %v", data, err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	fresh := t.TempDir()
	a, err := db.Apply(cancelled, plan, opt(fresh, false))
	if err != nil {
		t.Fatal(err)
	}
	if have, want := summary(a), "A=interrupted@System/A.u +refused@System/a.DLL B=interrupted@System/B.u C=interrupted@System/C.u D=refused@"; have != want {
		t.Errorf("interrupted: have %s, want %s", have, want)
	}
	if _, err := os.Stat(filepath.Join(fresh, "System")); err == nil {
		t.Error("an interrupted run wrote")
	}
}
