package buildinfo

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// TestOf: the linked version wins over the module's, "dev" takes the
// module version go install records, and the VCS stamp gives the
// revision, its time and the modified mark.
func TestOf(t *testing.T) {
	stamped := &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"},
		{Key: "vcs.time", Value: "2026-11-28T12:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	platform := " " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	for _, tc := range []struct {
		name, version string
		bi            *debug.BuildInfo
		want          string
	}{
		{"no build info", "dev", nil, "dev" + platform},
		{"linked", "1.0.0", stamped, "1.0.0 (0123456789ab, 2026-11-28T12:00:00Z, modified)" + platform},
		{"go install", "dev", stamped, "v1.2.3 (0123456789ab, 2026-11-28T12:00:00Z, modified)" + platform},
		{"work tree", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}}, "dev (abc)" + platform},
	} {
		v := of(tc.version, tc.bi)
		if got := v.String(); got != tc.want || v.SchemaVersion != SchemaVersion {
			t.Errorf("%s: have %q (schema %d), want %q", tc.name, got, v.SchemaVersion, tc.want)
		}
	}
}

// TestRead: the test binary's own build information reads without a
// panic and names this toolchain.
func TestRead(t *testing.T) {
	if v := Read("dev"); v.Go != runtime.Version() || v.Version == "" {
		t.Errorf("Read: %+v", v)
	}
}
