package cifmt

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// WriteGitHub prints l as GitHub Actions workflow commands, one line per
// result: "::error file=System/Demo.ini,line=25,title=missing_package::msg"
// ("warning" and "notice" for the other levels). The message and the
// properties are escaped as GitHub's runner unescapes them: % CR LF as
// %25 %0D %0A, and in properties also : and , as %3A and %2C.
func WriteGitHub(w io.Writer, l *Log) error {
	bw := bufio.NewWriter(w)
	for _, r := range l.sorted() {
		cmd := "notice"
		switch r.Level {
		case Error:
			cmd = "error"
		case Warning:
			cmd = "warning"
		}
		var props []string
		if f := l.rel(r.File); f != "" {
			props = append(props, "file="+EscapeProperty(f))
			if r.Line > 0 {
				props = append(props, "line="+strconv.Itoa(r.Line))
			}
		}
		props = append(props, "title="+EscapeProperty(l.Tool+": "+r.Rule))
		bw.WriteString("::" + cmd + " " + strings.Join(props, ",") + "::" + EscapeData(r.Message) + "\n")
	}
	return bw.Flush()
}

// EscapeData escapes a workflow command's message.
func EscapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// EscapeProperty escapes a workflow command's property value.
func EscapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
