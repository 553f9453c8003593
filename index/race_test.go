//go:build race

package index

// raceEnabled is set when the race detector makes the codecs (and SQLite)
// about ten times slower.
const raceEnabled = true
