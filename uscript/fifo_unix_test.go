//go:build unix

package uscript

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFIFODoesNotBlock: both readers of .uc files refuse a FIFO at once.
func TestFIFODoesNotBlock(t *testing.T) {
	p := filepath.Join(t.TempDir(), "X.uc")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for name, read := range map[string]func(string) error{
		"ScanFile":      func(p string) error { _, err := ScanFile(p); return err },
		"ReadDeclsFile": func(p string) error { _, err := ReadDeclsFile(p); return err },
	} {
		done := make(chan error, 1)
		go func() { done <- read(p) }()
		select {
		case err := <-done:
			var e *Error
			if !errors.As(err, &e) || e.Msg != "not a regular file" {
				t.Errorf("%s(fifo) = %v, want \"not a regular file\"", name, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s blocked on a FIFO", name)
		}
	}
}
