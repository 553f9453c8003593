package main

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/buildinfo"
)

// TestVersion: `version`, `--version` and `version --json` agree, and name
// the Go toolchain and platform the binary was built with.
func TestVersion(t *testing.T) {
	out, errOut, code := runCLI(t, "version")
	if code != exitOK || errOut != "" {
		t.Fatalf("version: exit %d, stderr %q", code, errOut)
	}
	if !strings.HasPrefix(out, "upkdeps ") || !strings.Contains(out, runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH) {
		t.Errorf("version: %q", out)
	}
	flag, _, code := runCLI(t, "--version")
	if code != exitOK || flag != out {
		t.Errorf("--version: exit %d, %q; version printed %q", code, flag, out)
	}
	js, _, code := runCLI(t, "version", "--json")
	var v buildinfo.Info
	if err := json.Unmarshal([]byte(js), &v); err != nil || code != exitOK {
		t.Fatalf("version --json: exit %d, %v: %s", code, err, js)
	}
	if v.SchemaVersion != 1 || v.Version == "" || v.Go != runtime.Version() || "upkdeps "+v.String()+"\n" != out {
		t.Errorf("version --json: %+v, text %q", v, out)
	}
}
