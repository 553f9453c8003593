package main

import (
	"strings"
	"testing"
)

// TestCommandIn: the command a command line runs, found without the tree:
// root flags and their values skipped, anything else left to the whole
// tree ("").
func TestCommandIn(t *testing.T) {
	flags := newRootCmd(&app{}).PersistentFlags()
	for _, tc := range []struct {
		args string
		want string
	}{
		{"check", "check"},
		{"--ini System/UT.ini check --json", "check"},
		{"--ini=System/UT.ini --jobs 2 cache list", "cache"},
		{"--game ut99 --platform linux --config c.yaml --no-progress why A B", "why"},
		{"-v", ""},
		{"--help", ""},
		{"", ""},
		{"help check", ""},
		{"completion bash", ""},
		{"__complete check --game ", ""},
		{"chek", ""},
		{"-- check", ""},
		{"--ini check", ""}, // check is --ini's value: no command
	} {
		if have := commandIn(strings.Fields(tc.args), flags); have != tc.want {
			t.Errorf("%q: have %q, want %q", tc.args, have, tc.want)
		}
	}
	if len(commands) != len(newRootCmd(&app{}).Commands())-1 { // completion is cobra's
		t.Errorf("%d commands listed, the tree has %d besides completion", len(commands), len(newRootCmd(&app{}).Commands())-1)
	}
}

// TestOneCommandTree: a tree made for one command holds that command as the
// whole tree does: the same help (flags, examples, subcommands) for it and
// every command below it.
func TestOneCommandTree(t *testing.T) {
	full := newRootCmd(&app{})
	for _, c := range commands {
		one, partial := newRootCmdOf(&app{}, []string{c.name})
		if !partial {
			t.Errorf("%s: not a one-command tree", c.name)
		}
		if n := len(one.Commands()); n != 2 { // c and completion (help comes at Execute)
			t.Errorf("%s: the tree has %d commands", c.name, n)
		}
		var walk func(path []string)
		walk = func(path []string) {
			want, _, err := full.Find(path)
			if err != nil {
				t.Fatal(err)
			}
			have, _, err := one.Find(path)
			if err != nil || have.CommandPath() != want.CommandPath() {
				t.Fatalf("%v: have %v (%v), want %s", path, have.CommandPath(), err, want.CommandPath())
			}
			if have.UsageString() != want.UsageString() || have.Long != want.Long || have.Example != want.Example {
				t.Errorf("%s: the one-command tree's help differs", want.CommandPath())
			}
			for _, sub := range want.Commands() {
				walk(append(path, sub.Name()))
			}
		}
		walk([]string{c.name})
	}
}
