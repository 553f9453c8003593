//go:build race

package main

// raceEnabled is set when the race detector slows the commands tenfold.
const raceEnabled = true
