// Command rawread reads an install's package files as cheaply as a read
// of their tables can be: the raw-read floor that scripts/bench-check.sh
// sets `upkdeps check` against. Each file (ini.IsPackageExt) under DIR is
// opened, read once up to 64 KiB from its start, and closed, on J
// goroutines; the folders are listed first, as check lists them.
//
//	go run ./internal/demo/rawread [-j 2] DIR
package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/upkdeps/upkdeps/ini"
)

func main() {
	jobs := flag.Int("j", 2, "goroutines reading files")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: rawread [-j J] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || *jobs < 1 {
		flag.Usage()
		os.Exit(2)
	}
	n, bytes, err := read(flag.Arg(0), *jobs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rawread:", err)
		os.Exit(1)
	}
	fmt.Printf("%d files, %d bytes read\n", n, bytes)
}

// read reads every package file under dir as the floor does and returns
// how many files and bytes it read.
func read(dir string, jobs int) (int, int64, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && ini.IsPackageExt(filepath.Ext(p)) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	next := make(chan string)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		total int64
		first error
	)
	for range jobs {
		wg.Go(func() {
			buf := make([]byte, 64<<10)
			var got int64
			for p := range next {
				k, err := readHead(p, buf)
				got += int64(k)
				if err != nil {
					mu.Lock()
					first = cmpErr(first, err)
					mu.Unlock()
				}
			}
			mu.Lock()
			total += got
			mu.Unlock()
		})
	}
	for _, p := range files {
		next <- p
	}
	close(next)
	wg.Wait()
	return len(files), total, first
}

// readHead opens p, reads up to len(buf) bytes from its start and closes it.
func readHead(p string, buf []byte) (int, error) {
	f, err := os.Open(p)
	if err != nil {
		return 0, err
	}
	k, err := f.ReadAt(buf, 0)
	if err == io.EOF {
		err = nil
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return k, err
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}
