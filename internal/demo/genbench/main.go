// Command genbench writes the benchmark install, a realistic UT99-style
// server of N packages (see demo.WriteBench):
//
//	go run ./internal/demo/genbench -n 20000 DIR
//	upkdeps check --ini DIR/System/Bench.ini
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/upkdeps/upkdeps/internal/demo"
)

func main() {
	n := flag.Int("n", 20000, "number of packages")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: genbench [-n N] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := demo.WriteBench(flag.Arg(0), *n); err != nil {
		fmt.Fprintln(os.Stderr, "genbench:", err)
		os.Exit(1)
	}
}
