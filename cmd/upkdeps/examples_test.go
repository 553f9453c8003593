package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestEveryCommandHasExample: every command's --help has an example, each
// example runs the command it belongs to, and no example is for a command
// that does not exist.
func TestEveryCommandHasExample(t *testing.T) {
	root := newRootCmd(&app{stdin: strings.NewReader("")})
	seen := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.IsAvailableCommand() && c != root {
			return
		}
		key := strings.TrimPrefix(strings.TrimPrefix(c.CommandPath(), "upkdeps"), " ")
		seen[key] = true
		if strings.TrimSpace(c.Example) == "" {
			t.Errorf("%q has no example", c.CommandPath())
		}
		for _, line := range strings.Split(c.Example, "\n") {
			line = strings.TrimSpace(line)
			if c != root && !strings.HasPrefix(line+" ", c.CommandPath()+" ") && !strings.Contains(line, "<(upkdeps completion") {
				t.Errorf("%s: example %q does not run it", c.CommandPath(), line)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for key := range examples {
		if !seen[key] {
			t.Errorf("an example for %q, which is no command", key)
		}
	}
	out, _, code := runCLI(t, "check", "--help")
	if code != exitOK || !strings.Contains(out, "Examples:\n  upkdeps check --ini testdata/demo/System/Demo.ini") {
		t.Errorf("check --help: code %d\n%s", code, out)
	}
}
