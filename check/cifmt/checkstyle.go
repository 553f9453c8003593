package cifmt

import (
	"encoding/xml"
	"io"
)

type (
	csRoot struct {
		XMLName xml.Name `xml:"checkstyle"`
		Version string   `xml:"version,attr"`
		Files   []csFile `xml:"file"`
	}
	csFile struct {
		Name   string    `xml:"name,attr"`
		Errors []csError `xml:"error"`
	}
	csError struct {
		Line     int    `xml:"line,attr,omitempty"`
		Severity string `xml:"severity,attr"`
		Message  string `xml:"message,attr"`
		Source   string `xml:"source,attr"`
	}
)

// WriteCheckstyle prints l as checkstyle XML (the format of checkstyle
// 4.3, which CI plugins read): one <file> per file, one <error> per
// result with its line, severity (error, warning, info), message and
// source ("upkdeps.missing_package"). Results without a file go under
// name "".
func WriteCheckstyle(w io.Writer, l *Log) error {
	root := csRoot{Version: "4.3"}
	at := map[string]int{}
	for _, r := range l.sorted() {
		name := l.rel(r.File)
		i, ok := at[name]
		if !ok {
			i = len(root.Files)
			at[name] = i
			root.Files = append(root.Files, csFile{Name: name})
		}
		sev := "info"
		switch r.Level {
		case Error:
			sev = "error"
		case Warning:
			sev = "warning"
		}
		root.Files[i].Errors = append(root.Files[i].Errors, csError{Line: r.Line, Severity: sev, Message: r.Message, Source: l.Tool + "." + r.Rule})
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(root); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
