//go:build race

package archive

// raceEnabled is set when the race detector makes the decoders (and the
// fixtures' encoders) about ten times slower.
const raceEnabled = true
