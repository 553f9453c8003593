// Package structval parses the struct values of Unreal config lines:
// a parenthesised, comma-separated list of Key=Value fields, values
// optionally in double quotes (a comma inside quotes is part of the value),
// as localisation files' Object= lines and mapvote configs write them
// ("(Name=MyMod.MutA,Class=Class,Description=\"A, B\")").
package structval

import (
	"fmt"
	"strings"
)

// Field is one Key=Value of a struct value, the value without its quotes.
type Field struct {
	Key, Value string
}

// Parse reads v, which may itself be in double quotes. The error says what
// is wrong, lower-case.
func Parse(v string) ([]Field, error) {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		v = strings.TrimSpace(v[1 : len(v)-1])
	}
	if len(v) < 2 || v[0] != '(' || v[len(v)-1] != ')' {
		return nil, fmt.Errorf("not a parenthesised list of fields")
	}
	v = v[1 : len(v)-1]
	var out []Field
	for len(strings.TrimSpace(v)) > 0 {
		key, rest, ok := strings.Cut(v, "=")
		if !ok {
			return out, fmt.Errorf("field %q has no '='", strings.TrimSpace(v))
		}
		key = strings.TrimSpace(key)
		rest = strings.TrimLeft(rest, " \t")
		var val string
		if strings.HasPrefix(rest, `"`) {
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				return out, fmt.Errorf("field %s: unterminated quote", key)
			}
			val, rest = rest[1:1+end], strings.TrimLeft(rest[2+end:], " \t")
			if rest != "" && rest[0] != ',' {
				return out, fmt.Errorf("field %s: text after the closing quote", key)
			}
		} else {
			i := strings.IndexByte(rest, ',')
			if i < 0 {
				i = len(rest)
			}
			val, rest = strings.TrimSpace(rest[:i]), rest[i:]
		}
		out = append(out, Field{key, val})
		v = strings.TrimPrefix(rest, ",")
	}
	return out, nil
}

// Get returns the value of the first field named key (any case).
func Get(fs []Field, key string) (string, bool) {
	for _, f := range fs {
		if strings.EqualFold(f.Key, key) {
			return f.Value, true
		}
	}
	return "", false
}

// List splits a list value: comma-separated items, each trimmed and
// without surrounding quotes, in parentheses or not
// ("(\"A\",\"B\")", "A,B"). Empty items are dropped.
func List(v string) []string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && v[0] == '(' && v[len(v)-1] == ')' {
		v = v[1 : len(v)-1]
	}
	var out []string
	for _, s := range strings.Split(v, ",") {
		s = strings.TrimSpace(s)
		if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
			s = strings.TrimSpace(s[1 : len(s)-1])
		}
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
