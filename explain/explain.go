package explain

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/upkdeps/upkdeps/format"
)

// SchemaVersion is the Report's schema_version.
const SchemaVersion = 1

// Kinds of lines.
const (
	PackageMap      = "package_map"      // USES GUID=... PKG=...: the server's package map, on a client
	ServerPackage   = "server_package"   // Server Package: X, on a server at start
	CantFind        = "cant_find"        // Can't find file for package X
	VersionMismatch = "version_mismatch" // Package X version mismatch
	AlreadyLoaded   = "already_loaded"   // File X with GUID A was already loaded but is incompatible with ... B
	FailedImport    = "failed_import"    // Failed import: CLASS CLASS PATH (file F)
	MissingObject   = "missing_object"   // Failed to find object 'CLASS PATH'
	NotUnderstood   = "not_understood"
)

// Line is one log line explained.
type Line struct {
	Number  int    `json:"line"` // 1-based
	Text    string `json:"text"` // the line, trimmed
	Kind    string `json:"kind"`
	Package string `json:"package,omitempty"`
	Object  string `json:"object,omitempty"` // a group path below Package
	Class   string `json:"class,omitempty"`
	GUID    string `json:"guid,omitempty"` // the GUID the line names (the one asked for)
	Gen     int    `json:"generation,omitempty"`
	// Problem is false for a line that is no failure (a package map line
	// whose package the install has in the same version).
	Problem bool   `json:"problem"`
	What    string `json:"what"`
	Why     string `json:"why,omitempty"`
	// Chain is why the engine loads Package at all: the ini line or map
	// that starts it, then one import hop per entry ("A -> B"), when
	// Options.Chain knows it.
	Chain []string `json:"chain,omitempty"`
	Fix   string   `json:"fix,omitempty"`
}

// Report is what `upkdeps explain --json` prints.
type Report struct {
	SchemaVersion  int    `json:"schema_version"`
	Log            string `json:"log"`
	Encoding       string `json:"encoding"`
	Install        string `json:"install,omitempty"` // the ini answered against
	Lines          int    `json:"lines"`             // lines read
	LinesTruncated int    `json:"lines_truncated"`   // lines longer than MaxLineLength
	Explained      []Line `json:"explained"`         // in log order
	NotUnderstood  []Line `json:"not_understood"`    // in log order
	Problems       int    `json:"problems"`
	// Dropped counts the explained and not-understood lines over the
	// Options bounds, not listed (their problems are counted).
	Dropped int `json:"dropped"`
}

// Failed says whether the log shows a problem, or a line explain could not
// read or had to drop: what `upkdeps explain` exits 1 for.
func (r *Report) Failed() bool {
	return r.Problems > 0 || len(r.NotUnderstood) > 0 || r.Dropped > 0
}

// Install is what explain asks of the install: where a package resolves
// (engine lookup by name, and by GUID for a server's package map).
type Install interface {
	Find(pkg string) string                                // file, "" when none
	FindGUID(pkg string, guid format.GUID, gen int) string // file, "" when none
	Rel(path string) string                                // path relative to the game root
	IniPath() string
	Generation() int // the engine generation, 1 or 2 (0 unknown)
}

// Index finds copies of a package elsewhere (the package index): short
// descriptions, best first.
type Index func(ctx context.Context, pkg, guid string) []string

// Options say what to answer against; both may be nil.
type Options struct {
	Install Install
	Index   Index
	// Chain says why the install loads a package (GraphChain); nil: not
	// said. It is asked once per package of a problem line.
	Chain func(pkg string) []string
	// MaxNotUnderstood bounds the not-understood lines kept (0: 1000), and
	// MaxExplained the explained ones (0: 100,000); the rest are counted
	// in Report.Dropped, so memory stays bounded on any log.
	MaxNotUnderstood int
	MaxExplained     int
}

// logREs are the patterns of the log lines Explain understands, compiled
// on first use (not at start: every command's start would pay for them).
type logREs struct {
	uses, serverPackage, cantFindPkg, cantFindFile, mismatch, alreadyLoaded, failedImport, findObject, loadObject *regexp.Regexp
}

var logPatterns = sync.OnceValue(func() *logREs {
	return &logREs{
		uses:          regexp.MustCompile(`\bUSES GUID=([0-9A-Fa-f]{32}) PKG=(\S+)(?: FLAGS=\d+)?(?: SIZE=\d+)? GEN=(\d+)`),
		serverPackage: regexp.MustCompile(`^(?:\S+: )?Server Package: (\S+)\s*$`),
		cantFindPkg:   regexp.MustCompile(`Can't find file for package '?"?([^'".\s]+)'?"?`),
		cantFindFile:  regexp.MustCompile(`Failed to load '?"?([^'":\s]+)'?"?: Can't find file '?([^'.\s]+)'?`),
		mismatch:      regexp.MustCompile(`Package '?"?([^'"\s]+?)'?"? version mismatch`),
		alreadyLoaded: regexp.MustCompile(`File (\S+) with GUID ([0-9A-Fa-f]{32}) was already loaded but is incompatible with requested GUID ([0-9A-Fa-f]{32})`),
		failedImport:  regexp.MustCompile(`Failed import: (\S+) (\S+) (\S+) \(file ([^,)]+)(?:, when loading Package (\S+))?\)`),
		findObject:    regexp.MustCompile(`Failed to find object '(\S+) ([^']+)'`),
		loadObject:    regexp.MustCompile(`Failed to load '(\S+) ([^']+)'`),
	}
})

var failureWords = []string{"fail", "can't find", "cant find", "mismatch", "unresolved", "missing"}

// Explain reads the log r (named name) line by line and explains it.
func Explain(ctx context.Context, r io.Reader, name string, opt Options) (*Report, error) {
	lr, err := newLineReader(r)
	if err != nil {
		return nil, fmt.Errorf("explain: %s: %w", name, err)
	}
	maxNU, maxEx := opt.MaxNotUnderstood, opt.MaxExplained
	if maxNU <= 0 {
		maxNU = 1000
	}
	if maxEx <= 0 {
		maxEx = 100000
	}
	rep := &Report{SchemaVersion: SchemaVersion, Log: name, Encoding: lr.enc, Explained: []Line{}, NotUnderstood: []Line{}}
	if opt.Install != nil {
		rep.Install = opt.Install.IniPath()
	}
	e := &explainer{opt: opt, ctx: ctx, chains: map[string][]string{}}
	for {
		if rep.Lines%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		text, ok, err := lr.next()
		if err != nil {
			return nil, fmt.Errorf("explain: %s: line %d: %w", name, rep.Lines+1, err)
		}
		if !ok {
			break
		}
		rep.Lines++
		text = strings.TrimSpace(text)
		l, known := e.line(rep.Lines, text)
		switch {
		case known:
			if l.Problem {
				rep.Problems++
			}
			if len(rep.Explained) >= maxEx {
				rep.Dropped++
				continue
			}
			if l.Problem && l.Package != "" && opt.Chain != nil {
				l.Chain = e.chain(l.Package)
			}
			rep.Explained = append(rep.Explained, l)
		case looksLikeFailure(text):
			if len(rep.NotUnderstood) >= maxNU {
				rep.Dropped++
				continue
			}
			rep.NotUnderstood = append(rep.NotUnderstood, Line{Number: rep.Lines, Text: text, Kind: NotUnderstood,
				What: "a line that speaks of a failure in a form this version does not read: not explained"})
		}
	}
	rep.LinesTruncated = lr.truncated
	return rep, nil
}

func looksLikeFailure(s string) bool {
	low := strings.ToLower(s)
	for _, w := range failureWords {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

type explainer struct {
	opt    Options
	ctx    context.Context
	chains map[string][]string // by lower-cased package
}

// chain asks Options.Chain once per package.
func (e *explainer) chain(pkg string) []string {
	k := strings.ToLower(pkg)
	c, ok := e.chains[k]
	if !ok {
		c = e.opt.Chain(pkg)
		e.chains[k] = c
	}
	return c
}

// line explains one line; false when it is none of the known kinds.
func (e *explainer) line(n int, text string) (Line, bool) {
	l := Line{Number: n, Text: text}
	re := logPatterns()
	switch {
	case re.uses.MatchString(text):
		m := re.uses.FindStringSubmatch(text)
		l.Kind, l.GUID, l.Package = PackageMap, strings.ToUpper(m[1]), m[2]
		l.Gen, _ = strconv.Atoi(m[3])
		e.packageMap(&l)
	case re.serverPackage.MatchString(text):
		l.Kind, l.Package = ServerPackage, re.serverPackage.FindStringSubmatch(text)[1]
		e.serverPackage(&l)
	case re.alreadyLoaded.MatchString(text):
		m := re.alreadyLoaded.FindStringSubmatch(text)
		l.Kind, l.Package, l.GUID = AlreadyLoaded, pkgOfFile(m[1]), strings.ToUpper(m[3])
		l.Problem = true
		l.What = fmt.Sprintf("the client had %s loaded with GUID %s, and the server's package map asks for GUID %s", m[1], strings.ToUpper(m[2]), l.GUID)
		l.Why = "a package of that name was loaded earlier in this session (another server, the menus, a map preview) or found first in the client's System folder"
		l.Fix = fmt.Sprintf("restart the game and connect again; if it repeats, the client's installed %s is another version: %s", l.Package, e.deleteAdvice(l.Package, l.GUID))
	case re.mismatch.MatchString(text):
		l.Kind, l.Package = VersionMismatch, re.mismatch.FindStringSubmatch(text)[1]
		l.Problem = true
		e.mismatch(&l)
	case re.failedImport.MatchString(text):
		m := re.failedImport.FindStringSubmatch(text)
		l.Kind, l.Class = FailedImport, m[2]
		l.Package, l.Object = splitPath(m[3])
		l.Problem = true
		e.failedImport(&l, m[4], m[5])
	case re.findObject.MatchString(text):
		m := re.findObject.FindStringSubmatch(text)
		l.Kind, l.Class = MissingObject, m[1]
		l.Package, l.Object = splitPath(m[2])
		l.Problem = true
		e.missingObject(&l)
	case re.cantFindPkg.MatchString(text):
		l.Kind, l.Package = CantFind, re.cantFindPkg.FindStringSubmatch(text)[1]
		if m := re.loadObject.FindStringSubmatch(text); m != nil {
			l.Class = m[1]
			_, l.Object = splitPath(m[2])
		}
		l.Problem = true
		e.cantFind(&l)
	case re.cantFindFile.MatchString(text):
		m := re.cantFindFile.FindStringSubmatch(text)
		l.Kind, l.Package = CantFind, m[2]
		l.Problem = true
		e.cantFind(&l)
	default:
		return l, false
	}
	return l, true
}

// splitPath splits "Pkg.Group.Name" into the package and the rest.
func splitPath(p string) (string, string) {
	pkg, rest, _ := strings.Cut(p, ".")
	return pkg, rest
}

// pkgOfFile is the package name of a file name ("NWCoreVIII.u").
func pkgOfFile(f string) string {
	f = f[strings.LastIndexAny(f, `/\`)+1:]
	if i := strings.IndexByte(f, '.'); i > 0 {
		return f[:i]
	}
	return f
}
