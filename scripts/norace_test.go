//go:build !race

package scripts

// raceFlags: see race_test.go.
var raceFlags []string
