package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/demo"
	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

// The kill hook: a test re-runs its own binary with these variables set;
// TestMain then runs the command line of killArgs in place of the tests,
// counting the steps that change the disk (before and after each rename and
// removal through fsutil) and dying with exit code 137, as from kill -9, at
// step killAt: no deferred function runs, temporary files stay, the lock
// dies with the process. killAt 0 runs to the end and prints the step count
// on stderr.
const (
	killArgsEnv = "UPKDEPS_TEST_KILL_ARGS"
	killAtEnv   = "UPKDEPS_TEST_KILL_AT"
	killedCode  = 137
)

func TestMain(m *testing.M) {
	if args := os.Getenv(killArgsEnv); args != "" {
		os.Exit(runWithKill(args, os.Getenv(killAtEnv)))
	}
	// The kill, bomb, interrupt and read-only tests run this binary again
	// and wait for it to end: under -race each child would sleep a second
	// before exiting (GORACE's atexit_sleep_ms, 1000 by default), which is
	// most of a child's time.
	if raceEnabled && !strings.Contains(os.Getenv("GORACE"), "atexit_sleep_ms") {
		os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	}
	code := m.Run()
	closeBrowser()
	removeShared()
	os.Exit(code)
}

func runWithKill(argsJSON, at string) int {
	var args []string
	if err := json.Unmarshal([]byte(argsJSON), &args); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 99
	}
	killAt, _ := strconv.Atoi(at)
	steps := 0
	step := func() {
		steps++
		if steps == killAt {
			os.Exit(killedCode)
		}
	}
	rename, remove := fsutil.Rename, fsutil.Remove
	fsutil.Rename = func(a, b string) error {
		step()
		err := rename(a, b)
		step()
		return err
	}
	fsutil.Remove = func(p string) error {
		step()
		err := remove(p)
		step()
		return err
	}
	code := run(context.Background(), args, strings.NewReader(""), os.Stdout, os.Stderr)
	fmt.Fprintf(os.Stderr, "steps=%d\n", steps)
	return code
}

// runKilled runs upkdeps args in dir in a child process killed at step
// killAt (0: never) and returns the exit code and the number of steps.
func runKilled(t *testing.T, dir string, killAt int, args ...string) (code, steps int) {
	t.Helper()
	argsJSON, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), killArgsEnv+"="+string(argsJSON), killAtEnv+"="+strconv.Itoa(killAt))
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("%v: %v", args, err)
	}
	if i := strings.LastIndex(string(out), "steps="); i >= 0 {
		steps, _ = strconv.Atoi(strings.TrimSpace(string(out[i+len("steps="):])))
	}
	if code != killedCode && code > exitFindings {
		t.Fatalf("%v (kill at %d): exit %d\n%s", args, killAt, code, out)
	}
	return code, steps
}

// snapshot maps every file under dir to a digest of its bytes; the lock
// file, which holds its last holder's pid, only to its presence.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			out[rel+"/"] = "folder"
		case d.Name() == fsutil.LockName:
			out[rel] = "lock"
		default:
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			out[rel] = hex.EncodeToString(sum[:8])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func diffSnapshots(have, want map[string]string) string {
	var keys []string
	for k := range have {
		keys = append(keys, k)
	}
	for k := range want {
		if _, ok := have[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		if have[k] != want[k] {
			fmt.Fprintf(&b, "  %s: have %q, want %q\n", k, have[k], want[k])
		}
	}
	return b.String()
}

// TestKillAtEveryStep kills each writing command at every step in turn (a
// test hook between steps, not timing; redirect build, whose steps repeat
// per file, at a sample of them: see killSteps), runs the same command
// again, and compares the folder with the result of one uninterrupted run:
// equal, including no temporary file left.
func TestKillAtEveryStep(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the commands a few hundred times")
	}
	cacheFixture := func(t *testing.T, dir string) {
		t.Chdir(dir)
		writeCacheInstall(t)
	}
	tests := []struct {
		name    string
		fixture func(t *testing.T, dir string)
		args    []string
	}{
		{"cache extract", cacheFixture, []string{"cache", "extract", "--ini", "System/Game.ini"}},
		{"cache clean", cacheFixture, []string{"cache", "clean", "--ini", "System/Game.ini"}},
		{"redirect build", func(t *testing.T, dir string) {
			if err := demo.Write(dir); err != nil {
				t.Fatal(err)
			}
		}, []string{"redirect", "build", "--ini", demo.Ini, "-o", "Redirect", "--lowercase", "--allow-bigger", "--jobs", "1", "--no-progress"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ref := t.TempDir()
			tt.fixture(t, ref)
			_, steps := runKilled(t, ref, 0, tt.args...)
			if steps < 4 {
				t.Fatalf("only %d steps: the hook sees nothing", steps)
			}
			want := snapshot(t, ref)
			for k := range want {
				if fsutil.IsTemp(filepath.Base(k)) {
					t.Errorf("an uninterrupted run left %s", k)
				}
			}
			// The build's steps repeat per file (before and after each
			// rename): kill at every step of the cache commands, at the
			// first four and the last two of the build and one in five
			// between (an odd stride meets both sides of a rename), or,
			// with UPKDEPS_TEST_FULL=1, at every step of all three.
			stride := 1
			if tt.name == "redirect build" && !testutil.Full() {
				stride = 5
			}
			for _, at := range killSteps(steps, stride) {
				dir := t.TempDir()
				tt.fixture(t, dir)
				if code, _ := runKilled(t, dir, at, tt.args...); code != killedCode {
					t.Fatalf("kill at step %d of %d: exit %d, not killed", at, steps, code)
				}
				runKilled(t, dir, 0, tt.args...)
				if have := snapshot(t, dir); !reflect.DeepEqual(have, want) {
					t.Errorf("killed at step %d of %d, then run again: the folder differs from one uninterrupted run:\n%s",
						at, steps, diffSnapshots(have, want))
				}
			}
			t.Logf("%d steps; killed at %d of them, each completed by a second run", steps, len(killSteps(steps, stride)))
		})
	}
}

// killSteps returns the steps 1 to last to kill a command at: every
// stride-th, counting from the fifth, and every one of the first four and
// of the last two.
func killSteps(last, stride int) []int {
	var at []int
	for i := 1; i <= last; i++ {
		if i <= 4 || i >= last-1 || (i-4)%stride == 0 {
			at = append(at, i)
		}
	}
	return at
}
