package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/cache"
	"github.com/upkdeps/upkdeps/ini"
)

func newCacheCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cache",
		Short: "List, verify, extract, clean and fill the download cache",
		Long: `cache manages the download cache: the folder where a client keeps the packages it
downloaded from servers under their GUIDs, with cache.ini naming them.

Every cache command takes the game's ini (--ini, else one found in . or ./System: CachePath,
CacheExt and Paths come from it) or --cache DIR alone, a bare cache folder whose engine
generation is read from its file names. With both, --cache replaces the ini's CachePath.`,
	}
	cmd.PersistentFlags().String("cache", "", "the cache folder: replaces the ini's CachePath; without --ini, a bare cache folder")
	cmd.AddCommand(
		newCacheListCmd(a),
		newCacheVerifyCmd(a),
		newCacheExtractCmd(a),
		newCacheCleanCmd(a),
		newCacheAddCmd(a),
	)
	return cmd
}

// cacheView is an opened cache and, with an ini, the installation it
// belongs to.
type cacheView struct {
	c       *cache.Cache
	in      *install // nil for a bare --cache folder
	root    string   // paths are shown relative to it: the game root, or the cache's parent
	game    string   // for the header
	iniPath string
}

// openCache opens the cache named by --cache or the ini, and classifies its
// entries against the installation when there is one. lock, for a command
// that changes the cache, takes the cache folder's lock in its name (see
// cache.Options.Lock) and makes unsafe ini values errors; the caller closes
// the view's cache. "" is a reader.
func (a *app) openCache(lock string) (*cacheView, error) {
	a.settingsAreErrors = lock != ""
	gen := 0
	if a.cfg.Game != "" {
		g, err := ini.ParseGame(a.cfg.Game)
		if err != nil {
			return nil, usageError{err}
		}
		gen = g.Generation
	}
	if a.cfg.Ini == "" && a.cfg.Cache != "" {
		c, err := cache.Open(a.cfg.Cache, cache.Options{Generation: gen, Jobs: a.cfg.Jobs, Lock: lock})
		if err != nil {
			return nil, err
		}
		return &cacheView{c: c, root: filepath.Dir(c.Dir), game: fmt.Sprintf("UE%d", c.Generation)}, nil
	}
	in, err := a.openInstall()
	if err != nil {
		return nil, err
	}
	dir := in.search.CacheDir()
	if dir == "" {
		return nil, fmt.Errorf("%s sets no [Core.System] CachePath: give the cache folder with --cache DIR", in.iniPath)
	}
	c, err := cache.Open(dir, cache.Options{Generation: in.search.Generation(), Ext: in.search.CacheExt(), Jobs: a.cfg.Jobs, Lock: lock})
	if err != nil {
		return nil, err
	}
	c.Classify(in.search)
	return &cacheView{c: c, in: in, root: in.search.Root(), game: in.gameLabel(), iniPath: in.iniPath}, nil
}

// rel shows path relative to the view's root with "/", or as it is when it
// lies outside.
func (v *cacheView) rel(path string) string {
	if path == "" {
		return ""
	}
	r, err := filepath.Rel(v.root, path)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(r)
}

// header is the first line of text output.
func (v *cacheView) header() string {
	files := "GUID" + v.c.Ext
	if v.c.Generation == 2 {
		files = "GUID-Gen" + v.c.Ext
	}
	ini := "no cache.ini"
	if v.c.HasIni() {
		ini = v.rel(v.c.IniPath())
	}
	return fmt.Sprintf("Cache: %s (%s; files %s; %s)\n", v.rel(v.c.Dir), v.game, files, ini)
}

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
			v, err := a.openCache("")
			if err != nil {
				return err
			}
			if a.cfg.JSON {
				return writeJSON(cmd.OutOrStdout(), v.listJSON())
			}
			return v.writeList(cmd.OutOrStdout())
		},
	}
	cmd.Flags().Bool("json", false, "print JSON (README.md, \"cache list\")")
	return cmd
}

// cacheListJSON is `cache list --json` output (README.md).
type cacheListJSON struct {
	SchemaVersion int              `json:"schema_version"`
	Cache         string           `json:"cache"`
	Entries       []cacheEntryJSON `json:"entries"`
	Stray         []cacheStrayJSON `json:"stray"`
}

type cacheEntryJSON struct {
	GUID       string  `json:"guid"`
	Generation int     `json:"generation"`
	Name       *string `json:"name"`
	File       *string `json:"file"`
	Size       *int64  `json:"size"`
	Version    *int    `json:"version"`
	State      string  `json:"state"`
	Installed  string  `json:"installed,omitempty"`
}

type cacheStrayJSON struct {
	File     string  `json:"file"`
	Kind     string  `json:"kind"`
	Original *string `json:"original"`
}

func ptr[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

func (v *cacheView) listJSON() cacheListJSON {
	out := cacheListJSON{SchemaVersion: 1, Cache: v.c.Dir, Entries: []cacheEntryJSON{}, Stray: []cacheStrayJSON{}}
	for _, e := range v.c.Entries() {
		j := cacheEntryJSON{GUID: e.GUID, Generation: e.Generation, Name: ptr(e.Name), File: ptr(e.File),
			Version: ptr(e.Version), State: string(e.State), Installed: e.Installed}
		if e.File != "" {
			j.Size = &e.Size
		}
		out.Entries = append(out.Entries, j)
	}
	for _, s := range v.c.Strays() {
		out.Stray = append(out.Stray, cacheStrayJSON{File: s.File, Kind: s.Kind, Original: ptr(s.Original)})
	}
	return out
}

func (v *cacheView) writeList(w io.Writer) error {
	bw := &errWriter{w: w}
	bw.printf("%s", v.header())
	entries := v.c.Entries()
	keyW := len("KEY")
	for _, e := range entries {
		keyW = max(keyW, len(e.Key))
	}
	counts := map[cache.State]int{}
	if len(entries) > 0 {
		bw.printf("%-*s  %-15s  %9s  %3s  %s\n", keyW, "KEY", "STATE", "SIZE", "VER", "NAME")
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
		bw.printf("%-*s  %-15s  %9s  %3s  %s\n", keyW, e.Key, e.State, size, ver, name)
	}
	strays := v.c.Strays()
	if len(strays) > 0 {
		bw.printf("\nStray download files:\n")
		for _, s := range strays {
			what := s.Kind
			if s.Original != "" {
				what += " of " + cache.Printable(s.Original)
			}
			bw.printf("  %s  %d bytes  %s\n", v.rel(s.File), s.Size, what)
		}
	}
	bw.printf("\n%s\n", v.summary(len(entries), counts, len(strays)))
	return bw.err
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
	return s + fmt.Sprintf("; %d stray download %s", strays, plural(strays, "file", "files"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func newCacheVerifyCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "verify [--ini INI | --cache DIR] [--json]",
		Short: "Report the cache's problems; exit 1 if there are any",
		Long: `verify reports what is wrong in the cache. Errors (exit 1): a file that is not a package
(not_a_package), a file whose header GUID is not its name (guid_mismatch), an entry the engine
would never use because the install has another version of the package (installed_other).
Warnings (exit 0): cache.ini lines without their file (missing_file: PurgeCacheDays leaves
these), files without a cache.ini name (orphan_file), [Cache] lines that are not cache keys,
and stray download files (????.tmp; .uz data when the server's redirect compresses).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := a.openCache("")
			if err != nil {
				return err
			}
			rep := v.verify()
			return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return v.writeVerify(w, rep) }, rep.Summary.Errors > 0)
		},
	}
	cmd.Flags().Bool("json", false, "print JSON (README.md, \"cache verify\")")
	return cmd
}

// cacheVerifyJSON is `cache verify --json` output (README.md).
type cacheVerifyJSON struct {
	SchemaVersion int                `json:"schema_version"`
	Cache         string             `json:"cache"`
	Problems      []cacheProblemJSON `json:"problems"`
	Summary       cacheVerifySummary `json:"summary"`
}

type cacheProblemJSON struct {
	Severity   string  `json:"severity"`
	State      string  `json:"state"`
	GUID       *string `json:"guid"`
	Generation int     `json:"generation"`
	Name       *string `json:"name"`
	File       *string `json:"file"`
	Message    string  `json:"message"`
	subject    string  // text output: key and name, or the file
}

type cacheVerifySummary struct {
	Entries  int `json:"entries"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
}

// verify collects problems: errors first, then warnings, each in entry
// order, strays and bad lines last.
func (v *cacheView) verify() cacheVerifyJSON {
	rep := cacheVerifyJSON{SchemaVersion: 1, Cache: v.c.Dir, Problems: []cacheProblemJSON{}}
	entries := v.c.Entries()
	rep.Summary.Entries = len(entries)
	var errs, warns []cacheProblemJSON
	for _, e := range entries {
		p := cacheProblemJSON{State: string(e.State), GUID: ptr(e.GUID), Generation: e.Generation, Name: ptr(e.Name), File: ptr(e.File),
			subject: strings.TrimSpace(e.Key + " " + cache.Printable(e.Name))}
		switch e.State {
		case cache.StateNotAPackage:
			p.Message = "not a package: " + e.Detail
		case cache.StateGUIDMismatch:
			p.Message = fmt.Sprintf("the file is named %s but its header says %s", e.GUID, e.HeaderGUID)
		case cache.StateInstalledOther:
			p.Message = fmt.Sprintf("the engine loads %s (%s) instead: clients get a version mismatch", e.Installed, e.Detail)
		case cache.StateMissingFile:
			p.Message = "cache.ini names it but the file is gone (purged?)"
		case cache.StateOrphanFile:
			p.Message = "the file has no name in cache.ini"
		default:
			continue
		}
		if e.State.IsProblem() {
			p.Severity = "error"
			errs = append(errs, p)
		} else {
			p.Severity = "warning"
			warns = append(warns, p)
		}
	}
	for _, b := range v.c.BadLines() {
		warns = append(warns, cacheProblemJSON{Severity: "warning", State: "bad_key", File: ptr(v.c.IniPath()),
			Message: fmt.Sprintf("line %d: key %s is not a cache key", b.Line, cache.Printable(b.Key)), subject: v.rel(v.c.IniPath())})
	}
	for _, s := range v.c.Strays() {
		msg := "stray download file: " + s.Kind
		if s.Original != "" {
			msg += " of " + cache.Printable(s.Original)
		}
		warns = append(warns, cacheProblemJSON{Severity: "warning", State: "stray", File: ptr(s.File), Message: msg, subject: v.rel(s.File)})
	}
	rep.Problems = append(append(rep.Problems, errs...), warns...)
	rep.Summary.Errors, rep.Summary.Warnings = len(errs), len(warns)
	return rep
}

func (v *cacheView) writeVerify(w io.Writer, rep cacheVerifyJSON) error {
	bw := &errWriter{w: w}
	bw.printf("%s", v.header())
	for _, p := range rep.Problems {
		bw.printf("%-7s  %-15s  %s: %s\n", p.Severity, p.State, p.subject, p.Message)
	}
	bw.printf("%d entries: %d errors, %d warnings\n", rep.Summary.Entries, rep.Summary.Errors, rep.Summary.Warnings)
	return bw.err
}

// writerLock is the lock description a cache command passes to openCache:
// none for a dry run, which only reads.
func writerLock(dryRun bool, what string) string {
	if dryRun {
		return ""
	}
	return what
}

// runPlan prints the plan (dry run) or runs it, printing each action as it
// completes: both print the same lines. Refusals make exit 1.
func (a *app) runPlan(cmd *cobra.Command, v *cacheView, p *cache.Plan, dryRun bool) error {
	w := cmd.OutOrStdout()
	bw := &errWriter{w: w}
	show := func(act cache.Action) { bw.printf("%s\n", act.Format(v.rel)) }
	if dryRun {
		for _, act := range p.Actions {
			show(act)
		}
		fmt.Fprintln(a.stderr, "dry run: nothing was changed")
	} else if err := p.Run(show); err != nil {
		return err
	}
	if bw.err != nil {
		return bw.err
	}
	if len(p.Actions) == 0 {
		fmt.Fprintln(a.stderr, "nothing to do")
	}
	if p.Refusals() > 0 {
		return errFindings
	}
	return nil
}

func newCacheExtractCmd(a *app) *cobra.Command {
	var dryRun, force, keep bool
	var to string
	cmd := &cobra.Command{
		Use:   "extract [--ini INI] [--cache DIR] [--dry-run] [--force] [--keep] [--to DIR] [NAME|GUID ...]",
		Short: "Move cache entries into the install under their original names, as the engine does",
		Long: `extract moves cache entries (all of them, or those named by original file name, package
name, GUID or GUID-Gen) into the installation the way the engine's own MoveCacheEntry does:
into the folder of the first Paths entry whose pattern ends with the file's extension (or
--to DIR), under the original name; the cache file is removed and its cache.ini line keeps
its key with an empty value, as the engine writes it. --keep copies without touching the
cache.

Nothing is overwritten: an installed file with other content is refused unless --force, and
so is an entry whose package another installed version would still hide. Original names
that are not plain file names (separators, "..", drive letters, device names, control
characters) are refused: a hostile cache.ini cannot write outside the install. Every file is
written atomically, cache.ini is rewritten atomically keeping its other lines, and an
interrupted run is completed by running it again. --dry-run prints exactly the lines a real
run prints. Exit 1 when something was refused.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := a.openCache(writerLock(dryRun, "upkdeps cache extract"))
			if err != nil {
				return err
			}
			defer v.c.Close()
			if v.in == nil && to == "" {
				return usagef("extract needs the install's Paths: give --ini, or --to DIR")
			}
			opt := cache.ExtractOptions{Force: force, Keep: keep}
			if to != "" {
				if opt.To, err = filepath.Abs(to); err != nil {
					return err
				}
			}
			if v.in != nil {
				opt.Paths = v.in.ini.SystemFor(v.in.game).Paths
				opt.SystemDir = v.in.search.Dir()
			}
			if len(args) > 0 {
				if opt.Keys, err = v.c.Select(args); err != nil {
					return usageError{err}
				}
			}
			return a.runPlan(cmd, v, v.c.PlanExtract(opt), dryRun)
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print what would be done, change nothing")
	cmd.Flags().BoolVar(&force, "force", false, "replace installed files that have other content")
	cmd.Flags().BoolVar(&keep, "keep", false, "copy only: leave the cache file and its cache.ini line")
	cmd.Flags().StringVar(&to, "to", "", "put every file in this folder instead of the one Paths gives")
	return cmd
}

func newCacheCleanCmd(a *app) *cobra.Command {
	var dryRun bool
	var opt cache.CleanOptions
	cmd := &cobra.Command{
		Use:   "clean [--ini INI | --cache DIR] [--dry-run] [--orphans] [--tmp] [--installed]",
		Short: "Remove what is provably redundant from the cache",
		Long: `clean removes, listing each removal, only what is provably redundant:
  --installed  entries whose package is installed with the same bytes (installed_same); the
               file goes and its cache.ini value is emptied, as after the engine's own move
  --orphans    files without a cache.ini name that are not packages, or whose bytes exist in
               another file of the cache or the install
  --tmp        stray download files that cannot be used (cut short, not decompressing, not a
               package) or whose (decompressed) content exists in another file
With none of the three, all three. A file that may be the only copy of a package is kept,
with a line saying so. Temporary files left by an interrupted upkdeps write always go. --dry-run prints exactly the lines a real run prints. Exit 0.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := a.openCache(writerLock(dryRun, "upkdeps cache clean"))
			if err != nil {
				return err
			}
			defer v.c.Close()
			if v.in != nil {
				opt.Installation = v.in.search
			}
			return a.runPlan(cmd, v, v.c.PlanClean(opt), dryRun)
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print what would be removed, change nothing")
	cmd.Flags().BoolVar(&opt.Orphans, "orphans", false, "remove redundant files that cache.ini does not name")
	cmd.Flags().BoolVar(&opt.Tmp, "tmp", false, "remove redundant or unusable stray download files")
	cmd.Flags().BoolVar(&opt.Installed, "installed", false, "remove entries installed with the same bytes")
	return cmd
}

func newCacheAddCmd(a *app) *cobra.Command {
	var dryRun, force bool
	cmd := &cobra.Command{
		Use:   "add [--ini INI | --cache DIR] [--dry-run] [--force] FILE...",
		Short: "Put packages into the cache, as if downloaded, so a client has them before joining",
		Long: `add copies each package into the cache under the name the engine gives a download (UE1:
GUID + CacheExt; UE2: GUID-Generations.uxx, with the header's generation count) and adds or
updates its cache.ini line (key=original file name). The GUID is read from the package
header. A file that is not a package, is of the other engine generation, or whose name is not
a plain file name is refused, and so is replacing a cache file with other bytes unless
--force. --dry-run prints exactly the lines a real run prints. Exit 1 when a file was refused.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := a.openCache(writerLock(dryRun, "upkdeps cache add"))
			if err != nil {
				return err
			}
			defer v.c.Close()
			return a.runPlan(cmd, v, v.c.PlanAdd(args, cache.AddOptions{Force: force}), dryRun)
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print what would be done, change nothing")
	cmd.Flags().BoolVar(&force, "force", false, "replace a cache file that has other bytes")
	return cmd
}
