// Command gentables makes a built-in native class table of package native
// from a game's binaries (.dll, .so, .lib import libraries) and/or C++
// headers (.h):
//
//	go run ./native/gentables -o native/tables/NAME.txt -game G -generation N -source "..." FILES|DIRS...
//
// A folder stands for the .dll, .so, .lib and .h files directly in it.
// The table is named after the output file unless -name says otherwise.
// Without -o it is written to stdout; -o refuses to replace a file with
// different content unless -force is given, and -n only reports whether
// it would.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/native"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

func run(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gentables", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the table to this file (default stdout)")
	name := fs.String("name", "", "table name (default: the -o file name without .txt)")
	game := fs.String("game", "", "game profile name (ut99, ut2004, ...)")
	gen := fs.Int("generation", 0, "engine generation, 1 or 2")
	source := fs.String("source", "", "where the inputs come from: repository, commit, files (\\n separates lines)")
	force := fs.Bool("force", false, "replace an -o file with different content")
	dry := fs.Bool("n", false, "dry run: say what -o would do, write nothing")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *name == "" && *out != "" {
		*name = strings.TrimSuffix(filepath.Base(*out), ".txt")
	}
	if *name == "" || *game == "" || (*gen != 1 && *gen != 2) || *source == "" || fs.NArg() == 0 {
		fmt.Fprintln(stderr, "gentables: want -o or -name, -game, -generation 1|2, -source and at least one file or folder")
		return 2
	}
	t, err := build(fs.Args())
	if err != nil {
		fmt.Fprintln(stderr, "gentables:", err)
		return 2
	}
	t.Name, t.Game, t.Generation = *name, *game, *gen
	t.Source = strings.ReplaceAll(*source, `\n`, "\n")
	var buf bytes.Buffer
	if _, err := t.WriteTo(&buf); err != nil {
		fmt.Fprintln(stderr, "gentables:", err)
		return 2
	}
	// The output must read back as a table: the same check Builtin makes.
	if _, err := native.ParseTable(bytes.NewReader(buf.Bytes()), *name); err != nil {
		fmt.Fprintln(stderr, "gentables:", err)
		return 2
	}
	if *out == "" {
		stdout.Write(buf.Bytes())
		return 0
	}
	old, err := os.ReadFile(*out)
	switch {
	case err == nil && bytes.Equal(old, buf.Bytes()):
		fmt.Fprintf(stderr, "gentables: %s is up to date\n", *out)
		return 0
	case err == nil && !*force:
		fmt.Fprintf(stderr, "gentables: %s exists with different content (use -force to replace it)\n", *out)
		return 1
	case err != nil && !errors.Is(err, os.ErrNotExist):
		fmt.Fprintln(stderr, "gentables:", err)
		return 2
	}
	if *dry {
		fmt.Fprintf(stderr, "gentables: would write %s (%d bytes)\n", *out, buf.Len())
		return 0
	}
	if err := writeAtomic(*out, buf.Bytes()); err != nil {
		fmt.Fprintln(stderr, "gentables:", err)
		return 2
	}
	fmt.Fprintf(stderr, "gentables: wrote %s\n", *out)
	return 0
}

// inputs expands folders into their .dll, .so, .lib and .h files, sorted.
func inputs(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, a)
			continue
		}
		entries, err := os.ReadDir(a)
		if err != nil {
			return nil, err
		}
		var in []string
		for _, e := range entries {
			switch strings.ToLower(filepath.Ext(e.Name())) {
			case ".dll", ".so", ".lib", ".h":
				if e.Type().IsRegular() {
					in = append(in, filepath.Join(a, e.Name()))
				}
			}
		}
		slices.Sort(in)
		files = append(files, in...)
	}
	return files, nil
}

// build reads every input and merges the classes per package (ignoring
// case; the first spelling wins).
func build(args []string) (*native.Table, error) {
	files, err := inputs(args)
	if err != nil {
		return nil, err
	}
	t := &native.Table{Packages: map[string][]string{}}
	spelled := map[string]string{} // lower-cased package -> spelling
	add := func(pkg string, classes []string) {
		key := strings.ToLower(pkg)
		if _, ok := spelled[key]; !ok {
			spelled[key] = pkg
		}
		pkg = spelled[key]
		t.Packages[pkg] = append(t.Packages[pkg], classes...)
	}
	for _, f := range files {
		base := filepath.Base(f)
		if strings.EqualFold(filepath.Ext(f), ".h") {
			r, err := os.Open(f)
			if err != nil {
				return nil, err
			}
			m, err := native.HeaderClasses(r, f)
			r.Close()
			if err != nil {
				return nil, err
			}
			pkgs := make([]string, 0, len(m))
			for pkg, classes := range m {
				add(pkg, classes)
				pkgs = append(pkgs, fmt.Sprintf("%s %d", pkg, len(classes)))
			}
			slices.Sort(pkgs)
			t.From = append(t.From, fmt.Sprintf("%s: header, classes per package: %s", base, strings.Join(pkgs, ", ")))
			continue
		}
		b, err := native.ReadBinary(f)
		if err != nil {
			return nil, err
		}
		add(b.Package, b.Classes)
		t.From = append(t.From, fmt.Sprintf("%s: %s, %d classes", base, b.Method, len(b.Classes)))
	}
	return t, nil
}

// writeAtomic writes data to a temporary file beside path and renames it.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
