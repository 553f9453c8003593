package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/demo"
)

// TestUsageErrorsByType: cobra's argument errors are usage errors by
// type (exit 2 and the help hint), not by matching their text.
func TestUsageErrorsByType(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"chek"}, `unknown command "chek" for "upkdeps"; did you mean check?`},
		{[]string{"check", "extra"}, `unknown command "extra" for "upkdeps check"`},
		{[]string{"why"}, "accepts between 1 and 2 arg(s), received 0"},
		{[]string{"deps", "a", "b"}, "accepts 1 arg(s), received 2"},
		{[]string{"cache", "extract", "--bogus"}, "unknown flag: --bogus"},
	} {
		_, errOut, code := runCLI(t, tc.args...)
		if code != exitError || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "Run 'upkdeps --help' for usage.") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q and the help hint", tc.args, code, errOut, tc.want)
		}
	}
	if out, _, code := runCLI(t); code != exitOK || !strings.Contains(out, "Available Commands") {
		t.Errorf("no arguments: exit %d, want the help", code)
	}
}

// TestInterrupted: a cancelled context (Ctrl-C) stops a check with exit
// 130 and says so, without a report.
func TestInterrupted(t *testing.T) {
	chdirDemo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"check", "--ini", demo.Ini}, strings.NewReader(""), &out, &errb)
	if code != exitInterrupted || !strings.Contains(errb.String(), "interrupted") || out.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}
