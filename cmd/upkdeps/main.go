// Command upkdeps analyses Unreal Engine 1 and 2 installations: package
// dependencies, the engine's search order, the download cache and redirects.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	// Ctrl-C (or a service manager's SIGTERM) cancels the context every
	// long operation takes: scans stop, writers remove their temp files,
	// and the exit code is 2.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
