package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

// TestHostileCacheExt: a CacheExt that climbs out of the cache is an error
// for the commands that write the cache, and a warning for those that read.
func TestHostileCacheExt(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	put(t, "Game/System/Game.ini", []byte("[Core.System]\nCachePath=../Cache\nCacheExt=.uxx/../../../outside/pwn\nPaths=../System/*.u\n"))
	put(t, "Game/Cache/cache.ini", []byte("[Cache]\n"))
	put(t, "in/Foo.u", cachePkg(t, cacheGUID(1), 69, 0))
	before := files(t)
	for _, cmd := range [][]string{
		{"cache", "add", "in/Foo.u"},
		{"cache", "extract"},
		{"cache", "clean"},
	} {
		_, errOut, code := runCLI(t, append(cmd, "--ini", "Game/System/Game.ini")...)
		if code != exitError || !strings.Contains(errOut, `CacheExt=".uxx/../../../outside/pwn" is unsafe: contains a path separator`) {
			t.Errorf("%v: code %d, stderr %q: want exit 2 naming CacheExt", cmd, code, errOut)
		}
	}
	if after := files(t); !reflect.DeepEqual(after, before) {
		t.Errorf("files changed: %v", after)
	}
	out, errOut, code := runCLI(t, "cache", "list", "--ini", "Game/System/Game.ini")
	if code != exitOK || !strings.Contains(errOut, "warning: ") || !strings.Contains(errOut, "CacheExt") || !strings.Contains(out, "files GUID.uxx") {
		t.Errorf("cache list: code %d, stderr %q, want a warning and .uxx\n%s", code, errOut, out)
	}
}

// TestExtractNeverTargetsCacheIni: an entry named cache.ini extracted into
// the cache folder itself, forced, must not replace the cache's index.
func TestExtractNeverTargetsCacheIni(t *testing.T) {
	t.Chdir(t.TempDir())
	put(t, "System/Game.ini", []byte("[Core.System]\nCachePath=../Cache\nCacheExt=.uxx\nPaths=../System/*.u\n"))
	ini := "[Cache]\n11111111111111111111111111111111=cache.ini\n22222222222222222222222222222222=.upkdeps.lock\n" +
		"33333333333333333333333333333333=.upkdeps-Core.u-1.tmp\n44444444444444444444444444444444=manifest.json\n"
	put(t, "Cache/cache.ini", []byte(ini))
	for i := uint32(1); i <= 4; i++ {
		put(t, "Cache/"+cacheGUID(i).String()+".uxx", cachePkg(t, cacheGUID(i), 69, 0))
	}
	before := files(t)
	out, _, code := runCLI(t, "cache", "extract", "--ini", "System/Game.ini", "--to", "Cache", "--force")
	if code != exitFindings || strings.Count(out, "is a file upkdeps keeps for itself: never replaced") != 4 {
		t.Errorf("code %d, want 1 and four refusals:\n%s", code, out)
	}
	if have, _ := os.ReadFile("Cache/cache.ini"); string(have) != ini {
		t.Errorf("cache.ini changed:\n%s", have)
	}
	if after := files(t); !reflect.DeepEqual(after, before) {
		t.Errorf("files changed: %v", after)
	}
	if _, _, code := runCLI(t, "cache", "list", "--ini", "System/Game.ini"); code != exitOK {
		t.Errorf("cache list afterwards: code %d", code)
	}
}

// TestConcurrentCacheWriters stops one cache extract at its first write
// and runs a second meanwhile: the second fails at once, exit 2, naming the
// first; the first completes, and cache.ini ends as after one run.
func TestConcurrentCacheWriters(t *testing.T) {
	ref := t.TempDir()
	t.Chdir(ref)
	writeCacheInstall(t)
	args := []string{"cache", "extract", "--ini", "System/Game.ini"}
	runCLI(t, args...)
	wantIni, _ := os.ReadFile("Cache/cache.ini")

	t.Chdir(t.TempDir())
	writeCacheInstall(t)
	rename := fsutil.Rename
	t.Cleanup(func() { fsutil.Rename = rename })
	started, release := make(chan struct{}), make(chan struct{})
	first := true
	fsutil.Rename = func(a, b string) error {
		if first {
			first = false
			close(started)
			<-release
		}
		return rename(a, b)
	}
	done := make(chan int)
	go func() {
		_, _, code := runCLI(t, args...)
		done <- code
	}()
	<-started
	for _, second := range [][]string{args, {"cache", "clean", "--ini", "System/Game.ini"}, {"cache", "add", "--ini", "System/Game.ini", "System/Same.u"}} {
		_, errOut, code := runCLI(t, second...)
		if code != exitError || !strings.Contains(errOut, "is being changed by pid ") || !strings.Contains(errOut, "upkdeps cache extract") {
			t.Errorf("%v while another extract runs: code %d, stderr %q: want exit 2 naming the holder", second, code, errOut)
		}
	}
	// Readers do not wait for the lock.
	if _, _, code := runCLI(t, "cache", "list", "--ini", "System/Game.ini"); code != exitOK {
		t.Errorf("cache list during an extract: code %d", code)
	}
	if _, _, code := runCLI(t, append(args, "--dry-run")...); code == exitError {
		t.Errorf("a dry run during an extract: code %d", code)
	}
	close(release)
	if code := <-done; code != exitFindings {
		t.Errorf("the first extract: code %d", code)
	}
	if have, _ := os.ReadFile("Cache/cache.ini"); string(have) != string(wantIni) {
		t.Errorf("cache.ini:\nhave %q\nwant %q", have, wantIni)
	}
	fsutil.Rename = rename
	out, _, _ := runCLI(t, args...)
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, "refuse") && !strings.HasPrefix(line, "skip") {
			t.Errorf("after the first extract, the second still has work: %s", line)
		}
	}
}

// TestUZCompressRemovesItsTemps kills uz compress -o DIR before it renames
// its output: a second run removes the temporary file the first left, and
// leaves alone another one that is not its own.
func TestUZCompressRemovesItsTemps(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "in/Foo.u"), genPackage(t, 69, 1, 4000))
	writeFile(t, filepath.Join(dir, "out/.upkdeps-Other.u.uz-77.tmp"), []byte("another writer's"))
	args := []string{"uz", "compress", "-o", "out", "in/Foo.u"}
	if code, _ := runKilled(t, dir, 1, args...); code != killedCode {
		t.Fatalf("not killed: code %d", code)
	}
	temps, _ := fsutil.StaleTemps(filepath.Join(dir, "out"), []string{"Foo.u.uz"})
	if len(temps) != 1 {
		t.Fatalf("the killed run left %v, want one temporary file of Foo.u.uz", temps)
	}
	if code, _ := runKilled(t, dir, 0, args...); code != exitOK {
		t.Fatalf("second run: code %d", code)
	}
	names := testutil.DirNames(t, filepath.Join(dir, "out"))
	if want := []string{".upkdeps-Other.u.uz-77.tmp", "Foo.u.uz"}; !reflect.DeepEqual(names, want) {
		t.Errorf("out/ holds %v, want %v", names, want)
	}
}
