//go:build race

package scripts

// raceFlags are the go build flags that match this test binary's: a
// binary built with them reuses the race-compiled packages `go test -race`
// compiled already, instead of compiling every package again without.
var raceFlags = []string{"-race"}
