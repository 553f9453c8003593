package cache

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestHints: a refusal that an option would change, and a replacement an
// option made, name the option as a Hint and not as a command-line flag;
// the caller's hint function words it, the library's own words otherwise.
func TestHints(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "Cache")
	writeFile(t, root, "Cache/cache.ini", []byte("[Cache]\r\n"))
	foo := writeFile(t, root, "in/Foo.u", pkg(t, false, g(1), 1))
	c := open(t, dir, Options{}, "")
	if err := c.PlanAdd([]string{foo}, AddOptions{}).Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	other := writeFile(t, root, "in2/Foo.u", pkgExport(t, false, g(1), 1, "Changed"))
	c2 := open(t, dir, Options{}, "")
	refused := c2.PlanAdd([]string{other}, AddOptions{}).Actions[0]
	forced := c2.PlanAdd([]string{other}, AddOptions{Force: true}).Actions[0]
	if have, want := refused.Why.Hint, (Hint{Option: OptionForce, Would: "replace it"}); have != want {
		t.Errorf("refusal's hint %+v, want %+v", have, want)
	}
	if have, want := forced.Why.Hint, (Hint{Option: OptionForce, Used: true}); have != want {
		t.Errorf("replacement's hint %+v, want %+v", have, want)
	}
	flag := func(h Hint) string { return " [" + strings.ToLower(string(h.Option)) + "]" }
	for _, tc := range []struct {
		a          Action
		lib, asked string
	}{
		{refused, " exists with other content (Force would replace it)", " exists with other content [force]"},
		{forced, "(other content, with Force)", "(other content [force])"},
	} {
		lib, asked := tc.a.Format(nil), tc.a.FormatWith(nil, flag)
		if !strings.HasSuffix(lib, tc.lib) || !strings.HasSuffix(asked, tc.asked) || strings.Contains(lib, "--") {
			t.Errorf("%s: Format %q, FormatWith %q; want ...%q and ...%q", tc.a.Op, lib, asked, tc.lib, tc.asked)
		}
	}
	if s := (Hint{}).String(); s != "" {
		t.Errorf("no hint: %q", s)
	}
}
