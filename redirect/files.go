package redirect

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/internal/par"
	"github.com/upkdeps/upkdeps/uz"
)

// FilesOptions say where CompressFiles and DecompressFiles write and how
// many files they work on at once.
type FilesOptions struct {
	Dir  string // the output folder; "" writes each output beside its input
	Jobs int    // files at once (0 or less: one per core); a file's own workers share the rest
	// Progress, when set, is called with the number of inputs, and the
	// returned func after each one, from the workers (it must be safe for
	// concurrent use).
	Progress func(total int) func()
}

// Files is the outcome of CompressFiles or DecompressFiles: one FileJob per
// input, sorted by input, each name once.
type Files struct {
	Jobs []FileJob
	// Removed are the temporary files of killed earlier writes removed
	// beside the outputs first (none in a dry run).
	Removed []string
}

// FileJob is one input of CompressFiles or DecompressFiles.
type FileJob struct {
	Input  string
	Output string  // the file written ("" when Err came first)
	Kind   uz.Kind // CompressFiles: the format written
	Result *FileResult
	// Warnings are what naming the output noted when Result is nil (a
	// Result carries its own).
	Warnings []string
	Err      error
}

// Failed counts the jobs with an error.
func (f *Files) Failed() int {
	n := 0
	for _, j := range f.Jobs {
		if j.Err != nil {
			n++
		}
	}
	return n
}

// KindError is CompressFiles' error for an input whose format follows its
// package's version (CompressOptions.Kind unknown) but which cannot be read
// as a package: only naming the format compresses it.
type KindError struct {
	Path string
	Err  error
}

func (e *KindError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *KindError) Unwrap() error { return e.Err }

// CompressFiles compresses each input (CompressFile) into fo.Dir, a few at
// a time; each job's error is its own (cancellation too), the returned
// error one that stops everything (the stale temporary files cannot be
// removed). The output's format is opt.Kind, else the one its package's
// version calls for (a *KindError when the input is no package). Two
// inputs whose outputs are one file (names differing in case count as one)
// are an error for the second; opt.Workers, when 0, shares the jobs among
// the files.
func CompressFiles(ctx context.Context, inputs []string, opt CompressOptions, fo FilesOptions) (*Files, error) {
	fs := &Files{Jobs: make([]FileJob, 0, len(inputs))}
	for _, in := range sortedInputs(inputs) {
		j := FileJob{Input: in, Kind: opt.Kind}
		if j.Kind == uz.KindUnknown {
			j.Kind, j.Err = packageKind(in)
		}
		if j.Err == nil {
			j.Output = filepath.Join(fo.dir(in), uz.CompressedName(filepath.Base(in), j.Kind))
		}
		fs.Jobs = append(fs.Jobs, j)
	}
	if opt.Workers == 0 {
		opt.Workers = fo.workers(len(fs.Jobs))
	}
	return fs, fs.run(ctx, fo, opt.DryRun, func(ctx context.Context, j *FileJob) {
		jopt := opt
		jopt.Kind = j.Kind
		j.Result, j.Err = CompressFile(ctx, j.Input, j.Output, jopt)
	})
}

// DecompressFiles decompresses each input (DecompressFile) into fo.Dir, a
// few at a time, each output named as OutputName says. Two inputs whose
// outputs are one file are an error for the second; opt.Workers, when 0,
// shares the jobs among the files.
func DecompressFiles(ctx context.Context, inputs []string, opt DecompressOptions, fo FilesOptions) (*Files, error) {
	fs := &Files{Jobs: make([]FileJob, 0, len(inputs))}
	for _, in := range sortedInputs(inputs) {
		j := FileJob{Input: in}
		name, warning, err := OutputName(in)
		if j.Err = err; err == nil {
			j.Output = filepath.Join(fo.dir(in), name)
			if warning != "" {
				j.Warnings = []string{warning}
			}
		}
		fs.Jobs = append(fs.Jobs, j)
	}
	if opt.Workers == 0 {
		opt.Workers = fo.workers(len(fs.Jobs))
	}
	return fs, fs.run(ctx, fo, opt.DryRun, func(ctx context.Context, j *FileJob) {
		j.Result, j.Err = DecompressFile(ctx, j.Input, fo.dir(j.Input), opt)
		if j.Result != nil {
			j.Warnings = nil // the result repeats them
		}
	})
}

// dir is the output folder of input.
func (fo FilesOptions) dir(input string) string {
	if fo.Dir != "" {
		return fo.Dir
	}
	return filepath.Dir(input)
}

// jobs is fo.Jobs, or one per core.
func (fo FilesOptions) jobs() int {
	if fo.Jobs > 0 {
		return fo.Jobs
	}
	return runtime.GOMAXPROCS(0)
}

// workers shares the jobs among n files: several files compressed at once
// share the cores; a single one uses them all.
func (fo FilesOptions) workers(n int) int { return max(1, fo.jobs()/max(1, n)) }

// run refuses the second of two jobs with one output, removes the stale
// temporary files beside the outputs (not in a dry run), and does every
// job without an error yet, fo.Jobs at a time. Its error is the removal's:
// a cancelled job fails with the context's error.
func (fs *Files) run(ctx context.Context, fo FilesOptions, dryRun bool, do func(context.Context, *FileJob)) error {
	refuseSameOutput(fs.Jobs)
	if !dryRun {
		var outputs []string
		for _, j := range fs.Jobs {
			if j.Err == nil && j.Output != "" {
				outputs = append(outputs, j.Output)
			}
		}
		removed, err := fsutil.RemoveStaleTemps(outputs)
		fs.Removed = removed
		if err != nil {
			return err
		}
	}
	var done func()
	if fo.Progress != nil {
		done = fo.Progress(len(fs.Jobs))
	}
	err := par.ForEach(ctx, len(fs.Jobs), fo.jobs(), func(_, i int) {
		if j := &fs.Jobs[i]; j.Err == nil {
			do(ctx, j)
		}
		if done != nil {
			done()
		}
	})
	if err != nil {
		// The jobs never started fail with the context's error.
		for i := range fs.Jobs {
			if j := &fs.Jobs[i]; j.Err == nil && j.Result == nil {
				j.Err = err
			}
		}
	}
	return nil
}

// sortedInputs returns the inputs sorted, without repeats.
func sortedInputs(inputs []string) []string {
	out := slices.Clone(inputs)
	slices.Sort(out)
	return slices.Compact(out)
}

// packageKind reads a package's version to choose its format.
func packageKind(path string) (uz.Kind, error) {
	f, err := format.Open(path)
	if err != nil {
		var pe *format.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return uz.KindUnknown, &KindError{Path: path, Err: err}
	}
	defer f.Close()
	return uz.KindFor(f.Version), nil
}

// refuseSameOutput fails every job whose output an earlier job (in input
// order) already writes: two inputs must not race for one file.
func refuseSameOutput(jobs []FileJob) {
	first := map[string]string{}
	for i := range jobs {
		j := &jobs[i]
		if j.Err != nil {
			continue
		}
		key := strings.ToLower(filepath.Clean(j.Output))
		if other, ok := first[key]; ok {
			j.Err = fmt.Errorf("%s: its output %s is also the output of %s: not written", j.Input, j.Output, other)
			continue
		}
		first[key] = j.Input
	}
}
