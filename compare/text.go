package compare

import (
	"io"

	"github.com/upkdeps/upkdeps/internal/textw"
)

// WriteText writes the report as compare prints it without --json: the
// header and counts, each finding with the server's and the client's copy,
// what the player sees and the fix, or OK.
func (rep *Report) WriteText(w io.Writer) error {
	bw := &textw.Writer{W: w}
	bw.Printf("upkdeps compare: server %s, client %s\n", rep.Server, rep.Client)
	if rep.Preset != "" {
		bw.Printf("preset %s\n", rep.Preset)
	}
	bw.Printf("%d package(s) compared: %d error(s), %d warning(s)\n", rep.Packages, rep.Errors, rep.Warnings)
	for _, f := range rep.Findings {
		bw.Printf("\n%s %s: %s\n", severityWord(string(f.Severity)), f.Kind, f.Package)
		bw.Printf("  server: %s GUID %s, %d generation(s) (via %s)\n", f.ServerFile, f.ServerGUID, f.ServerGeneration, f.Via)
		switch {
		case f.RedirectFile != "":
			bw.Printf("  redirect: %s\n", f.RedirectFile)
		case f.ClientFile != "":
			bw.Printf("  client: %s GUID %s, %d generation(s)\n", f.ClientFile, f.ClientGUID, f.ClientGeneration)
		default:
			bw.Printf("  client: no copy\n")
		}
		bw.Printf("  the player sees: %s\n", f.PlayerError)
		bw.Printf("  fix: %s\n", f.Fix)
	}
	if len(rep.Findings) == 0 {
		bw.Printf("OK: the client resolves every package to the server's version\n")
	}
	return bw.Err
}

// severityWord is "ERROR" or "WARNING".
func severityWord(s string) string {
	if s == "error" {
		return "ERROR"
	}
	return "WARNING"
}
