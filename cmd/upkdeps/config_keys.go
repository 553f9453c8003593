package main

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/upkdeps/upkdeps/internal/suggest"
)

// configKeys are the keys a config file may set: Config's, and db, the old
// name of index.
func configKeys() []string {
	keys := []string{"db"}
	t := reflect.TypeFor[Config]()
	for i := range t.NumField() {
		if k := t.Field(i).Tag.Get("mapstructure"); k != "" && k != "config" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// checkConfigKeys returns an error naming the first key of the YAML config
// data that upkdeps does not know, its line and the nearest known key:
// a misspelt key would otherwise be ignored without a word.
func checkConfigKeys(file string, data []byte) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return nil // viper reports a syntax error; an empty file sets nothing
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return fmt.Errorf("config file %s:%d: want key: value lines", file, m.Line)
	}
	known := configKeys()
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if slices.Contains(known, k.Value) {
			continue
		}
		msg := fmt.Sprintf("config file %s:%d: unknown key %q", file, k.Line, k.Value)
		if near := suggest.Nearest(k.Value, known); near != "" {
			msg += fmt.Sprintf("; did you mean %s?", near)
		} else {
			msg += " (known keys: " + strings.Join(known, ", ") + ")"
		}
		return fmt.Errorf("%s", msg)
	}
	return nil
}
