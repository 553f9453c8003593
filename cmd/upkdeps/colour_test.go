package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestColour: the severity words at the start of a line are coloured,
// nothing else is; a pipe (a buffer here) gets no colour.
func TestColour(t *testing.T) {
	var buf bytes.Buffer
	in := "\nERROR missing_package: Foo\n  1. WARNING cycle: A (ERROR inside)\nNo ERRORS\n"
	n, err := colourWriter{&buf}.Write([]byte(in))
	if err != nil || n != len(in) {
		t.Fatalf("Write: %d, %v", n, err)
	}
	want := "\n\x1b[1;31mERROR\x1b[0m missing_package: Foo\n  1. \x1b[33mWARNING\x1b[0m cycle: A (ERROR inside)\nNo ERRORS\n"
	if buf.String() != want {
		t.Errorf("have %q\nwant %q", buf.String(), want)
	}
	if w := colourOut(&buf); w != &buf {
		t.Error("a buffer is no terminal: want no colour")
	}
	out, _, _ := runCLI(t, "check", "--ini", demoIni)
	if strings.Contains(out, "\x1b[") {
		t.Error("colour in output that is not a terminal")
	}
}
