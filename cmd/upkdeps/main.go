// Command upkdeps analyses Unreal Engine 1 and 2 installations: package
// dependencies, the engine's search order, the download cache and redirects.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// stopGrace is how long an interrupted command may take to notice its
// cancelled context and return before the process ends without it.
const stopGrace = 700 * time.Millisecond

func main() {
	os.Exit(runMain(os.Args[1:]))
}

// runMain runs the command line args as the process: with the signal
// handling below and stdout behind a gate.
func runMain(args []string) int {
	// Ctrl-C (or a service manager's SIGTERM) cancels the context every
	// long operation takes: scans stop, writers remove their temp files,
	// and the exit code is 130 (143 for SIGTERM: interruptCode). From the
	// signal on nothing more is published
	// (fsutil.Stop) or printed on stdout; a command still busy after
	// stopGrace is ended here, its temporary files removed.
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	out := &gate{w: os.Stdout}
	var term atomic.Bool // the signal was SIGTERM
	go func() {
		s := <-sig
		term.Store(s == syscall.SIGTERM)
		out.close()
		cancel()
		select {
		case <-sig:
		case <-time.After(stopGrace):
		}
		fsutil.Stop()
		fmt.Fprintln(os.Stderr, "upkdeps: interrupted")
		os.Exit(interruptCode(term.Load()))
	}()
	code := run(ctx, args, os.Stdin, out, os.Stderr)
	signal.Stop(sig)
	if ctx.Err() != nil {
		fsutil.Stop()
	}
	if code == exitInterrupted {
		code = interruptCode(term.Load())
	}
	return code
}

// interruptCode is the exit code of a command stopped by a signal:
// exitTerminated for SIGTERM (on Windows also a closed console, a logoff
// or a shutdown), else exitInterrupted (SIGINT; Ctrl-C on Windows).
func interruptCode(term bool) int {
	if term {
		return exitTerminated
	}
	return exitInterrupted
}

// gate is stdout until the process is interrupted: then writes fail, so
// that a command that has not yet noticed prints nothing more.
type gate struct {
	mu     sync.Mutex
	w      io.Writer
	closed bool
}

func (g *gate) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return 0, context.Canceled
	}
	return g.w.Write(p)
}

func (g *gate) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}
