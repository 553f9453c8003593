//go:build race

package uz

// raceEnabled is set under the race detector, which makes the codecs ten
// times slower: tests then skip their largest inputs.
const raceEnabled = true
