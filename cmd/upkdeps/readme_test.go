package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/demo"
)

// TestREADMECommands runs every command of README.md's sh blocks as
// written, in a fresh copy of the demo laid out as a clone is
// (testdata/demo): each `upkdeps ...` or `go run ./cmd/upkdeps ...` line
// must work (exit 0, or 1 for a report with findings: the demo is broken
// on purpose), never exit 2. Lines that build, install or test the project
// or fetch something are listed in notRun; any other line fails the test,
// so a new README command is either run here or named there.
func TestREADMECommands(t *testing.T) {
	readme := filepath.Join(goldenRoot, "..", "..", "..", "README.md")
	cmds, err := readmeCommands(readme)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) < 5 {
		t.Fatalf("README.md: %d commands in sh blocks; the quick start has more", len(cmds))
	}
	clone := t.TempDir()
	if err := demo.Write(filepath.Join(clone, "testdata", "demo")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(clone)
	t.Setenv("HOME", t.TempDir()) // the default index and config live under it
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ran := 0
	for _, c := range cmds {
		args, run := upkdepsArgs(c.fields)
		if !run {
			if !notRun(c.fields) {
				t.Errorf("README.md:%d: %q is neither an upkdeps command nor a known build/test line", c.line, c.text)
			}
			continue
		}
		ran++
		out, errOut, code := runCLI(t, args...)
		if code != exitOK && code != exitFindings {
			t.Errorf("README.md:%d: %s: exit %d\nstdout: %.500s\nstderr: %s", c.line, c.text, code, out, errOut)
		}
	}
	if ran == 0 {
		t.Error("README.md runs no upkdeps command")
	}
}

// readmeCommand is one line of a README sh block.
type readmeCommand struct {
	line   int
	text   string
	fields []string
}

// readmeCommands returns the command lines of the ```sh blocks of path,
// comments removed.
func readmeCommands(path string) ([]readmeCommand, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []readmeCommand
	in := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```sh"):
			in = true
			continue
		case strings.HasPrefix(line, "```"):
			in = false
			continue
		}
		if !in {
			continue
		}
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields, err := shellFields(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, readmeCommand{n, line, fields})
	}
	return out, sc.Err()
}

// shellFields splits a command line as sh does for the simple lines a
// README shows: words, '...' and "..." quoting; any other shell syntax
// (pipes, redirections, variables) is an error, since the test cannot run
// it as written.
func shellFields(line string) ([]string, error) {
	var fields []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				fields = append(fields, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'' || c == '"':
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unclosed quote in %q", line)
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case strings.IndexByte("|&;<>$`(){}*?~", c) >= 0:
			return nil, fmt.Errorf("shell syntax %q in %q: the README test runs commands as plain words", c, line)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		fields = append(fields, cur.String())
	}
	return fields, nil
}

// upkdepsArgs returns the arguments of an upkdeps command line.
func upkdepsArgs(fields []string) ([]string, bool) {
	switch {
	case len(fields) >= 1 && fields[0] == "upkdeps":
		return fields[1:], true
	case len(fields) >= 3 && fields[0] == "go" && fields[1] == "run" && fields[2] == "./cmd/upkdeps":
		return fields[3:], true
	}
	return nil, false
}

// notRun reports whether a README line builds, installs or tests the
// project, or fetches a file: lines this test does not run.
func notRun(fields []string) bool {
	if len(fields) < 2 {
		return false
	}
	switch fields[0] + " " + fields[1] {
	case "go test", "go install", "go build", "go generate", "go vet", "git clone":
		return true
	}
	return false
}
