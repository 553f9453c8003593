// Package install is the one way into a game installation, for every
// command of upkdeps and for library users: [Open] reads the ini (given as
// a file, a game folder or its System folder, or found in the working
// folder), decides the game profile and the platform's file-name rules,
// and returns an [Install] whose methods answer what the other packages
// ask of it:
//
//   - [Install.Graph] scans its packages into a graph.Graph, its roots
//     ([Install.Roots]) the ini's lines and what the server's command
//     line runs (Options.URL, read by [ParseServerURL], and
//     Options.Mutators);
//   - [Install.Natives] reads the native classes of its binaries, with the
//     game's built-in tables for the packages without one;
//   - [Install.Order] checks the EditPackages build order (the one place
//     the natives, the sources and the order check meet);
//   - [Install.Place] names the folder a package file is installed to;
//   - [Install.ServerPackagesFor] and [Install.LiveMap] say what a server
//     sends; [Install.CachePins] what a client's download cache pins;
//   - [Install.OpenCache] opens its download cache classified against it;
//   - [Install.Locate] turns a finding into a file and line.
//
// What the caller got wrong (an unknown game or platform, an ini that
// cannot be found, a URL or mutator that does not parse) is an [ArgError] naming the option, in words free of
// any command line's syntax: the caller maps it to its own flags.
//
// The package never prints: warnings go to Options.Warn.
package install
