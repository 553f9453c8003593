package livemap

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

// TestCorpusUT99Switch: on the corpus's UT99 469 server (adrak0__ut99) the
// ServerActors classes' parent chains are walked through the real IpServer,
// IpDrv and UWeb packages to the engine's classes: none sets
// bAddToPackageMap, nothing is added and nothing is left unchecked.
func TestCorpusUT99Switch(t *testing.T) {
	sys := filepath.Join(testutil.Corpus(t), "adrak0__ut99", "System")
	f, err := ini.Load(filepath.Join(sys, "UnrealTournament.ini"))
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	find := func(pkg string) string {
		asked = append(asked, strings.ToLower(pkg))
		p := filepath.Join(sys, pkg+".u")
		if _, err := os.Stat(p); err != nil {
			return ""
		}
		return p
	}
	m, err := Read(f, Options{Generation: 1, Find: find})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range m.Base {
		if e.From != FromIni {
			t.Errorf("entry %+v", e)
		}
	}
	if len(m.Notes) != 0 {
		t.Errorf("notes %q", m.Notes)
	}
	// IpServer.UdpServerQuery's parent is IpDrv's UdpLink: the walk left
	// IpServer.u for IpDrv.u, and stopped before Engine.
	for _, want := range []string{"ipserver", "ipdrv", "uweb"} {
		if !slices.Contains(asked, want) {
			t.Errorf("%s never looked up (asked %q)", want, asked)
		}
	}
	if slices.Contains(asked, "engine") || slices.Contains(asked, "core") {
		t.Errorf("the walk read the engine's packages: %q", asked)
	}
}

// TestCorpusKFSwitch: KFRedirectTool's RTDMut.u, a Killing Floor mutator:
// class RTDMut sets bAddToServerPackages=True itself; every other class
// either gets a value from its chain or names the parent package the
// corpus lacks (KFMod, XGame, ...), never RTDMut's own.
func TestCorpusKFSwitch(t *testing.T) {
	path := testutil.CorpusFile(t, filepath.Join("InsultingPros__KFRedirectTool", "test", "RTDMut.u"))
	d := defaults{prop: "bAddToServerPackages", files: map[string]*pkgView{}, find: func(pkg string) string {
		if strings.EqualFold(pkg, "RTDMut") {
			return path
		}
		return ""
	}}
	defer d.close()
	v, w, err := d.value("RTDMut", "RTDMut")
	if err != nil || !v || w.class != "RTDMut.RTDMut" || w.file != path {
		t.Fatalf("RTDMut.RTDMut: %v from %+v (%v)", v, w, err)
	}
	f, err := format.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var classes int
	for i := range f.Exports {
		e := &f.Exports[i]
		if !e.Class.IsNull() || !e.Outer.IsNull() {
			continue
		}
		classes++
		name := f.NameAt(e.ObjectName)
		if _, _, err := d.value("RTDMut", name); err != nil && (!strings.Contains(err.Error(), "is not found") || strings.Contains(err.Error(), "class RTDMut.")) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if classes < 10 {
		t.Errorf("only %d classes", classes)
	}
}

// TestCorpusMVES: Roemer__ut99-server's MVE_Config.ini, a running server's
// (MVES has written ClientPackage=MVE2h): the base is its client package,
// ClientLogoTexture's package SpaceFX, then the 13 MainServerPackages,
// each with its line; no note says a client package went uncounted.
func TestCorpusMVES(t *testing.T) {
	conf, err := os.ReadFile(testutil.CorpusFile(t, filepath.Join("Roemer__ut99-server", "files", "Configs", "MVE_Config.ini")))
	if err != nil {
		t.Fatal(err)
	}
	f := writeFiles(t, map[string]string{"Server.ini": gameIni, "MVE_Config.ini": string(conf)})
	m, err := Read(f, Options{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Managed || len(m.Base) != 15 {
		t.Fatalf("managed %v, base %q", m.Managed, names(m.Base))
	}
	want := []string{"MVE_Config.ini:6 ClientPackage=MVE2h", "MVE_Config.ini:7 ClientLogoTexture=SpaceFX.nebula3"}
	for i, w := range want {
		if got := m.Base[i].Source.String(); got != w {
			t.Errorf("base[%d] from %q, want %q", i, got, w)
		}
	}
	if m.Base[0].Package != "MVE2h" || m.Base[1].Package != "SpaceFX" || m.Base[2].Package != "SoldierSkins" || m.Base[14].Package != "De" || m.Base[14].Source.Line != 33 {
		t.Errorf("base %+v", m.Base)
	}
	for _, n := range m.Notes {
		if strings.Contains(n, "ClientPackage") || strings.Contains(n, "bResetServerPackages") {
			t.Errorf("note %q", n)
		}
	}
	if len(m.Presets) < 5 {
		t.Errorf("%d game types", len(m.Presets))
	}
}

// TestCorpusEngine469c: the corpus's UT99 469 Engine.u (adrak0__ut99)
// declares bAddToPackageMap, nrempel__ut-server's older one does not.
func TestCorpusEngine469c(t *testing.T) {
	for _, c := range []struct {
		dir  string
		want bool
	}{{"adrak0__ut99", true}, {"nrempel__ut-server", false}} {
		path := testutil.CorpusFile(t, filepath.Join(c.dir, "System", "Engine.u"))
		got, known := engineIs469c(func(string) string { return path })
		if !known || got != c.want {
			t.Errorf("%s: 469c %v (known %v), want %v", c.dir, got, known, c.want)
		}
	}
}
