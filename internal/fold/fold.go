// Package fold compares names as the engine does, case aside: the package,
// class and object names of packages and inis.
package fold

import "strings"

// Compare compares a and b as strings.ToLower makes them (the sign of
// strings.Compare of the two), without making them while both are ASCII:
// names are, and sorts compare them many times.
func Compare(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		x, y := a[i], b[i]
		if x >= 0x80 || y >= 0x80 {
			return strings.Compare(strings.ToLower(a[i:]), strings.ToLower(b[i:]))
		}
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return int(x) - int(y)
		}
	}
	return len(a) - len(b)
}
