package report

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"html/template"
	"io"
	"strings"
	"sync"
)

//go:embed assets/page.html assets/app.js assets/style.css assets/vendor/*.js
var assets embed.FS

// scriptFiles are the page's scripts, in the order they run: the vendored
// libraries (assets/vendor, written by scripts/vendor-js.sh: dagre lays out
// the graphs, d3-hierarchy the treemap), then the page's own.
var scriptFiles = []string{"vendor/dagre.min.js", "vendor/d3-hierarchy.min.js", "app.js"}

// page is the parsed template with its scripts and style, read on the
// first page written (a command that writes none pays nothing).
var page = sync.OnceValue(func() pageAssets {
	return loadPage(assets, "page", "page.html", scriptFiles, "style.css")
})

// pageAssets are a page's parsed template, its scripts in the order they
// run, its style, and the Content-Security-Policy that lets exactly those
// run.
type pageAssets struct {
	tmpl    *template.Template
	scripts []template.JS
	css     template.CSS
	csp     string
}

// loadPage reads a page's template, scripts and style from the assets/
// folder of fsys (embedded: a read cannot fail) and makes its policy: only
// the page's own scripts and style run, and nothing is fetched (no
// connect, image, font, frame or form target).
func loadPage(fsys embed.FS, name, html string, scripts []string, css string) pageAssets {
	read := func(name string) string {
		b, err := fsys.ReadFile("assets/" + name)
		if err != nil {
			panic(err) // embedded: cannot happen
		}
		return string(b)
	}
	p := pageAssets{tmpl: template.Must(template.New(name).Parse(read(html)))}
	var hashes []string
	for _, f := range scripts {
		js := read(f)
		p.scripts = append(p.scripts, template.JS(js))
		hashes = append(hashes, cspHash(js))
	}
	style := read(css)
	p.css = template.CSS(style)
	p.csp = "default-src 'none'; script-src " + strings.Join(hashes, " ") + "; style-src " + cspHash(style) +
		"; img-src data:; base-uri 'none'; form-action 'none'"
	return p
}

// cspHash is the Content-Security-Policy source that lets the script or
// style s run.
func cspHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// CSP is the page's Content-Security-Policy.
func CSP() string { return page().csp }

// Write renders the page of d to w.
func Write(w io.Writer, d *Data, title string) error {
	return page().tmpl.Execute(w, struct {
		Title   string
		CSP     string
		CSS     template.CSS
		Scripts []template.JS
		Data    *Data
	}{title, page().csp, page().css, page().scripts, d})
}
