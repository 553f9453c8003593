package main

import (
	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/ini"
)

// packageArgCommands are the commands whose arguments are package names of
// the install, completed from its Paths.
var packageArgCommands = []string{"why", "deps", "rdeps", "resolve"}

// addCompletions registers the completion of flag values (--game,
// --platform; --format and check's flags register their own) and of
// package-name arguments.
func addCompletions(a *app, root *cobra.Command) {
	_ = root.RegisterFlagCompletionFunc("game", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		titles := map[string]string{}
		for _, p := range ini.Profiles {
			titles[p.Game.Name] = p.Title
		}
		var names []string
		for _, g := range ini.Games {
			if t := titles[g.Name]; t != "" {
				names = append(names, g.Name+"\t"+t)
			} else {
				names = append(names, g.Name+"\tany Unreal Engine "+g.Name[2:]+" game")
			}
		}
		return names, cobra.ShellCompDirectiveNoFileComp
	})
	_ = root.RegisterFlagCompletionFunc("platform", fixedCompletion("windows\tnames match ignoring case", "linux\tnames match exactly"))
	for _, c := range root.Commands() {
		for _, name := range packageArgCommands {
			if c.Name() == name && c.ValidArgsFunction == nil {
				c.ValidArgsFunction = a.completePackages
			}
		}
	}
}
