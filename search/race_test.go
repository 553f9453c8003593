//go:build race

package search

// raceEnabled is set when the race detector slows every lookup tenfold.
const raceEnabled = true
