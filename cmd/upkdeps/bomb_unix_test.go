//go:build unix

package main

import (
	"archive/zip"
	"compress/flate"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// zeros is an endless reader of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestBombMemberMemory indexes a 1 MiB zip holding a package whose member
// expands to almost 1 GiB (a real header and tables, then zeros), in a
// child process, and measures its peak memory: the member is streamed
// (hashed whole, only its first and last bytes kept for the tables), so
// the peak stays far below the member's size, where reading it whole took
// about twice its size.
func TestBombMemberMemory(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("compresses and reads 1 GiB; the race detector's shadow memory makes the peak meaningless")
	}
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "bomb.zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	w, err := zw.Create("System/Bomb.u")
	if err != nil {
		t.Fatal(err)
	}
	pkg := fixPkg(t, 60)
	w.Write(pkg)
	const size = 1<<30 - 1<<20
	if _, err := io.CopyN(w, zeros{}, size-int64(len(pkg))); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	writeFixFile(t, filepath.Join(dir, "small", "Small.u"), pkg)
	indexAdd := func(src string) (peakKiB int64, took time.Duration) {
		args, _ := json.Marshal([]string{"index", "add", "--db", filepath.Join(dir, "index.db"), "--no-progress", "--json", src})
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), killArgsEnv+"="+string(args), killAtEnv+"=0")
		start := time.Now()
		out, err := cmd.Output()
		if err != nil || !strings.Contains(string(out), `"packages": 1`) {
			t.Fatalf("index add %s: %v\n%s", src, err, out)
		}
		peak := int64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) // KiB; bytes on macOS
		if runtime.GOOS == "darwin" {
			peak >>= 10
		}
		return peak, time.Since(start)
	}
	base, _ := indexAdd(filepath.Join(dir, "small"))
	peak, took := indexAdd(filepath.Join(dir, "bomb.zip"))
	t.Logf("index add of a %d-byte member: %v, peak RSS %d MiB (%d MiB for a 1-package folder)", size, took.Round(time.Millisecond), peak>>10, base>>10)
	if peak-base > 64<<10 {
		t.Errorf("peak RSS %d MiB, %d MiB over the run on one small package: want under 64", peak>>10, (peak-base)>>10)
	}
}
