package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/internal/par"
	"github.com/upkdeps/upkdeps/internal/progress"
	"github.com/upkdeps/upkdeps/redirect"
	"github.com/upkdeps/upkdeps/uz"
)

func newUZCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "uz",
		Short: "Compress and decompress redirect files (.uz, .uz2)",
		Long: `uz compresses packages into the files a redirect server publishes (.uz for UE1 clients,
.uz2 for UE2) and decompresses such files, including the Cache/????.tmp files an
interrupted download leaves. Every output is written atomically (a temporary file, renamed
when complete) and only after the whole input decoded cleanly.`,
	}
	cmd.AddCommand(newUZCompressCmd(a), newUZDecompressCmd(a))
	return cmd
}

// uzOptions are the flags both uz subcommands share.
type uzOptions struct {
	out    string
	force  bool
	dryRun bool
}

func (o *uzOptions) flags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVarP(&o.out, "output", "o", "", "write into folder DIR (default: beside each input)")
	f.BoolVar(&o.force, "force", false, "replace an existing output file that holds other bytes")
	f.BoolVar(&o.dryRun, "dry-run", false, "do all the work in a temporary file and report, but write nothing")
}

// outDir returns the folder for the output of input.
func (o *uzOptions) outDir(input string) string {
	if o.out != "" {
		return o.out
	}
	return filepath.Dir(input)
}

func newUZCompressCmd(a *app) *cobra.Command {
	var (
		o           uzOptions
		formatName  string
		sig         int
		allowBigger bool
	)
	cmd := &cobra.Command{
		Use:   "compress [--format uz|uz2] [--sig 1234|5678] [-o DIR] [--allow-bigger] [--force] [--dry-run] FILE...",
		Short: "Compress packages to .uz (UE1) or .uz2 (UE2)",
		Long: `compress writes FILE.uz or FILE.uz2 for each package, in parallel. The format follows
the package's version (UE1, below 100: .uz with signature 1234, which every UE1 client reads;
UE2: .uz2) unless --format says otherwise. --sig 5678 writes the newer .uz chain, which only
UT v469 and later clients read. A .uz larger than its package crashes clients before v469:
compress refuses to write one unless --allow-bigger. An existing output with other bytes is
replaced only with --force; one with the same bytes is left alone. Exit 1 when any file
failed.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opt, err := compressOptions(cmd, formatName, sig)
			if err != nil {
				return err
			}
			opt.AllowBigger, opt.Force, opt.DryRun = allowBigger, o.force, o.dryRun
			if err := o.prepare(); err != nil {
				return err
			}
			inputs := sortedInputs(args)
			// Several files compressed at once share the cores; a single
			// .uz2 uses them all.
			opt.Workers = max(1, a.cfg.Jobs/len(inputs))
			jobs := compressJobs(inputs, &o, opt.Kind)
			refuseSameOutput(jobs)
			if err := a.removeStaleTemps(jobs, o.dryRun); err != nil {
				return err
			}
			a.runUZ(cmd.Context(), jobs, "compressing", func(ctx context.Context, j *uzJob) (*redirect.FileResult, error) {
				jopt := opt
				jopt.Kind = j.kind
				res, err := redirect.CompressFile(ctx, j.input, j.output, jopt)
				if errors.Is(err, redirect.ErrBigger) {
					err = fmt.Errorf("%w (--allow-bigger writes it anyway, for v469+ clients only)", err)
				}
				return res, err
			})
			return a.reportUZ(cmd, jobs, o.dryRun)
		},
	}
	o.flags(cmd)
	f := cmd.Flags()
	f.StringVar(&formatName, "format", "", "uz or uz2 (default: from each package's version)")
	f.IntVar(&sig, "sig", 1234, ".uz signature: 1234 (every client) or 5678 (UT v469+ only)")
	f.BoolVar(&allowBigger, "allow-bigger", false, "write a .uz even when it is larger than its package (crashes clients before v469)")
	return cmd
}

// compressOptions reads --format and --sig.
func compressOptions(cmd *cobra.Command, formatName string, sig int) (redirect.CompressOptions, error) {
	var opt redirect.CompressOptions
	switch formatName {
	case "":
	case "uz":
		opt.Kind = uz.KindUZ
	case "uz2":
		opt.Kind = uz.KindUZ2
	default:
		return opt, usagef("--format must be uz or uz2, not %q", formatName)
	}
	switch sig {
	case 1234, 5678:
		opt.Signature = int32(sig)
	default:
		return opt, usagef("--sig must be 1234 or 5678, not %d", sig)
	}
	if cmd.Flags().Changed("sig") && opt.Kind == uz.KindUZ2 {
		return opt, usagef("--sig applies to .uz files, not --format uz2")
	}
	return opt, nil
}

// compressJobs names the output of each input: kind, else the format its
// package version calls for.
func compressJobs(inputs []string, o *uzOptions, kind uz.Kind) []uzJob {
	jobs := make([]uzJob, len(inputs))
	for i, in := range inputs {
		jobs[i] = uzJob{input: in}
		k := kind
		if k == uz.KindUnknown {
			var err error
			if k, err = packageKind(in); err != nil {
				jobs[i].err = err
				continue
			}
		}
		jobs[i].output = filepath.Join(o.outDir(in), uz.CompressedName(filepath.Base(in), k))
		jobs[i].kind = k
	}
	return jobs
}

func newUZDecompressCmd(a *app) *cobra.Command {
	var o uzOptions
	cmd := &cobra.Command{
		Use:   "decompress [-o DIR] [--force] [--dry-run] FILE...",
		Short: "Decompress .uz and .uz2 files (also Cache/????.tmp downloads)",
		Long: `decompress restores the original of each .uz or .uz2 file (told apart by their first bytes,
so download temp files without an extension work), in parallel. A .uz records the original
file name: it is used when it is a plain file name (no folders, drive letters, "..", device
names); otherwise, and for .uz2, the output is named after the input minus .uz/.uz2. The
output is published only when the whole input decoded cleanly and, for a package, its tables
lie within the data (a .uz2 cut at a chunk border is a valid but shorter stream): a corrupt
or truncated input is an error naming the file and the byte offset, and leaves no file. An
existing output with other bytes is replaced only with --force. Exit 1 when any file failed.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.prepare(); err != nil {
				return err
			}
			inputs := sortedInputs(args)
			jobs := make([]uzJob, len(inputs))
			for i, in := range inputs {
				jobs[i] = uzJob{input: in}
				name, warning, err := redirect.OutputName(in)
				if err != nil {
					jobs[i].err = err
					continue
				}
				jobs[i].output = filepath.Join(o.outDir(in), name)
				if warning != "" {
					jobs[i].warnings = []string{warning}
				}
			}
			refuseSameOutput(jobs)
			if err := a.removeStaleTemps(jobs, o.dryRun); err != nil {
				return err
			}
			// As for compress: a single file decodes on all the workers.
			workers := max(1, a.cfg.Jobs/len(inputs))
			a.runUZ(cmd.Context(), jobs, "decompressing", func(ctx context.Context, j *uzJob) (*redirect.FileResult, error) {
				res, err := redirect.DecompressFile(ctx, j.input, o.outDir(j.input), redirect.DecompressOptions{Force: o.force, DryRun: o.dryRun, Workers: workers})
				if res != nil {
					j.warnings = nil // the result repeats them
				}
				return res, err
			})
			return a.reportUZ(cmd, jobs, o.dryRun)
		},
	}
	o.flags(cmd)
	return cmd
}

// removeStaleTemps removes the temporary files that killed earlier runs
// left beside the jobs' outputs (only those of these outputs: another
// process may be writing other files there), saying so on stderr. A dry
// run removes nothing.
func (a *app) removeStaleTemps(jobs []uzJob, dryRun bool) error {
	if dryRun {
		return nil
	}
	var outputs []string
	for _, j := range jobs {
		if j.err == nil && j.output != "" {
			outputs = append(outputs, j.output)
		}
	}
	removed, err := fsutil.RemoveStaleTemps(outputs)
	for _, tmp := range removed {
		fmt.Fprintf(a.stderr, "removed %s (left by an interrupted upkdeps write)\n", tmp)
	}
	return err
}

// prepare checks -o and creates it (not in a dry run).
func (o *uzOptions) prepare() error {
	if o.out == "" {
		return nil
	}
	if st, err := os.Stat(o.out); err == nil && !st.IsDir() {
		return usagef("-o %s: not a folder", o.out)
	}
	if o.dryRun {
		return nil
	}
	return os.MkdirAll(o.out, 0o755)
}

// uzJob is one input file of `uz compress` or `uz decompress`.
type uzJob struct {
	input, output string
	kind          uz.Kind
	res           *redirect.FileResult
	warnings      []string
	err           error
}

// sortedInputs returns the arguments sorted, without repeats.
func sortedInputs(args []string) []string {
	out := slices.Clone(args)
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
		return uz.KindUnknown, fmt.Errorf("%s: %w (give --format uz or uz2)", path, err)
	}
	defer f.Close()
	return uz.KindFor(f.Version), nil
}

// refuseSameOutput fails every job whose output an earlier job (in input
// order) already writes: two inputs must not race for one file.
func refuseSameOutput(jobs []uzJob) {
	first := map[string]string{}
	for i := range jobs {
		j := &jobs[i]
		if j.err != nil {
			continue
		}
		key := strings.ToLower(filepath.Clean(j.output))
		if other, ok := first[key]; ok {
			j.err = fmt.Errorf("%s: its output %s is also the output of %s: not written", j.input, j.output, other)
			continue
		}
		first[key] = j.input
	}
}

// runUZ runs do on every job without an error yet, a.cfg.Jobs at a time,
// with a progress bar on a terminal.
func (a *app) runUZ(ctx context.Context, jobs []uzJob, what string, do func(context.Context, *uzJob) (*redirect.FileResult, error)) {
	bar := progress.New(a.stderr, !a.cfg.NoProgress, len(jobs), what)
	defer bar.Done()
	par.ForEach(ctx, len(jobs), a.cfg.Jobs, func(_, i int) {
		if j := &jobs[i]; j.err == nil {
			j.res, j.err = do(ctx, j)
		}
		bar.Add(1)
	})
}

// reportUZ prints one line per file on stdout (input order), warnings and
// errors on stderr, and returns errFindings when any file failed.
func (a *app) reportUZ(cmd *cobra.Command, jobs []uzJob, dryRun bool) error {
	out := &errWriter{w: cmd.OutOrStdout()}
	failed := 0
	for _, j := range jobs {
		if j.err != nil {
			failed++
			msg := j.err.Error()
			if errors.Is(j.err, fsutil.ErrExists) {
				msg += " (--force replaces it)"
			}
			fmt.Fprintf(a.stderr, "upkdeps: %s\n", msg)
			continue
		}
		r := j.res
		for _, w := range append(j.warnings, r.Warnings...) {
			fmt.Fprintf(a.stderr, "upkdeps: %s: warning: %s\n", j.input, w)
		}
		status := string(r.Status)
		if dryRun && r.Status != redirect.Unchanged {
			status = "would be " + status
		}
		var sizes string
		if r.CompressedSize > r.Size && r.Kind == uz.KindUZ {
			sizes = fmt.Sprintf("%d bytes, .uz %d bytes (larger)", r.Size, r.CompressedSize)
		} else {
			sizes = fmt.Sprintf("%d bytes, %s %d bytes (%s)", r.Size, r.Kind.Ext(), r.CompressedSize, percent(r.CompressedSize, r.Size))
		}
		out.printf("%s -> %s: %s; %s\n", j.input, r.Dst, status, sizes)
	}
	if dryRun {
		out.printf("dry run: nothing was written\n")
	}
	if out.err != nil {
		return out.err
	}
	if failed > 0 {
		return errFindings
	}
	return nil
}

// percent formats part/whole.
func percent(part, whole int64) string {
	if whole == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(part)/float64(whole))
}
