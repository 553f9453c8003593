package header

import "strings"

// names is the engine's name table as far as a header shows it: a name is
// case-insensitive and keeps the spelling it was first added with; the
// table remembers the order names were added in (AUTOGENERATE_NAME lines
// come in that order).
type names struct {
	index    map[string]int // lower-cased name -> position in order
	spelling []string
}

func newNames() *names { return &names{index: map[string]int{}} }

// add registers s if it is new and returns its spelling in the table.
func (n *names) add(s string) string {
	if s == "" {
		return s
	}
	k := strings.ToLower(s)
	if i, ok := n.index[k]; ok {
		return n.spelling[i]
	}
	n.index[k] = len(n.spelling)
	n.spelling = append(n.spelling, s)
	return s
}

// spell returns the table's spelling of s, adding it when it is new.
func (n *names) spell(s string) string { return n.add(s) }

// pos returns the position of s in the table, or -1.
func (n *names) pos(s string) int {
	if i, ok := n.index[strings.ToLower(s)]; ok {
		return i
	}
	return -1
}
