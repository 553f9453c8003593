package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/index"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

// linkTree makes dst a copy of src whose files are hard links (copies where
// links fail): fix writes new files into it atomically and never replaces
// one, so the corpus files behind the links are never written.
func linkTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if de.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if err := os.Link(p, to); err == nil {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestIndexCorpus indexes the whole corpus, then asks check --index for
// adrak0__ut99's missing packages: each one any corpus folder has must get
// a candidate; fix on a linked copy of the install must bring them and make
// check drop those findings.
//
// Under the race detector, which makes the index's SQLite ten times slower
// (27 s for the whole corpus), it indexes the two UT99 server folders
// (UMenu's among them) and the mods folder: the same code paths on fewer
// files. The runs without it index the whole corpus.
func TestIndexCorpus(t *testing.T) {
	corpus := testutil.Corpus(t)
	sources, least := []string{corpus}, 200
	if raceEnabled {
		sources, least = nil, 20
		for _, dir := range []string{"nrempel__ut-server", "Roemer__ut99-server", "1337GameDev__Ut99Mods"} {
			sources = append(sources, filepath.Join(corpus, dir))
		}
	}
	db := filepath.Join(t.TempDir(), "index.db")
	out, errOut, code := runCLI(t, append([]string{"index", "add", "--index", db, "--no-progress", "--json"}, sources...)...)
	if code == exitError {
		t.Fatalf("index add: %s", errOut)
	}
	var added index.AddReport
	if err := json.Unmarshal([]byte(out), &added); err != nil {
		t.Fatal(err)
	}
	packages, errs := 0, 0
	for _, s := range added.Sources {
		packages += s.Source.Packages
		errs += s.Source.Errors
	}
	if len(added.Sources) != len(sources) || packages < least || errs > 2 {
		t.Errorf("corpus: %d sources, %d packages, %d errors", len(added.Sources), packages, errs)
	}
	out, _, _ = runCLI(t, append([]string{"index", "add", "--index", db, "--no-progress"}, sources...)...)
	if strings.Count(out, "read 0,") != len(sources) {
		t.Errorf("re-add read files again:\n%s", out)
	}

	game := filepath.Join(t.TempDir(), "adrak0")
	linkTree(t, filepath.Join(corpus, "adrak0__ut99"), game)
	ini := filepath.Join(game, "System", "UnrealTournament.ini")
	out, _, _ = runCLI(t, "check", "--ini", ini, "--index", db, "--json", "--no-progress")
	var rep check.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, c := range rep.Index.Candidates {
		if c.Kind != graph.MissingPackage {
			continue
		}
		fout, _, fcode := runCLI(t, "find", "--index", db, c.Package)
		inCorpus := fcode == exitOK
		if inCorpus != (len(c.Candidates) > 0) {
			t.Errorf("%s: %d candidates, find says %v:\n%s", c.Package, len(c.Candidates), inCorpus, fout)
		}
		if inCorpus {
			found[c.Package] = true
		}
	}
	if !found["UMenu"] {
		t.Errorf("UMenu (in nrempel__ut-server) has no candidate: %v", found)
	}
	out, _, _ = runCLI(t, "fix", "--ini", ini, "--index", db, "--dry-run", "--no-progress")
	if !strings.Contains(out, "planned  System/UMenu.u <- ") {
		t.Errorf("dry run:\n%s", out)
	}
	runCLI(t, "fix", "--ini", ini, "--index", db, "--no-progress")
	out, _, _ = runCLI(t, "check", "--ini", ini, "--json", "--no-progress")
	var after check.Report
	if err := json.Unmarshal([]byte(out), &after); err != nil {
		t.Fatal(err)
	}
	for _, f := range after.Findings {
		if f.Kind == graph.MissingPackage && found[f.Package] {
			t.Errorf("after fix, %s is still missing", f.Package)
		}
	}
	if st, err := os.Lstat(filepath.Join(corpus, "adrak0__ut99", "System", "UMenu.u")); err == nil {
		t.Fatalf("fix wrote into the corpus: %v", st.Name())
	}
}
