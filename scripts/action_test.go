package scripts

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// runnerOf names GOOS/GOARCH as GitHub's RUNNER_OS and RUNNER_ARCH, and
// the archive suffix goreleaser gives that target.
func runnerOf(goos, goarch string) (osName, arch, target string, ok bool) {
	switch goos {
	case "linux":
		osName = "Linux"
	case "darwin":
		osName = "macOS"
	default:
		return "", "", "", false
	}
	switch goarch {
	case "amd64":
		arch = "X64"
	case "arm64":
		arch = "ARM64"
	default:
		return "", "", "", false
	}
	return osName, arch, goos + "_" + goarch, true
}

// TestActionScript runs the action's steps (scripts/action.sh install,
// then run) as the composite action does, against a fake release folder
// holding this tree's binary in a goreleaser-named archive with its
// checksums: the binary is installed and put on GITHUB_PATH, check and
// order write SARIF files of the demo that validate, and the outputs say
// exit 1. A tampered archive is refused.
func TestActionScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds upkdeps")
	}
	osName, arch, target, ok := runnerOf(runtime.GOOS, runtime.GOARCH)
	if !ok {
		t.Skipf("no runner like %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	for _, tool := range []string{"bash", "curl", "tar", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found", tool)
		}
	}
	root, err := testutil.ProjectRoot()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	const version = "v0.0.0-test"
	bin := filepath.Join(tmp, "upkdeps")
	args := append([]string{"build", "-o", bin, "-ldflags", "-X main.version=" + strings.TrimPrefix(version, "v")}, raceFlags...)
	build := exec.Command("go", append(args, "./cmd/upkdeps")...)
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	releases := filepath.Join(tmp, "releases")
	rel := filepath.Join(releases, version)
	if err := os.MkdirAll(rel, 0o755); err != nil {
		t.Fatal(err)
	}
	archive := fmt.Sprintf("upkdeps_%s_%s.tar.gz", strings.TrimPrefix(version, "v"), target)
	writeTarGz(t, filepath.Join(rel, archive), map[string]string{"upkdeps": bin, "README.md": filepath.Join(root, "README.md")})
	sum := fileSHA256(t, filepath.Join(rel, archive))
	if err := os.WriteFile(filepath.Join(rel, "checksums.txt"), []byte(sum+"  "+archive+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	script := filepath.Join(root, "scripts", "action.sh")
	ghPath, ghOut := filepath.Join(tmp, "github_path"), filepath.Join(tmp, "github_output")
	home, sarif := filepath.Join(tmp, "home"), filepath.Join(tmp, "sarif")
	env := append(os.Environ(), "RUNNER_OS="+osName, "RUNNER_ARCH="+arch, "RUNNER_TEMP="+tmp,
		"UPKDEPS_VERSION="+version, "UPKDEPS_RELEASES=file://"+filepath.ToSlash(releases), "UPKDEPS_HOME="+home,
		"GITHUB_PATH="+ghPath, "GITHUB_OUTPUT="+ghOut, "GITHUB_WORKSPACE="+root,
		"UPKDEPS_INI=testdata/demo/System/Demo.ini", "UPKDEPS_COMMANDS=check order", "UPKDEPS_SARIF_DIR="+sarif,
		"UPKDEPS_CHECK_ARGS=--disable shadowed")
	step := func(extraEnv []string, args ...string) (string, error) {
		cmd := exec.Command("bash", append([]string{script}, args...)...)
		cmd.Dir = root
		cmd.Env = append(append([]string(nil), env...), extraEnv...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := step(nil, "install"); err != nil {
		t.Fatalf("install: %v\n%s", err, out)
	}
	p, _ := os.ReadFile(ghPath)
	if strings.TrimSpace(string(p)) != filepath.Join(home, "bin") {
		t.Errorf("GITHUB_PATH: %q", p)
	}
	v, err := exec.Command(filepath.Join(home, "bin", "upkdeps"), "version").Output()
	if err != nil || !strings.Contains(string(v), "0.0.0-test") {
		t.Fatalf("installed binary: %q, %v", v, err)
	}
	// PATH as the next step of a workflow sees it.
	pathEnv := []string{"PATH=" + filepath.Join(home, "bin") + string(os.PathListSeparator) + os.Getenv("PATH")}
	if out, err := step(pathEnv, "run"); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	outputs, _ := os.ReadFile(ghOut)
	if !strings.Contains(string(outputs), "sarif-dir="+sarif+"\n") || !strings.Contains(string(outputs), "exit-code=1\n") {
		t.Errorf("GITHUB_OUTPUT:\n%s", outputs)
	}
	for _, cmd := range []string{"check", "order"} {
		data, err := os.ReadFile(filepath.Join(sarif, cmd+".sarif"))
		if err != nil {
			t.Fatal(err)
		}
		testutil.ValidateSARIF(t, data)
		if !strings.Contains(string(data), `"uri": "testdata/demo/`) {
			t.Errorf("%s.sarif: no location relative to the workspace", cmd)
		}
		if cmd == "check" && strings.Contains(string(data), `"ruleId": "shadowed"`) {
			t.Error("check.sarif: UPKDEPS_CHECK_ARGS --disable shadowed not applied")
		}
	}

	// A usage error stops the run with exit 2.
	if out, err := step(append(pathEnv, "UPKDEPS_ARGS=--no-such-flag"), "run"); exitCode(err) != 2 {
		t.Errorf("run with a bad flag: %v\n%s", err, out)
	}
	// A tampered archive is refused.
	if err := os.WriteFile(filepath.Join(rel, "checksums.txt"), []byte(strings.Repeat("0", 64)+"  "+archive+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := step(nil, "install"); exitCode(err) != 2 || !strings.Contains(out, "sha256") {
		t.Errorf("install with a wrong checksum: %v\n%s", err, out)
	}
	// A runner without a release.
	if out, err := step([]string{"RUNNER_OS=Linux", "RUNNER_ARCH=X86"}, "install"); exitCode(err) != 2 || !strings.Contains(out, "no release for linux/386") {
		t.Errorf("linux/386: %v\n%s", err, out)
	}
}

func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err == nil {
		return 0
	}
	return -1
}

func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// writeTarGz writes the files (name in the archive -> file on disk).
func writeTarGz(t *testing.T, path string, files map[string]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Stored, not compressed: deflating the 30-45 MB binary took minutes
	// under the race detector (the test's own compress/flate is
	// instrumented), and what the script is tested on is the same.
	gz, err := gzip.NewWriterLevel(f, gzip.NoCompression)
	if err != nil {
		t.Fatal(err)
	}
	tw := tar.NewWriter(gz)
	for name, src := range files {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(data))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
}
