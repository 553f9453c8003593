package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/internal/progress"
	"github.com/upkdeps/upkdeps/internal/textw"
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
			var bar *progress.Bar
			fs, err := redirect.CompressFiles(cmd.Context(), args, opt, o.filesOptions(a, "compressing", &bar))
			bar.Done()
			return a.reportUZ(cmd, fs, err, o.dryRun)
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
			var bar *progress.Bar
			fs, err := redirect.DecompressFiles(cmd.Context(), args, redirect.DecompressOptions{Force: o.force, DryRun: o.dryRun},
				o.filesOptions(a, "decompressing", &bar))
			bar.Done()
			return a.reportUZ(cmd, fs, err, o.dryRun)
		},
	}
	o.flags(cmd)
	return cmd
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

// filesOptions are the batch options of -o, --jobs and the progress bar
// (one per run, in *bar for the caller to end).
func (o *uzOptions) filesOptions(a *app, what string, bar **progress.Bar) redirect.FilesOptions {
	return redirect.FilesOptions{Dir: o.out, Jobs: a.cfg.Jobs, Progress: func(total int) func() {
		*bar = progress.New(a.stderr, !a.cfg.NoProgress, total, what)
		b := *bar
		return func() { b.Add(1) }
	}}
}

// reportUZ prints one line per file on stdout (input order), warnings and
// errors on stderr, and returns errFindings when any file failed.
func (a *app) reportUZ(cmd *cobra.Command, fs *redirect.Files, err error, dryRun bool) error {
	for _, tmp := range fs.Removed {
		fmt.Fprintf(a.stderr, "removed %s (left by an interrupted upkdeps write)\n", tmp)
	}
	if err != nil {
		return err
	}
	out := &textw.Writer{W: cmd.OutOrStdout()}
	for _, j := range fs.Jobs {
		if j.Err != nil {
			fmt.Fprintf(a.stderr, "upkdeps: %s\n", uzErrorText(j.Err))
			continue
		}
		for _, w := range append(j.Warnings, j.Result.Warnings...) {
			fmt.Fprintf(a.stderr, "upkdeps: %s: warning: %s\n", j.Input, w)
		}
		out.Printf("%s\n", j.Line())
	}
	if dryRun {
		out.Printf("dry run: nothing was written\n")
	}
	if out.Err != nil {
		return out.Err
	}
	if fs.Failed() > 0 {
		return errFindings
	}
	return nil
}

// uzErrorText is a file's error with the flag that would change it.
func uzErrorText(err error) string {
	var ke *redirect.KindError
	switch {
	case errors.Is(err, fsutil.ErrExists):
		return err.Error() + " (--force replaces it)"
	case errors.Is(err, redirect.ErrBigger):
		return err.Error() + " (--allow-bigger writes it anyway, for v469+ clients only)"
	case errors.As(err, &ke):
		return err.Error() + " (give --format uz or uz2)"
	}
	return err.Error()
}
