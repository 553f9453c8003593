package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/cache"
	"github.com/upkdeps/upkdeps/internal/textw"
)

func newCacheListCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "list [--ini INI | --cache DIR] [--json]",
		Short: "List the cache entries with their original names, GUIDs, sizes, versions and states",
		Long: `list shows every cache entry (a cache.ini line, a GUID-named file, or both) with its
original file name, GUID, size, package version and state, and the stray download files
(????.tmp) with what they hold. With an ini, each entry is also looked up in the installation
the way the engine does: installed_same means the install has this very package (the cache
copy is redundant), installed_other that the install has another version, which the engine
loads instead. Exit 0.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := a.openCache(cmd.Context(), "")
			if err != nil {
				return err
			}
			if a.cfg.JSON {
				return writeJSON(cmd.OutOrStdout(), v.c.List())
			}
			return v.writeList(cmd.OutOrStdout())
		},
	}
	cmd.Flags().Bool("json", false, "print the entries as JSON")
	return cmd
}

func (v *cacheView) writeList(w io.Writer) error {
	bw := &textw.Writer{W: w}
	bw.Printf("%s", v.header())
	entries := v.c.Entries()
	keyW := len("KEY")
	for _, e := range entries {
		keyW = max(keyW, len(e.Key))
	}
	counts := map[cache.State]int{}
	if len(entries) > 0 {
		bw.Printf("%-*s  %-15s  %9s  %3s  %s\n", keyW, "KEY", "STATE", "SIZE", "VER", "NAME")
	}
	for _, e := range entries {
		counts[e.State]++
		size, ver := "-", "-"
		if e.File != "" {
			size = fmt.Sprint(e.Size)
		}
		if e.Version != 0 {
			ver = fmt.Sprint(e.Version)
		}
		name := cache.Printable(e.Name)
		if e.Name == "" {
			name = "-"
		}
		if e.Installed != "" && (e.State == cache.StateInstalledSame || e.State == cache.StateInstalledOther) {
			name += "  (installed: " + e.Installed + ")"
		}
		bw.Printf("%-*s  %-15s  %9s  %3s  %s\n", keyW, e.Key, e.State, size, ver, name)
	}
	strays := v.c.Strays()
	if len(strays) > 0 {
		bw.Printf("\nStray download files:\n")
		for _, s := range strays {
			what := s.Kind
			if s.Original != "" {
				what += " of " + cache.Printable(s.Original)
			}
			bw.Printf("  %s  %d bytes  %s\n", v.rel(s.File), s.Size, what)
		}
	}
	bw.Printf("\n%s\n", v.summary(len(entries), counts, len(strays)))
	return bw.Err
}

// stateOrder lists the states in summary order.
var stateOrder = []cache.State{cache.StateOK, cache.StateInstalledSame, cache.StateInstalledOther,
	cache.StateMissingFile, cache.StateEmptyEntry, cache.StateOrphanFile, cache.StateGUIDMismatch, cache.StateNotAPackage}

func (v *cacheView) summary(n int, counts map[cache.State]int, strays int) string {
	var parts []string
	for _, s := range stateOrder {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
		}
	}
	s := fmt.Sprintf("%d entries", n)
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	return s + fmt.Sprintf("; %d stray download %s", strays, textw.Plural(strays, "file", "files"))
}
