package report

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"html/template"
	"io"
)

//go:embed assets/page.html assets/app.js assets/style.css
var assets embed.FS

// page is the parsed template with its script and style, read once.
var page = func() struct {
	tmpl *template.Template
	js   template.JS
	css  template.CSS
	csp  string
} {
	read := func(name string) string {
		b, err := assets.ReadFile("assets/" + name)
		if err != nil {
			panic(err) // embedded: cannot happen
		}
		return string(b)
	}
	js, css := read("app.js"), read("style.css")
	hash := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	p := struct {
		tmpl *template.Template
		js   template.JS
		css  template.CSS
		csp  string
	}{
		tmpl: template.Must(template.New("page").Parse(read("page.html"))),
		js:   template.JS(js),
		css:  template.CSS(css),
		// Only the page's own script and style run, and nothing is
		// fetched: no connect, image, font, frame or form target.
		csp: "default-src 'none'; script-src " + hash(js) + "; style-src " + hash(css) +
			"; img-src data:; base-uri 'none'; form-action 'none'",
	}
	return p
}()

// CSP is the page's Content-Security-Policy.
func CSP() string { return page.csp }

// Write renders the page of d to w.
func Write(w io.Writer, d *Data, title string) error {
	return page.tmpl.Execute(w, struct {
		Title string
		CSP   string
		CSS   template.CSS
		JS    template.JS
		Data  *Data
	}{title, page.csp, page.css, page.js, d})
}
