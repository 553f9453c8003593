// Command upkdeps analyses Unreal Engine 1 and 2 installations: package
// dependencies, the engine's search order, the download cache and redirects.
package main

import (
	"context"
	"os"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
