//go:build !race

package uz

const raceEnabled = false
