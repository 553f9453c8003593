package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/demo"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

// One headless Chromium serves every browser test of the package: starting
// it costs more than the tests themselves.
var browser struct {
	once   sync.Once
	ctx    context.Context
	cancel func()
	err    error
}

// findBrowser returns a Chromium or Chrome binary ($UPKDEPS_CHROME first).
func findBrowser() string {
	if p := os.Getenv("UPKDEPS_CHROME"); p != "" {
		return p
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// closeBrowser ends the shared browser, if one was started (TestMain).
func closeBrowser() {
	if browser.cancel != nil {
		browser.cancel()
	}
}

// tab is one page of the shared browser with what it logged.
type tab struct {
	ctx      context.Context
	mu       sync.Mutex
	problems []string // console errors, exceptions, requests leaving the file
}

func (tb *tab) add(s string) {
	tb.mu.Lock()
	tb.problems = append(tb.problems, s)
	tb.mu.Unlock()
}

// newTab opens a tab of the shared headless browser, skipping the test when
// there is none (.ci/run installs Debian's chromium).
func newTab(t testing.TB) *tab {
	t.Helper()
	if os.Getenv("UPKDEPS_NO_BROWSER") != "" {
		t.Skip("UPKDEPS_NO_BROWSER is set (no browser could be installed): browser test SKIPPED")
	}
	bin := findBrowser()
	if bin == "" {
		t.Skip("no Chromium found (install Debian's chromium package, or set UPKDEPS_CHROME): browser test SKIPPED")
	}
	browser.once.Do(func() {
		opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox,
			chromedp.WindowSize(1200, 900), chromedp.Flag("allow-file-access-from-files", true))
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancel := chromedp.NewContext(alloc)
		browser.ctx, browser.cancel = ctx, func() { cancel(); cancelAlloc() }
		browser.err = chromedp.Run(ctx)
	})
	if browser.err != nil {
		t.Fatalf("starting %s: %v", bin, browser.err)
	}
	// No deadline on the tab itself: a loaded 2-core machine running the
	// race detector once took over a minute for the whole test (a 60 s tab
	// deadline failed half the runs). Each step gets stepTimeout instead.
	ctx, cancel := chromedp.NewContext(browser.ctx)
	t.Cleanup(cancel)
	tb := &tab{ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeWarning {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, string(a.Value))
				}
				tb.add("console " + string(ev.Type) + ": " + strings.Join(parts, " "))
			}
		case *runtime.EventExceptionThrown:
			tb.add("exception: " + ev.ExceptionDetails.Error())
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.LevelError || ev.Entry.Level == log.LevelWarning {
				tb.add("log " + string(ev.Entry.Level) + ": " + ev.Entry.Text)
			}
		case *network.EventRequestWillBeSent:
			if u := ev.Request.URL; !strings.HasPrefix(u, "file:") && !strings.HasPrefix(u, "data:") {
				tb.add("request: " + u)
			}
		}
	})
	if err := chromedp.Run(ctx, network.Enable(), log.Enable()); err != nil {
		t.Fatal(err)
	}
	return tb
}

// stepTimeout bounds one browser step (a navigation, a click and its wait):
// generous, so that only a step that will never finish fails, and well
// inside go test's own 10-minute limit so the failure names the step.
const stepTimeout = 3 * time.Minute

// do runs actions in the tab within stepTimeout. The first call on a tab
// creates its target, and must use the tab's own context: a derived one
// would close the tab when it ends (newTab makes that first call).
func (tb *tab) do(actions ...chromedp.Action) error {
	ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
	defer cancel()
	return chromedp.Run(ctx, actions...)
}

// open loads a page file and waits until its script has drawn it.
func (tb *tab) open(t testing.TB, file, fragment string) {
	t.Helper()
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.do(chromedp.Navigate("file://"+abs+fragment),
		chromedp.WaitVisible(`html[data-ready]`, chromedp.ByQuery)); err != nil {
		t.Fatalf("loading %s: %v (problems: %v)", file, err, tb.problems)
	}
}

// clean fails the test for every console error, exception or request.
func (tb *tab) clean(t testing.TB) {
	t.Helper()
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, p := range tb.problems {
		t.Error(p)
	}
}

func (tb *tab) run(t testing.TB, what string, actions ...chromedp.Action) {
	t.Helper()
	if err := tb.do(actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func (tb *tab) text(t testing.TB, sel string) string {
	t.Helper()
	var s string
	tb.run(t, "text of "+sel, chromedp.Text(sel, &s, chromedp.ByQuery))
	return strings.TrimSpace(s)
}

// TestReportInBrowser opens the demo's report in headless Chromium: the
// summary has check --json's counts, searching opens a package, clicking a
// neighbour moves there and Back returns, a filter narrows the findings,
// and nothing logs an error or leaves the file.
func TestReportInBrowser(t *testing.T) {
	chdirDemo(t)
	tb := newTab(t)
	if _, errOut, code := runCLI(t, "report", "--ini", demo.Ini, "-o", "report.html"); code == exitError {
		t.Fatalf("report: %s", errOut)
	}
	out, _, _ := runCLI(t, "check", "--ini", demo.Ini, "--json")
	var rep check.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	tb.open(t, "report.html", "")

	for sel, want := range map[string]int{"#sum-errors": rep.Summary.Errors, "#sum-warnings": rep.Summary.Warnings, "#sum-scanned": rep.PackagesScanned} {
		if have := tb.text(t, sel); have != strconv.Itoa(want) {
			t.Errorf("summary %s: %q, want %d", sel, have, want)
		}
	}
	for k, n := range rep.Summary.ByKind {
		if have := tb.text(t, fmt.Sprintf(`tr[data-kind=%q] td.by-kind`, k)); have != strconv.Itoa(n) {
			t.Errorf("summary %s: %q, want %d", k, have, n)
		}
	}
	if shotDir := os.Getenv("UPKDEPS_SCREENSHOT_DIR"); shotDir != "" || testing.Verbose() {
		screenshot(t, tb, shotDir)
	}

	// Search (any case) and Enter open the package.
	tb.run(t, "search", chromedp.Navigate(tb.url(t)+"#/packages"), chromedp.WaitVisible(`#pkg-search`, chromedp.ByQuery),
		chromedp.SendKeys(`#pkg-search`, "demoweapons\n", chromedp.ByQuery),
		chromedp.WaitVisible(`#package[data-package="DemoWeapons"]`, chromedp.ByQuery))
	// A neighbour in the diagram moves there; Back comes back.
	tb.run(t, "click a neighbour", chromedp.Click(`#nb-svg a[data-name="DemoSnd"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#package[data-package="DemoSnd"]`, chromedp.ByQuery))
	tb.run(t, "back", chromedp.NavigateBack(), chromedp.WaitVisible(`#package[data-package="DemoWeapons"]`, chromedp.ByQuery))
	// The keyboard reaches a node and Enter follows it.
	tb.run(t, "keyboard", chromedp.Focus(`#nb-svg a[data-name="DemoSnd"]`, chromedp.ByQuery), chromedp.KeyEvent("\r"),
		chromedp.WaitVisible(`#package[data-package="DemoSnd"]`, chromedp.ByQuery), chromedp.NavigateBack(),
		chromedp.WaitVisible(`#package[data-package="DemoWeapons"]`, chromedp.ByQuery))
	// Dark mode changes the colours; print hides the navigation.
	background := func() string {
		var bg string
		tb.run(t, "background", chromedp.Evaluate(`getComputedStyle(document.body).backgroundColor`, &bg))
		return bg
	}
	light := background()
	tb.run(t, "dark", emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}))
	if dark := background(); dark == light {
		t.Errorf("dark mode: background %s, as in light mode", dark)
	}
	var navShown bool
	tb.run(t, "print", emulation.SetEmulatedMedia().WithMedia("print"),
		chromedp.Evaluate(`getComputedStyle(document.querySelector('nav')).display !== 'none'`, &navShown),
		emulation.SetEmulatedMedia())
	if navShown {
		t.Error("print: the navigation is shown")
	}
	// Two hops and the hubs shown: the hub node becomes Core and Engine.
	// Each click changes the fragment and the page is drawn again after
	// hashchange: wait for what only the new drawing has (the switch marked
	// current), or the next click finds a node that is then replaced
	// ("Could not find node with given id", a CI failure under load).
	tb.run(t, "2 hops", chromedp.Click(`//a[text()="2 hops"]`, chromedp.BySearch),
		chromedp.WaitVisible(`//span[@aria-label="hops"]/a[@aria-current="true" and text()="2 hops"]`, chromedp.BySearch),
		chromedp.WaitVisible(`#nb-svg`, chromedp.ByQuery))
	tb.run(t, "hubs shown", chromedp.Click(`//span[@aria-label="hubs"]/a[text()="shown"]`, chromedp.BySearch),
		chromedp.WaitVisible(`#nb-svg a[data-name="Engine"]`, chromedp.ByQuery))

	// The filters narrow the findings table.
	rows := func() int {
		var n int
		tb.run(t, "count rows", chromedp.Evaluate(`document.querySelectorAll('#findings tr.finding').length`, &n))
		return n
	}
	tb.run(t, "findings", chromedp.Navigate(tb.url(t)+"#/findings"), chromedp.WaitVisible(`#findings`, chromedp.ByQuery))
	if n := rows(); n != len(rep.Findings) {
		t.Errorf("findings table: %d rows, want %d", n, len(rep.Findings))
	}
	tb.run(t, "filter text", chromedp.SendKeys(`#f-text`, "serveradmin", chromedp.ByQuery))
	if n := rows(); n == 0 || n >= len(rep.Findings) {
		t.Errorf("text filter: %d rows of %d", n, len(rep.Findings))
	}
	tb.run(t, "filter kind", chromedp.Evaluate(`(function () {
		var t = document.getElementById('f-text'), k = document.getElementById('f-kind');
		t.value = ''; t.dispatchEvent(new Event('input'));
		k.value = 'cycle'; k.dispatchEvent(new Event('change'));
	})()`, nil))
	if n := rows(); n != rep.Summary.ByKind["cycle"] {
		t.Errorf("kind filter: %d rows, want %d cycles", n, rep.Summary.ByKind["cycle"])
	}
	tb.run(t, "open a finding", chromedp.Click(`#findings tr.finding button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#findings tr.detail .evidence`, chromedp.ByQuery))
	for _, view := range []string{"#/cycles", "#/order"} {
		tb.run(t, view, chromedp.Navigate(tb.url(t)+view), chromedp.WaitVisible(`body[data-view="`+view[2:]+`"]`, chromedp.ByQuery))
	}
	// The demo's EditPackages have a cycle: no order is suggested.
	if have := tb.text(t, "#order-current"); !strings.Contains(have, "DemoBase") {
		t.Errorf("current order: %q", have)
	}
	// The page says what order says: its verdict and the checked count.
	if have := tb.text(t, "#order-valid"); have != "The order is NOT valid." {
		t.Errorf("order validity: %q", have)
	}
	if have := tb.text(t, "#order-checked"); have != "Checked 7 of 7 entries." { // as order-demo.txt
		t.Errorf("checked count: %q", have)
	}
	tb.clean(t)
}

// url is the page's address without its fragment.
func (tb *tab) url(t testing.TB) string {
	var u string
	tb.run(t, "location", chromedp.Location(&u))
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u = u[:i]
	}
	return u
}

// screenshot writes a package view, the summary and a finding's drawn
// why-chain of the demo report as report-demo.png, report-demo-summary.png
// and report-chain.png into dir (default: the test's own temporary folder)
// for a person to look at; the README's copies in docs/ come from
// UPKDEPS_SCREENSHOT_DIR=$PWD/docs go test -run TestReportInBrowser ./cmd/upkdeps.
func screenshot(t testing.TB, tb *tab, dir string) {
	if dir == "" {
		dir = t.TempDir()
	}
	// The chain: DemoExtras's missing_package finding opened.
	openChain := chromedp.Evaluate(`(function () {
		var tr = Array.from(document.querySelectorAll('#findings tr.finding')).find(function (tr) { return /DemoExtras has sources/.test(tr.textContent); });
		if (tr) { tr.querySelector('button').click(); tr.scrollIntoView(); }
	})()`, nil)
	for _, shot := range []struct {
		name, frag string
		then       chromedp.Action
	}{
		{"report-demo.png", "#/pkg/DemoGame?d=2", chromedp.WaitVisible(`main section`, chromedp.ByQuery)},
		{"report-demo-summary.png", "#/summary", chromedp.WaitVisible(`main section`, chromedp.ByQuery)},
		{"report-chain.png", "#/findings?kind=missing_package", chromedp.Tasks{chromedp.WaitVisible(`#findings`, chromedp.ByQuery), openChain,
			chromedp.WaitVisible(`#findings svg.chain-svg`, chromedp.ByQuery)}},
	} {
		name := shot.name
		var png []byte
		// A tab in the background draws no frame to capture: the capture
		// waited for one for minutes (the shared browser has other tabs).
		tb.run(t, "screenshot", page.BringToFront(), chromedp.EmulateViewport(960, 600), chromedp.Navigate(tb.url(t)+shot.frag),
			shot.then, chromedp.CaptureScreenshot(&png))
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", path)
	}
}

// TestReportHostileNamesInBrowser opens the page of an install whose
// package names are markup and script: nothing runs, the names show as
// text.
func TestReportHostileNamesInBrowser(t *testing.T) {
	ini := writeHostileInstall(t)
	tb := newTab(t)
	page := filepath.Join(t.TempDir(), "hostile.html")
	if _, errOut, code := runCLI(t, "report", "--ini", ini, "-o", page); code == exitError {
		t.Fatalf("report: %s", errOut)
	}
	tb.open(t, page, "#/pkg/DM-Hostile?d=2&hubs=1")
	check := func(where string) {
		var pwned bool
		var scripts, imgs int
		tb.run(t, "probe", chromedp.Evaluate(`'pwned' in window`, &pwned),
			chromedp.Evaluate(`document.scripts.length`, &scripts),
			chromedp.Evaluate(`document.images.length`, &imgs))
		if pwned || scripts != 4 || imgs != 0 { // the data, dagre, d3-hierarchy and the page's
			t.Errorf("%s: pwned %v, %d scripts (want 4), %d images (want 0)", where, pwned, scripts, imgs)
		}
	}
	check("map")
	for _, n := range hostileNames {
		// The previous name's view also has #package: wait until the
		// hashchange has drawn this one (or give up and say what is shown).
		js, _ := json.Marshal(n)
		err := tb.do(chromedp.Navigate(tb.url(t)+"#/pkg/"+escapeFragment(n)),
			chromedp.Poll(`(function () { var p = document.getElementById('package'); return !!p && p.dataset.package === `+string(js)+`; })()`,
				nil, chromedp.WithPollingTimeout(time.Minute)))
		var have string
		tb.run(t, "name", chromedp.Evaluate(`document.getElementById('package').dataset.package`, &have))
		if err != nil {
			t.Logf("open %q: %v", n, err)
		}
		if have != n {
			t.Errorf("package view of %q shows %q", n, have)
		}
		check(n)
	}
	tb.run(t, "findings", chromedp.Navigate(tb.url(t)+"#/findings"), chromedp.WaitVisible(`#findings`, chromedp.ByQuery))
	tb.run(t, "open all", chromedp.Evaluate(`document.querySelectorAll('#findings button').forEach(function(b){b.click()})`, nil))
	check("findings")
	tb.clean(t)
}

// escapeFragment percent-encodes a name as the page's links do
// (encodeURIComponent).
func escapeFragment(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// corpusInstalls are the real installs of ../shared/corpus whose report
// the tests open.
var corpusInstalls = []string{"adrak0__ut99/System/UnrealTournament.ini", "nrempel__ut-server/System/UnrealTournament.ini"}

// TestReportCorpusInBrowser opens the reports of real UT99 installs: they
// load clean, their summary has check's counts and a package with its
// two-hop neighbourhood draws.
func TestReportCorpusInBrowser(t *testing.T) {
	for _, rel := range corpusInstalls {
		t.Run(strings.Split(rel, "/")[0], func(t *testing.T) {
			ini := testutil.CorpusFile(t, rel)
			tb := newTab(t)
			page := filepath.Join(t.TempDir(), "corpus.html")
			if _, errOut, code := runCLI(t, "report", "--ini", ini, "-o", page); code == exitError {
				t.Fatalf("report: %s", errOut)
			}
			out, _, _ := runCLI(t, "check", "--ini", ini, "--json")
			var rep check.Report
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			tb.open(t, page, "")
			if have := tb.text(t, "#sum-errors"); have != strconv.Itoa(rep.Summary.Errors) {
				t.Errorf("errors: %q, want %d", have, rep.Summary.Errors)
			}
			tb.run(t, "Botpack", chromedp.Navigate(tb.url(t)+"#/pkg/botpack?d=2"),
				chromedp.WaitVisible(`#package[data-package="Botpack"] #nb-svg`, chromedp.ByQuery))
			tb.run(t, "findings", chromedp.Navigate(tb.url(t)+"#/findings"), chromedp.WaitVisible(`#findings`, chromedp.ByQuery))
			tb.clean(t)
		})
	}
}

// writeHubInstall writes an install of n maps that all import Hub (a hub
// by its importers) and Engine, and one missing package.
func writeHubInstall(t testing.TB, n int) string {
	t.Helper()
	dir := t.TempDir()
	for _, sub := range []string{"System", "Maps"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ini := "[Core.System]\nPaths=../System/*.u\nPaths=../Maps/*.unr\n"
	if err := os.WriteFile(filepath.Join(dir, "System", "Hub.ini"), []byte(ini), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Core", "Engine", "Hub"} {
		b := format.NewBuilder(69, 0)
		for j := range 5 {
			b.Export(0, "Thing"+strconv.Itoa(j), 0, 0, 100)
		}
		if err := format.WriteFile(filepath.Join(dir, "System", name+".u"), b.File); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		b := format.NewBuilder(69, 0)
		for j := range 5 {
			b.ImportPath("Hub.Thing"+strconv.Itoa(j), "Core", "Class")
		}
		b.ImportPath("Engine.Thing0", "Core", "Class")
		if i == 0 {
			b.ImportPath("Gone.Thing", "Core", "Class")
		}
		b.Export(0, "LevelInfo0", 0, 0, 10)
		if err := format.WriteFile(filepath.Join(dir, "Maps", fmt.Sprintf("DM-Map%03d.unr", i)), b.File); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "System", "Hub.ini")
}

// TestReportHubsInBrowser: on a generated install with a hub, the hub is
// one collapsed node until clicked, a long column ends in a "more" node
// that opens, and a capped import says how many objects it leaves out.
func TestReportHubsInBrowser(t *testing.T) {
	ini := writeHubInstall(t, 150)
	tb := newTab(t)
	page := filepath.Join(t.TempDir(), "hub.html")
	if _, errOut, code := runCLI(t, "report", "--ini", ini, "-o", page, "--max-objects", "450"); code == exitError {
		t.Fatalf("report: %s", errOut)
	}
	out, _, _ := runCLI(t, "check", "--ini", ini, "--json")
	var rep check.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	tb.open(t, page, "#/pkg/DM-Map000")
	count := func(sel string) int {
		var n int
		tb.run(t, "count "+sel, chromedp.Evaluate(`document.querySelectorAll('`+sel+`').length`, &n))
		return n
	}
	// Hub and Engine are hubs: one collapsed node; Gone is drawn missing.
	if n := count(`#nb-svg a.node.collapsed`); n != 1 {
		t.Errorf("DM-Map000: %d collapsed nodes, want 1", n)
	}
	if n := count(`#nb-svg a.node.kind-missing[data-name="Gone"]`); n != 1 {
		t.Errorf("DM-Map000: missing Gone drawn %d times", n)
	}
	tb.run(t, "open the hubs", chromedp.Click(`#nb-svg a.node.collapsed`, chromedp.ByQuery),
		chromedp.WaitVisible(`#nb-svg a[data-name="Hub"]`, chromedp.ByQuery))
	tb.run(t, "go to the hub", chromedp.Click(`#nb-svg a[data-name="Hub"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#package[data-package="Hub"]`, chromedp.ByQuery))
	// 150 importers: 25 drawn and "+125 more", which opens.
	var have string
	tb.run(t, "more node", chromedp.Evaluate(`document.querySelector('#nb-svg a.node.collapsed text').textContent`, &have))
	if have != "+125 more" {
		t.Errorf("Hub's importers: collapsed node %q, want +125 more", have)
	}
	tb.run(t, "more", chromedp.Click(`#nb-svg a.node.collapsed`, chromedp.ByQuery),
		chromedp.WaitVisible(`#nb-svg a[data-name="DM-Map149"]`, chromedp.ByQuery))
	if n := count(`#nb-svg a.node`); n != 151 {
		t.Errorf("all of Hub's importers: %d nodes, want 151", n)
	}
	// 450 object names for 150×5 + 150 + 1 imported objects: one per
	// import (301), and one more for each of the first 149 imports with more,
	// DM-Map000 -> Hub among them: 2 of its 5.
	tb.run(t, "objects", chromedp.Click(`//caption[starts-with(text(),"Imported by")]/..//summary`, chromedp.BySearch),
		chromedp.WaitVisible(`//caption[starts-with(text(),"Imported by")]/..//details/p`, chromedp.BySearch))
	if have := tb.text(t, `table.edges details p`); !strings.HasPrefix(have, "and 3 more") {
		t.Errorf("capped objects: %q", have)
	}
	// The page's JSON holds name indexes; the list shows the names.
	if have := tb.text(t, `table.edges details li`); !regexp.MustCompile(`^\S+ \(\w+\.\w+\)$`).MatchString(have) {
		t.Errorf("an imported object reads %q, want Path (ClassPackage.Class)", have)
	}
	tb.run(t, "summary", chromedp.Navigate(tb.url(t)+"#/summary"), chromedp.WaitVisible(`#sum-errors`, chromedp.ByQuery))
	if have := tb.text(t, "#sum-errors"); have != strconv.Itoa(rep.Summary.Errors) {
		t.Errorf("errors: %q, want %d", have, rep.Summary.Errors)
	}
	if have, want := tb.text(t, "#most-needed li"), rep.MostNeeded(1); len(want) != 1 || have != want[0].String() {
		t.Errorf("most needed: %q, want %v", have, want)
	}
	tb.clean(t)
}

// BenchmarkReportInBrowser measures the page of a large install in
// headless Chromium: its size and the time from navigation until the
// script has drawn the summary (ready-ms), then a hub's package view with
// two hops and the findings table. The install is the generated one of
// graph's BenchmarkCheck, kept in $UPKDEPS_BENCH_DIR:
//
//	UPKDEPS_BENCH_DIR=/tmp/bench go test -run '^$' -bench BenchmarkOpenAll -benchtime 1x ./graph
//	UPKDEPS_BENCH_DIR=/tmp/bench go test -run '^$' -bench ReportInBrowser ./cmd/upkdeps
func BenchmarkReportInBrowser(b *testing.B) {
	dir := os.Getenv("UPKDEPS_BENCH_DIR")
	if dir == "" {
		b.Skip("set UPKDEPS_BENCH_DIR to a generated install (see the comment)")
	}
	page := filepath.Join(b.TempDir(), "bench.html")
	var errOut strings.Builder
	args := []string{"report", "--no-progress", "--ini", filepath.Join(dir, "System", "Bench.ini"), "-o", page}
	if code := run(context.Background(), args, strings.NewReader(""), io.Discard, &errOut); code == exitError {
		b.Fatalf("report: %s", errOut.String())
	}
	fi, err := os.Stat(page)
	if err != nil {
		b.Fatal(err)
	}
	var ready, hub, table float64
	for b.Loop() {
		tb := newTab(b)
		tb.open(b, page, "")
		var ms string
		tb.run(b, "ready", chromedp.AttributeValue(`html`, "data-ready", &ms, nil, chromedp.ByQuery))
		v, _ := strconv.ParseFloat(ms, 64)
		ready += v
		var d float64
		tb.run(b, "hub view", chromedp.Evaluate(`(function () { var t = performance.now(); location.hash = '#/pkg/Engine?d=2'; window.dispatchEvent(new HashChangeEvent('hashchange')); return performance.now() - t; })()`, &d),
			chromedp.WaitVisible(`#package[data-package="Engine"] #nb-svg`, chromedp.ByQuery))
		hub += d
		tb.run(b, "findings", chromedp.Evaluate(`(function () { var t = performance.now(); location.hash = '#/findings'; window.dispatchEvent(new HashChangeEvent('hashchange')); return performance.now() - t; })()`, &d),
			chromedp.WaitVisible(`#findings`, chromedp.ByQuery))
		table += d
		tb.clean(b)
	}
	n := float64(b.N)
	b.ReportMetric(float64(fi.Size())/(1<<20), "MB")
	b.ReportMetric(ready/n, "ready-ms")
	b.ReportMetric(hub/n, "hub-view-ms")
	b.ReportMetric(table/n, "findings-ms")
}

// TestReportIndexInBrowser: with --index, a missing package's finding
// shows the copies the index knows.
func TestReportIndexInBrowser(t *testing.T) {
	tb := newTab(t)
	page := filepath.Join(t.TempDir(), "index.html")
	indexedReport(t, page)
	tb.open(t, page, "#/findings?kind=missing_package")
	tb.run(t, "open", chromedp.Click(`#findings tr.finding button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#findings tr.detail ul.candidates`, chromedp.ByQuery))
	if have := tb.text(t, `#findings tr.detail ul.candidates`); !strings.Contains(have, "copy(ies)") {
		t.Errorf("candidates: %q", have)
	}
	tb.run(t, "summary", chromedp.Navigate(tb.url(t)+"#/summary"), chromedp.WaitVisible(`#sum-index`, chromedp.ByQuery))
	tb.clean(t)
}

// TestReportArchiveInBrowser: with an index holding the Unreal Archive's
// metadata, a missing package's finding shows the archive's version and
// its download as text; the page requests nothing.
func TestReportArchiveInBrowser(t *testing.T) {
	tb := newTab(t)
	meta := t.TempDir()
	yml := filepath.Join(meta, "content", "Unreal Tournament", "MapPacks", "tech.yml")
	if err := os.MkdirAll(filepath.Dir(yml), 0o755); err != nil {
		t.Fatal(err)
	}
	item := `--- !<MAP_PACK>
contentType: "MAP_PACK"
game: "Unreal Tournament"
name: "Tech <b>Pack</b>"
originalFilename: "tech.zip"
hash: "` + strings.Repeat("1", 40) + `"
fileSize: 100
files:
- name: "SGTech1.utx"
  fileSize: 10
  hash: "` + strings.Repeat("2", 40) + `"
downloads:
- url: "https://example.invalid/tech.zip"
  direct: true
  state: "OK"
deleted: false
`
	if err := os.WriteFile(yml, []byte(item), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "index.db")
	if _, errOut, code := runCLI(t, "index", "add", "--index", db, "--unreal-archive", meta); code != exitOK {
		t.Fatalf("index add: %s", errOut)
	}
	page := filepath.Join(t.TempDir(), "archive.html")
	if _, errOut, code := runCLI(t, "report", "--index", db, "--ini", planInstall(t), "--game", "ut99", "-o", page); code == exitError {
		t.Fatalf("report: %s", errOut)
	}
	tb.open(t, page, "#/findings?kind=missing_package&q=SGTech1")
	tb.run(t, "open", chromedp.Click(`#findings tr.finding button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#findings tr.detail ul.candidates`, chromedp.ByQuery))
	have := tb.text(t, `#findings tr.detail ul.candidates`)
	for _, want := range []string{"Unreal Archive: SGTech1.utx", "in Tech <b>Pack</b>", "download https://example.invalid/tech.zip"} {
		if !strings.Contains(have, want) {
			t.Errorf("candidates lack %q: %q", want, have)
		}
	}
	tb.clean(t)
}

// TestReportRoutesInBrowser: routes named like Object.prototype's members
// (#/constructor, #/__proto__, #/toString) and parameters named so show
// the summary without an error (they showed an empty page and a
// TypeError).
func TestReportRoutesInBrowser(t *testing.T) {
	chdirDemo(t)
	tb := newTab(t)
	page := filepath.Join(t.TempDir(), "demo.html")
	if _, errOut, code := runCLI(t, "report", "--ini", demo.Ini, "-o", page); code == exitError {
		t.Fatalf("report: %s", errOut)
	}
	tb.open(t, page, "#/summary")
	for _, route := range []string{"#/constructor", "#/__proto__", "#/toString", "#/hasOwnProperty", "#/valueOf/x", "#/findings?__proto__=1&constructor=2"} {
		want := "summary"
		if strings.HasPrefix(route, "#/findings") {
			want = "findings"
		}
		// From another view, so that the route's drawing is seen: a
		// TypeError leaves data-view as it was and the poll times out.
		tb.run(t, "packages", chromedp.Evaluate(`location.hash = '#/packages'`, nil),
			chromedp.Poll(`document.body.getAttribute('data-view') === 'packages'`, nil, chromedp.WithPollingTimeout(10*time.Second)))
		var view string
		var children int
		err := tb.do(chromedp.Evaluate(`location.hash = `+strconv.Quote(route), nil),
			chromedp.Poll(`document.body.getAttribute('data-view') === `+strconv.Quote(want), nil, chromedp.WithPollingTimeout(10*time.Second)))
		tb.run(t, "view", chromedp.Evaluate(`document.body.getAttribute('data-view')`, &view),
			chromedp.Evaluate(`document.querySelector('main').children.length`, &children))
		if err != nil {
			t.Errorf("%s: %v", route, err)
		}
		if view != want || children == 0 {
			t.Errorf("%s: view %q with %d elements, want %s drawn", route, view, children, want)
		}
	}
	tb.clean(t)
}

// TestReportSummaryParity: the report's summary says what check's text
// says: how many packages are readable and how many are Git LFS pointers,
// and the "Fix first" list.
func TestReportSummaryParity(t *testing.T) {
	chdirDemo(t)
	ptr := "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 1260153\n"
	if err := os.WriteFile(filepath.Join("Textures", "LfsTex.utx"), []byte(ptr), 0o644); err != nil {
		t.Fatal(err)
	}
	tb := newTab(t)
	if _, errOut, code := runCLI(t, "report", "--ini", demo.Ini, "-o", "report.html"); code == exitError {
		t.Fatalf("report: %s", errOut)
	}
	out, _, _ := runCLI(t, "check", "--ini", demo.Ini, "--json")
	var rep check.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	text, _, _ := runCLI(t, "check", "--ini", demo.Ini)
	if rep.GitLFSPointers != 1 {
		t.Fatalf("git_lfs_pointers %d, want 1", rep.GitLFSPointers)
	}
	tb.open(t, "report.html", "")
	readable := tb.text(t, "#sum-readable")
	if want := fmt.Sprintf("%d of %d readable (1 Git LFS pointers: fetch the files with git lfs pull)", rep.PackagesReadable, rep.PackagesScanned); !strings.Contains(text, want) ||
		readable+" " != strings.Replace(want, "readable ", "", 1)+" " {
		t.Errorf("readable: report %q, check's text lacks or differs from %q:\n%s", readable, want, text)
	}
	if len(rep.Summary.FixFirst) == 0 {
		t.Fatal("the demo has no Fix first")
	}
	for i, r := range rep.Summary.FixFirst {
		have := tb.text(t, fmt.Sprintf("#fix-first li:nth-child(%d)", i+1))
		if want := fmt.Sprintf("%s %s: %s (%s)", strings.ToUpper(string(r.Severity)), r.Kind, r.Package, r.Why); have != want {
			t.Errorf("fix first %d: %q, want %q", i+1, have, want)
		}
		if want := fmt.Sprintf("%d. %s %s: %s (%s)", i+1, strings.ToUpper(string(r.Severity)), r.Kind, r.Package, r.Why); !strings.Contains(text, want) {
			t.Errorf("check's text lacks %q", want)
		}
	}
	tb.clean(t)
}
