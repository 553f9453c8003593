package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/search"
)

// Config is every setting a command may use, from (highest first) flags,
// UPKDEPS_* environment variables, and the optional config file upkdeps.yaml.
// Keys are the flag names.
type Config struct {
	Config     string `mapstructure:"config"`      // config file used ("" when none)
	Ini        string `mapstructure:"ini"`         // the game ini (load finds it in a folder given); "" = look for one
	Game       string `mapstructure:"game"`        // game profile override
	Platform   string `mapstructure:"platform"`    // file-name rules: windows, linux; "" = from the install's binaries
	Cache      string `mapstructure:"cache"`       // cache folder override
	JSON       bool   `mapstructure:"json"`        // JSON instead of text
	Jobs       int    `mapstructure:"jobs"`        // parallel workers
	NoProgress bool   `mapstructure:"no-progress"` // never draw a progress bar
	// DB is the package index database (--index FILE of check, report,
	// plan, fix, find and index; config key index, or db, its old name);
	// "" is upkdeps/index.db in the user's cache folder (see defaultDB).
	DB string `mapstructure:"index"`
	// FailOn, Disable and Enable are check's --fail-on, --disable and
	// --enable (check_ci.go).
	FailOn  string   `mapstructure:"fail-on"`
	Disable []string `mapstructure:"disable"`
	Enable  []string `mapstructure:"enable"`
	// Mutators are the mutator classes the server's command line runs
	// (--mutators; install.Options.Mutators).
	Mutators []string `mapstructure:"mutators"`
	// URL is the server's launch URL (--url; install.Options.URL).
	URL string `mapstructure:"url"`
}

// addServerFlags defines --url and --mutators on fs (config keys url
// and mutators): what the server's command line runs.
func addServerFlags(fs *pflag.FlagSet) {
	fs.String("url", "", `the server's launch URL, as after "ucc server" ("DM-Deck16][?Game=Botpack.DeathMatchPlus?Mutator=A.B,C.D"): its map, game class and mutators are checked like ini lines`)
	fs.StringSlice("mutators", nil, "the mutator classes the server's command line runs (?Mutator=Pkg.Class,...): checked like ServerActors lines, and sent when their defaults set bAddToServerPackages (UT2004) or bAddToPackageMap (UT99 469)")
}

// defaultIndex is the --index value that names the default index
// explicitly: the config key index, else the user cache folder's
// index.db. "" means the same (the old spelling).
const defaultIndex = "default"

// addIndexFlag defines --index FILE on fs, the one name of the package
// index database on every command; alias keeps --db, the name fix, find
// and index used before, as a hidden deprecated spelling.
func addIndexFlag(fs *pflag.FlagSet, usage string, alias bool) {
	fs.String("index", "", usage+indexFlagHelp)
	if alias {
		fs.String("db", "", "the index database (deprecated: use --index)")
		// Hidden, not MarkDeprecated: cobra prints a deprecation note on
		// the command's output, which is stdout here and would break
		// --json; load prints the note on stderr instead.
		_ = fs.MarkHidden("db")
	}
}

// indexFlagHelp ends the help of every --index flag.
const indexFlagHelp = ` (FILE, or "default": the config key index, else upkdeps/index.db in the user cache folder)`

// addOutputFlag defines -o/--output DIR, the output of every command that
// writes files (graph, report, headers, uz, redirect), and --out, the old
// name of redirect's, hidden and deprecated like --db.
func addOutputFlag(fs *pflag.FlagSet, p *string, usage string) {
	fs.StringVarP(p, "output", "o", "", usage)
	fs.StringVar(p, "out", "", usage+" (deprecated: use -o)")
	_ = fs.MarkHidden("out")
}

// deprecatedFlags are the old flag spellings load warns about on stderr.
var deprecatedFlags = map[string]string{"db": "--index", "out": "-o (--output)"}

// Validate checks values that flags and files cannot constrain.
func (c *Config) Validate() error {
	if c.Jobs < 0 {
		return fmt.Errorf("--jobs must be 0 (all cores) or more, not %d", c.Jobs)
	}
	if _, err := search.ParsePlatform(c.Platform); err != nil {
		return fmt.Errorf("--platform: %w", err)
	}
	if c.Jobs == 0 {
		c.Jobs = runtime.GOMAXPROCS(0)
	}
	return nil
}

// loader owns the persistent flags and turns them, the environment and the
// config file into a Config. Only it touches viper.
type loader struct{}

func newLoader(root *cobra.Command) *loader {
	pf := root.PersistentFlags()
	pf.String("config", "", "config file (default: ./upkdeps.yaml, then the user config folder's upkdeps/upkdeps.yaml)")
	pf.String("ini", "", "the game's ini file, or the game folder or its System folder to look for a known game ini in (default: look in . and ./System)")
	pf.String("game", "", "game profile: ut99, unreal, deusex, rune, ut2003, ut2004, kf, swat4, r6rs, shadowops, ue2runtime, swrc, ue1, ue2 (default: from the ini)")
	pf.String("platform", "", "file-name rules of the install: windows (names match ignoring case) or linux (default: from its binaries: .exe/.dll or .so/ucc-bin)")
	pf.Int("jobs", 0, "parallel workers (0 = one per core)")
	pf.Bool("no-progress", false, "never show a progress bar")
	return &loader{}
}

func (l *loader) load(cmd *cobra.Command) (Config, error) {
	v := viper.New()
	v.SetEnvPrefix("UPKDEPS")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	v.AutomaticEnv()
	for key, def := range map[string]any{
		"config": "", "ini": "", "game": "", "platform": "", "cache": "", "json": false, "jobs": 0, "no-progress": false,
		"index": "", "db": "", "fail-on": "error", "disable": []string{}, "enable": []string{},
		"mutators": []string{}, "url": "",
	} {
		v.SetDefault(key, def)
	}
	var bindErr error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if (f.Name == "index" || f.Name == "db") && f.Changed && (f.Value.String() == "" || f.Value.String() == defaultIndex) {
			return // the default named explicitly: the config key, else the cache folder's
		}
		if f.Changed && deprecatedFlags[f.Name] != "" {
			fmt.Fprintf(cmd.ErrOrStderr(), "upkdeps: --%s is deprecated: use %s\n", f.Name, deprecatedFlags[f.Name])
		}
		if err := v.BindPFlag(f.Name, f); err != nil && bindErr == nil {
			bindErr = err
		}
	})
	if bindErr != nil {
		return Config{}, bindErr
	}
	file, err := readConfigFile(v)
	if err != nil {
		return Config{}, err
	}
	var c Config
	if err := v.Unmarshal(&c); err != nil {
		return Config{}, fmt.Errorf("configuration: %w", err)
	}
	c.Config = file
	c.DB = indexPath(cmd, v, c.DB)
	if err := c.Validate(); err != nil {
		return Config{}, err
	}
	return c, nil
}

// readConfigFile reads the config file (--config, else the default one)
// into v and returns its path; "" when there is none. A missing default
// file is fine, a missing explicit one an error.
func readConfigFile(v *viper.Viper) (string, error) {
	file := v.GetString("config")
	explicit := file != ""
	if !explicit {
		file = defaultConfigFile()
	}
	if file == "" {
		return "", nil
	}
	// Read through the regular-file rule (a named pipe is an error at
	// once, not a wait), within maxConfigSize; viper only parses.
	data, err := fsutil.ReadRegular(file, maxConfigSize)
	if err == nil {
		v.SetConfigType("yaml")
		err = v.ReadConfig(bytes.NewReader(data))
	}
	if err == nil {
		if err := checkConfigKeys(file, data); err != nil {
			return "", err
		}
	}
	var nr *fsutil.NotRegularError
	if errors.As(err, &nr) {
		err = &fsutil.NotRegularError{Mode: nr.Mode} // the message names the file once
	}
	if err != nil {
		if explicit || !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("config file %s: %w", file, err)
		}
		return "", nil
	}
	return file, nil
}

// indexPath returns the package index to use, given the one the index flag
// or key set: --db FILE, the old flag name, over the config key index;
// the config key db, the old name, when nothing else names one; "" for the
// default (also when "default" names it).
func indexPath(cmd *cobra.Command, v *viper.Viper, db string) string {
	if f := cmd.Flags().Lookup("db"); f != nil && f.Changed && !cmd.Flags().Changed("index") && f.Value.String() != "" {
		db = f.Value.String()
	}
	if db == "" {
		db = v.GetString("db")
	}
	if db == defaultIndex {
		db = ""
	}
	return db
}

// maxConfigSize bounds the config file read: a real one is a few lines.
const maxConfigSize = 1 << 20

// defaultConfigFile returns the first upkdeps.yaml that exists and is not a
// folder (a named pipe or device is returned, for load to refuse with a
// message): in the current folder, then in the user's config folder; ""
// when none does.
func defaultConfigFile() string {
	candidates := []string{"upkdeps.yaml"}
	if dir, err := os.UserConfigDir(); err == nil {
		candidates = append(candidates, filepath.Join(dir, "upkdeps", "upkdeps.yaml"))
	}
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c
		}
	}
	return ""
}

// defaultDB is the index database used when neither --index nor the
// config key index names one: upkdeps/index.db in the user's cache folder
// (it is a cache: everything in it is rebuilt by adding its sources again).
func defaultDB() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no --index given and no user cache folder: %w", err)
	}
	return filepath.Join(dir, "upkdeps", "index.db"), nil
}
