package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/internal/suggest"
)

// noSuchPackage is the usage error of a package name the install's graph
// does not have, with the nearest name it has ("did you mean DM-Demo?").
func noSuchPackage(g *graph.Graph, name, hint string) error {
	var names []string
	for _, p := range g.Packages() {
		if !p.Missing() {
			names = append(names, p.Name)
		}
	}
	msg := name + ": no such package in the install" + hint
	if near := suggest.Nearest(name, names); near != "" {
		msg += fmt.Sprintf("; did you mean %s?", near)
	}
	return usagef("%s", msg)
}

// completePackages completes a package name argument from the packages
// the install's Paths reach (a folder listing, no package is read). The
// flags are loaded as a command would (completion runs no PreRun).
func (a *app) completePackages(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	cfg, err := a.loader.load(cmd)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	saved := a.cfg
	a.cfg = cfg
	if a.stderr == nil {
		a.stderr = io.Discard
	}
	in, err := a.openInstall()
	a.cfg = saved
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []string
	seen := map[string]bool{}
	for _, c := range in.Search.Packages() {
		if strings.HasPrefix(strings.ToLower(c.Name), strings.ToLower(toComplete)) && !seen[c.Name] {
			seen[c.Name] = true
			out = append(out, c.Name)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
