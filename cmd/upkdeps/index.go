package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/index"
	"github.com/upkdeps/upkdeps/internal/progress"
	"github.com/upkdeps/upkdeps/internal/termsafe"
)

func newIndexCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Build and inspect the package index: every package in your collections and archives",
		Long: `index keeps a database of every package found in folders, archives (.zip, .umod/.ut2mod,
.7z, .rar, and archives inside them one level deep), redirect downloads (.uz, .uz2) and download
caches: name, GUID, generations, version, size, SHA-256, where it is, what it exports and imports.
find, check --index and fix read it.

The database is one SQLite file: --index FILE, the config key index, else upkdeps/index.db in the
user's cache folder. It is a cache of its sources: adding a source again reads only the files
whose size or modification time (archive members: CRC-32) changed.`,
	}
	addIndexFlag(cmd.PersistentFlags(), "the package index database", true)
	cmd.PersistentFlags().Bool("json", false, "print the report as JSON")
	cmd.AddCommand(newIndexAddCmd(a), newIndexListCmd(a), newIndexRemoveCmd(a), newIndexStatsCmd(a))
	return cmd
}

// openDB opens the index database of --index (or the config key index, or the
// default). A read command opens it read-only: it never creates, migrates
// or writes it, so another user's or a read-only index can be read.
func (a *app) openDB(readOnly bool) (*index.DB, error) {
	path := a.cfg.DB
	if path == "" {
		def, err := defaultDB()
		if err != nil {
			return nil, err
		}
		path = def
	}
	if readOnly {
		return index.OpenReadOnly(path)
	}
	return index.Open(path)
}

func newIndexAddCmd(a *app) *cobra.Command {
	var uaDirs []string
	cmd := &cobra.Command{
		Use:   "add [--unreal-archive DIR] DIR|ARCHIVE|FILE...",
		Short: "Add (or refresh) sources: folders, archives, download caches, package files",
		Long: `add indexes each argument as one source: a folder (with every package, archive, .uz/.uz2
download and download cache inside it), an archive, a download cache folder (names from
cache.ini) or one package file. Adding a source again updates it: unchanged files are skipped,
files that are gone are forgotten. A file or member that cannot be read is listed and the run
goes on (exit 1); nothing is ever extracted to disk.

--unreal-archive DIR adds a checkout of the Unreal Archive's metadata repository
(unreal-archive/unreal-archive-data): every item it describes, with the package files it
ships (name, size, SHA-1), where to download it and what its files import, for find, check
--index and plan. Adding it again replaces its items. A metadata file that cannot be read is
a warning naming it.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 && len(uaDirs) == 0 {
				return usagef("index add: give at least one DIR, ARCHIVE or FILE, or --unreal-archive DIR")
			}
			db, err := a.openDB(false)
			if err != nil {
				return err
			}
			defer db.Close()
			rep := db.NewAddReport()
			// A database this run created and added nothing to is removed
			// again: a later plan or check --index then says there is no
			// index instead of reading an empty one without a word.
			failed := func() {
				if rep.Added() == 0 {
					db.Discard()
				}
			}
			for _, dir := range uaDirs {
				res, err := db.AddUnrealArchive(cmd.Context(), dir, a.cfg.Jobs)
				if err != nil {
					failed()
					return err
				}
				rep.AddMetadata(res)
			}
			for _, loc := range args {
				var bar *progress.Bar
				res, err := db.Add(cmd.Context(), loc, index.AddOptions{Jobs: a.cfg.Jobs, Progress: func(total int) func() {
					bar = progress.New(a.stderr, !a.cfg.NoProgress, total, "indexing "+loc)
					return func() { bar.Add(1) }
				}})
				bar.Done()
				var ie *index.InterruptedError
				if errors.As(err, &ie) {
					// Say what was done: run prints only "interrupted".
					fmt.Fprintf(a.stderr, "upkdeps: index add: %d source(s) added; %s\n", len(rep.Sources), termsafe.String(ie.Error()))
				}
				if err != nil {
					failed()
					return err
				}
				rep.AddSource(res)
			}
			return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return rep.WriteText(w) }, rep.Errors > 0)
		},
	}
	cmd.Flags().StringArrayVar(&uaDirs, "unreal-archive", nil, "a checkout of the Unreal Archive's metadata (unreal-archive-data) to add")
	return cmd
}

func newIndexListCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the indexed sources",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			db, err := a.openDB(true)
			if err != nil {
				return err
			}
			defer db.Close()
			rep, err := db.List(cmd.Context())
			if err != nil {
				return err
			}
			return a.emit(cmd.OutOrStdout(), rep, rep.WriteText, false)
		},
	}
}

func newIndexRemoveCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "remove LOCATION...",
		Short: "Forget sources and everything indexed from them",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, err := a.openDB(false)
			if err != nil {
				return err
			}
			defer db.Close()
			rep, err := db.RemoveAll(cmd.Context(), args)
			if err != nil && a.cfg.JSON {
				return err // the text lists the sources removed before the error
			}
			if werr := a.emit(cmd.OutOrStdout(), rep, rep.WriteText, false); werr != nil {
				return werr
			}
			return err
		},
	}
}

func newIndexStatsCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "stats",
		Short: "Count what the index holds",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			db, err := a.openDB(true)
			if err != nil {
				return err
			}
			defer db.Close()
			st, err := db.Stats(cmd.Context())
			if err != nil {
				return err
			}
			return a.emit(cmd.OutOrStdout(), st, st.WriteText, false)
		},
	}
}

func newFindCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "find NAME|GUID|Pkg.Object",
		Short: "Every indexed copy of a package, newest first, and which carry a GUID or object",
		Long: `find looks a package up in the index (see 'upkdeps index'): by name, by GUID (32 hex
digits), or by Pkg.Group.Object, which lists first the copies that export the object (with its
class), then the others. Exit 1 when nothing is found.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			q, err := index.ParseQuery(args[0])
			if err != nil {
				return usageError{err}
			}
			db, err := a.openDB(true)
			if err != nil {
				return err
			}
			defer db.Close()
			rep, err := db.Report(cmd.Context(), args[0], q)
			if err != nil {
				return err
			}
			return a.emit(cmd.OutOrStdout(), &rep, rep.WriteText, len(rep.Copies) == 0 && len(rep.Archive) == 0)
		},
	}
	addIndexFlag(cmd.Flags(), "the package index database", true)
	cmd.Flags().Bool("json", false, "print the report as JSON")
	return cmd
}
