package install

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/upkdeps/upkdeps/internal/termsafe"
	"github.com/upkdeps/upkdeps/native"
)

// BinaryDirs are the folders whose .dll and .so files are the packages'
// native code: the ini's own folder (the game's System folder, where the
// engine loads its modules from) and the folders of the code packages in
// Paths (a Linux user ini outside the game names the game's System there).
func (in *Install) BinaryDirs() []string {
	dirs := []string{in.Ini.Dir()}
	for _, p := range in.Search.Paths() {
		if strings.EqualFold(p.Ext, ".u") && p.Exists {
			dirs = append(dirs, p.Dir)
		}
	}
	return dirs
}

// Natives reads the install's binaries and adds the game's built-in
// table for the packages without one, once. A binary that cannot be read
// is reported to Options.Warn and left out: its package falls back on
// the table. It is safe to call from several goroutines; the warnings
// come from the first call, whichever goroutine read the binaries.
func (in *Install) Natives() (*native.Set, error) {
	in.nat.read.Do(in.readNatives)
	in.nat.warned.Do(func() {
		for _, w := range in.nat.warnings {
			warnf(in.warn, "%s", w)
		}
	})
	return in.nat.set, in.nat.err
}

// StartNatives starts Natives' read of the binaries on a goroutine of its
// own, for a caller that will need them after other work (check reads them
// while its graph is built: 28 DLLs of a UT2004 server, 5-10 ms read one
// after another). The returned function waits for the read to end; call it
// before the install's files may go away. Its warnings wait for Natives.
func (in *Install) StartNatives() (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		in.nat.read.Do(in.readNatives)
	}()
	return func() { <-done }
}

// readNatives is Natives' read, its warnings kept for Natives to pass on.
func (in *Install) readNatives() {
	s, err := ReadBinaries(in.BinaryDirs(), func(msg string) { in.nat.warnings = append(in.nat.warnings, msg) })
	if err != nil {
		in.nat.err = err
		return
	}
	for _, t := range native.TablesFor(in.Game.Name, in.Search.Generation(), in.Build()) {
		s.AddTable(t)
	}
	s.Game = in.Game.Name
	in.nat.set = s
}

// ReadBinaries reads the native classes of every binary in dirs
// (native.FindBinaries) into a new set: the natives of a game folder that
// has no ini. A binary that cannot be read is left out with a warning
// through warn (nil: none), and Git LFS pointers in one warning for all;
// only a folder that cannot be listed is an error.
func ReadBinaries(dirs []string, warn func(string)) (*native.Set, error) {
	files, err := native.FindBinaries(dirs)
	if err != nil {
		return nil, err
	}
	s := native.NewSet()
	var lfs []string
	for _, f := range files {
		b, err := native.ReadBinary(f)
		var le *native.LFSPointerError
		switch {
		case errors.As(err, &le):
			lfs = append(lfs, filepath.Base(f))
		case err != nil:
			warnf(warn, "upkdeps: warning: %s (its native classes are not used)", termsafe.String(err.Error()))
		default:
			s.AddBinary(b)
		}
	}
	if len(lfs) > 0 {
		warnf(warn, "upkdeps: warning: %d binaries are Git LFS pointers, not the files (%s): their native classes are not used; fetch them with git lfs pull",
			len(lfs), strings.Join(lfs, ", "))
	}
	return s, nil
}
