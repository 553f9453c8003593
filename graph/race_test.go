//go:build race

package graph

// raceEnabled is set when the race detector adds allocations of its own.
const raceEnabled = true
