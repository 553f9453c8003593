package fsutil

import (
	"context"
	"os"
	"sync"
)

// The writes under way, for Stop: every temporary file WriteAtomicFunc
// has created and not yet renamed or removed.
var live struct {
	sync.Mutex
	stopped bool
	temps   map[string]bool
}

// Stop makes every atomic write of the process fail with
// context.Canceled from now on, before it publishes anything (a write
// already renamed is done), and removes the temporary files of the writes
// under way, returning their names. The command line calls it when it is
// interrupted and cannot wait for a writer to notice. Windows removes no
// file that is open: there a write under way keeps its temporary file until
// it next tries to publish, is refused and removes it itself.
func Stop() []string {
	live.Lock()
	defer live.Unlock()
	live.stopped = true
	var removed []string
	for tmp := range live.temps {
		if err := os.Remove(tmp); err == nil {
			removed = append(removed, tmp)
		}
		delete(live.temps, tmp)
	}
	return removed
}

// Stopped reports whether Stop was called.
func Stopped() bool {
	live.Lock()
	defer live.Unlock()
	return live.stopped
}

// startTemp creates the temporary file of a write to path, unless the
// process is stopping, and records it.
func startTemp(dir, pattern string) (*os.File, error) {
	live.Lock()
	defer live.Unlock()
	if live.stopped {
		return nil, context.Canceled
	}
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	if live.temps == nil {
		live.temps = map[string]bool{}
	}
	live.temps[f.Name()] = true
	return f, nil
}

// publish renames the temporary file of a finished write over path,
// unless the process is stopping (or Stop removed it).
func publish(tmp, path string) error {
	live.Lock()
	defer live.Unlock()
	if live.stopped || !live.temps[tmp] {
		return context.Canceled
	}
	delete(live.temps, tmp)
	return Rename(tmp, path)
}

// endTemp forgets a temporary file that its write removed.
func endTemp(tmp string) {
	live.Lock()
	delete(live.temps, tmp)
	live.Unlock()
}
