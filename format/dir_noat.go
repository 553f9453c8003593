//go:build !linux && !darwin

package format

import "errors"

// Here a Dir reads by path: no folder is held open.

func openDirFD(string) int { return -1 }

func closeDirFD(int) {}

var errNoAt = errors.New("format: no *at calls on this platform")

func statAt(int, string) (uint32, error) { return 0, errNoAt }

func openAt(int, string, int) (int, error) { return -1, errNoAt }
