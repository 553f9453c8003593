// Command gendemo writes the demo install: go run ./internal/demo/gendemo testdata/demo
package main

import (
	"fmt"
	"os"

	"github.com/upkdeps/upkdeps/internal/demo"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gendemo DIR")
		os.Exit(2)
	}
	if err := demo.Write(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "gendemo:", err)
		os.Exit(1)
	}
}
