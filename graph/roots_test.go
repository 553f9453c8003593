package graph

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/ini"
)

// fakeNatives is a Natives with per-package class lists; fromBinary lists
// the packages whose binary was read.
type fakeNatives struct {
	classes    map[string][]string
	fromBinary map[string]bool
}

func (n fakeNatives) Has(pkg, class string) bool {
	return slices.ContainsFunc(n.classes[strings.ToLower(pkg)], func(c string) bool { return strings.EqualFold(c, class) })
}
func (n fakeNatives) HasPackage(pkg string) bool { return n.classes[strings.ToLower(pkg)] != nil }
func (n fakeNatives) FromBinary(pkg string) bool { return n.fromBinary[strings.ToLower(pkg)] }

// TestIniRoots covers every kind of ini root: a package, a class, found,
// missing, found only ignoring case, a native class, a driver package that
// has a binary and no package file, and a client-only line.
func TestIniRoots(t *testing.T) {
	text := `[Engine.Engine]
GameEngine=Engine.GameEngine
NetworkDevice=IpDrv.TcpNetDriver
GameRenderDevice=OpenGLDrv.OpenGLRenderDevice
AudioDevice=Galaxy.GalaxyAudioSubsystem
Console=Menus.NoConsole
DefaultGame=Game.DM
DefaultServerGame=Game.CTF
[URL]
Class=game.Pawn1
[Engine.GameEngine]
ServerPackages=Game
ServerPackages=Gone
ServerActors=IpDrv.UdpBeacon
ServerActors=Stats.Uplink Port=7777
[UWeb.WebServer]
Applications[0]=Admin.WebAdmin
bEnabled=False
`
	f, err := ini.Parse("Server.ini", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeSpecs(t, dir, []pkgSpec{
		{file: "Engine.u", exports: []string{"Actor:Class"}},
		{file: "IpDrv.u", exports: []string{"UdpBeacon:Class"}},
		{file: "Game.u", exports: []string{"DM:Class", "Pawn1:Class", "CTF:Engine.Texture"}},
	})
	g, err := Build(context.Background(), dirResolver{dir}, Options{Jobs: 2, Roots: RootsOf(f, 1)})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(g.Roots()); n != 12 {
		t.Errorf("have %d roots, want 12 (WebServer is disabled): %+v", n, g.Roots())
	}
	nat := fakeNatives{
		classes: map[string][]string{"engine": {"Actor", "GameEngine", "Texture"}, "ipdrv": {"TcpNetDriver"},
			"opengldrv": {"OpenGLRenderDevice"}},
		fromBinary: map[string]bool{"ipdrv": true, "opengldrv": true},
	}
	fs := checkAll(t, g, CheckOptions{ServerPackages: f.ServerPackages(), Natives: nat})
	type want struct {
		kind      FindingKind
		sev       Severity
		pkg, root string
	}
	wants := []want{
		{MissingPackage, Error, "Gone", "Server.ini:13 ServerPackages=Gone"},
		{MissingPackage, Error, "Stats", "Server.ini:15 ServerActors=Stats.Uplink Port=7777"},
		{MissingPackage, Warning, "Galaxy", "Server.ini:5 AudioDevice=Galaxy.GalaxyAudioSubsystem"},
		{MissingPackage, Warning, "Menus", "Server.ini:6 Console=Menus.NoConsole"},
		{ClassMismatch, Error, "Game", "Server.ini:8 DefaultServerGame=Game.CTF"},
		{CaseMismatch, Warning, "Game", "Server.ini:10 Class=game.Pawn1"},
	}
	for _, w := range wants {
		found := false
		for _, fd := range fs {
			if fd.Kind == w.kind && fd.Package == w.pkg {
				found = true
				if fd.Severity != w.sev || !slices.Contains(fd.Roots, w.root) || len(fd.Chain) == 0 || fd.Chain[0] != w.root {
					t.Errorf("%s %s: have severity %s, roots %q, chain %q; want %s and %q first", w.kind, w.pkg, fd.Severity, fd.Roots, fd.Chain, w.sev, w.root)
				}
			}
		}
		if !found {
			t.Errorf("no %s finding for %s in %+v", w.kind, w.pkg, fs)
		}
	}
	// Resolved through natives, exports or a binary: no finding.
	for _, fd := range fs {
		switch fd.Package {
		case "Engine", "IpDrv", "OpenGLDrv", "Admin":
			t.Errorf("unexpected finding %+v", fd)
		}
	}
}

// TestIniRootBinaryExact: when a package's binary was read, a class the ini
// names that is neither exported nor registered is missing, not unknown.
func TestIniRootBinaryExact(t *testing.T) {
	f, err := ini.Parse("S.ini", []byte("[Engine.Engine]\nNetworkDevice=IpDrv.NoDriver\nRenderDevice=SoftDrv.Nope\n"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeSpecs(t, dir, []pkgSpec{{file: "IpDrv.u", exports: []string{"UdpBeacon:Class"}}})
	g, err := Build(context.Background(), dirResolver{dir}, Options{Roots: RootsOf(f, 0)})
	if err != nil {
		t.Fatal(err)
	}
	nat := fakeNatives{classes: map[string][]string{"ipdrv": {"TcpNetDriver"}, "softdrv": {"SoftwareRenderDevice"}},
		fromBinary: map[string]bool{"ipdrv": true, "softdrv": true}}
	fs := checkAll(t, g, CheckOptions{Natives: nat})
	got := map[string]string{}
	for _, fd := range fs {
		got[fd.Package] = string(fd.Kind) + "/" + string(fd.Severity)
	}
	if got["IpDrv"] != "missing_object/error" || got["SoftDrv"] != "missing_object/warning" {
		t.Errorf("have %v; want IpDrv missing_object/error and SoftDrv missing_object/warning", got)
	}
	// Without the binary, the same IpDrv class is only unknown.
	nat.fromBinary = nil
	fs = checkAll(t, g, CheckOptions{Natives: nat})
	got = map[string]string{}
	for _, fd := range fs {
		got[fd.Package] = string(fd.Kind) + "/" + string(fd.Severity)
	}
	if got["IpDrv"] != "native_unknown/warning" || got["SoftDrv"] != "missing_package/warning" {
		t.Errorf("without binaries: have %v", got)
	}
}

// TestMissingPackageBinaryWording: a missing package the ini names a class
// of mentions a .dll/.so only when the game's package has native code.
func TestMissingPackageBinaryWording(t *testing.T) {
	f, err := ini.Parse("Server.ini", []byte("[Engine.Engine]\nGameRenderDevice=XOpenGLDrv.XOpenGLRenderDevice\n"+
		"[Engine.GameEngine]\nServerActors=Botpack.Stats\nServerActors=UWeb.WebServer\nServerActors=IpServer.Query\n"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeSpecs(t, dir, baseSpecs)
	g, err := Build(context.Background(), dirResolver{dir}, Options{Jobs: 2, Roots: RootsOf(f, 1)})
	if err != nil {
		t.Fatal(err)
	}
	nat := fakeNatives{classes: map[string][]string{"uweb": {"WebServer"}, "ipserver": {"Query"}}}
	want := map[string]string{
		"Botpack":  "package Botpack is named by 1 ini line(s) but no file resolves through Paths",
		"UWeb":     "package UWeb is named by 1 ini line(s) but no file resolves through Paths, nor does a UWeb.dll or UWeb.so register the class(es) (the game's UWeb module has them, but it is not in the install)",
		"IpServer": "package IpServer is named by 1 ini line(s) but no file resolves through Paths, nor does an IpServer.dll or IpServer.so register the class(es) (the game's IpServer module has them, but it is not in the install)",
		// A device is native whatever the tables say.
		"XOpenGLDrv": "package XOpenGLDrv is named by 1 ini line(s) but no file resolves through Paths, nor does an XOpenGLDrv.dll or XOpenGLDrv.so register the class(es); only the game client loads it (a dedicated server does not)",
	}
	for _, fd := range findingsOf(checkAll(t, g, CheckOptions{Natives: nat}), MissingPackage) {
		if w, ok := want[fd.Package]; ok {
			if fd.Message != w {
				t.Errorf("%s:\nhave %q\nwant %q", fd.Package, fd.Message, w)
			}
			delete(want, fd.Package)
		}
	}
	if len(want) > 0 {
		t.Errorf("no missing_package for %v", want)
	}
	for name, w := range map[string]string{"Engine": "an", "UnrealI": "an", "UWindow": "a", "Botpack": "a", "": "a", "XOpenGLDrv": "an", "ALAudio": "an", "SoftDrv": "a", "D3DDrv": "a"} {
		if have := article(name); have != w {
			t.Errorf("article(%q) = %q, want %q", name, have, w)
		}
	}
}

func TestIniFindings(t *testing.T) {
	f, err := ini.Parse("Server.ini", []byte("[Engine.GameEngine]\nServerPackages=Botpack\nServerPackages=botpack\n"+
		"ServerActors=IpDrv.UdpBeacon\nServerActors=IpDrv.UdpBeacon\n[Engine.GameInfo]\nServerPackages=MyMod\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"ini_repeat Botpack [Server.ini:2 ServerPackages=Botpack Server.ini:3 ServerPackages=botpack]: Server.ini:3 ServerPackages=botpack repeats, in another case, Server.ini:2 ServerPackages=Botpack: one line is enough",
		"ini_repeat IpDrv [Server.ini:4 ServerActors=IpDrv.UdpBeacon Server.ini:5 ServerActors=IpDrv.UdpBeacon]: Server.ini:5 ServerActors=IpDrv.UdpBeacon repeats Server.ini:4 ServerActors=IpDrv.UdpBeacon: the server spawns the actor once per line",
		"ini_section MyMod [Server.ini:7 ServerPackages=MyMod]: Server.ini:7 ServerPackages=MyMod is in [Engine.GameInfo], which the engine never reads ServerPackages from: it reads [Engine.GameEngine]",
	}
	var have []string
	for _, fd := range IniFindings(f) {
		if fd.Severity != Warning {
			t.Errorf("%s: severity %s", fd.Kind, fd.Severity)
		}
		have = append(have, fmt.Sprintf("%s %s %v: %s", fd.Kind, fd.Package, fd.Roots, fd.Message))
	}
	if !slices.Equal(have, want) {
		t.Errorf("have %q\nwant %q", have, want)
	}
	// SWRC's appends: the key is ServerActors whatever the line's form.
	f, err = ini.Parse("Swrc.ini", []byte("[Engine.GameEngine]\nServerActors+=IpDrv.A\nServerActors+=IpDrv.A\n[Engine.GameInfo]\nServerActors+=IpDrv.B\n"))
	if err != nil {
		t.Fatal(err)
	}
	have = nil
	for _, fd := range IniFindings(f.ForGame(ini.SWRC)) {
		have = append(have, fd.Message)
	}
	want = []string{
		"Swrc.ini:3 ServerActors+=IpDrv.A repeats Swrc.ini:2 ServerActors+=IpDrv.A: the server spawns the actor once per line",
		"Swrc.ini:5 ServerActors+=IpDrv.B is in [Engine.GameInfo], which the engine never reads ServerActors from: it reads [Engine.GameEngine]",
	}
	if !slices.Equal(have, want) {
		t.Errorf("SWRC appends:\nhave %q\nwant %q", have, want)
	}
}

// TestIniFindingsOverridden: a line of [Engine.GameEngine] that a game
// engine subclass's own section overrides names the line that wins; a key
// the subclass lacks is read from [Engine.GameEngine] and is no finding.
func TestIniFindingsOverridden(t *testing.T) {
	f, err := ini.Parse("Sub.ini", []byte("[Engine.Engine]\nGameEngine=Sub.SubGameEngine\n[Engine.GameEngine]\nServerPackages=Parent\n"+
		"ServerActors=Parent.Actor\n[Sub.SubGameEngine]\nServerPackages=Own\n"))
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, fd := range IniFindings(f) {
		have = append(have, fmt.Sprintf("%s %s %s %v: %s", fd.Kind, fd.Severity, fd.Package, fd.Roots, fd.Message))
	}
	want := []string{"ini_section warning Parent [Sub.ini:4 ServerPackages=Parent Sub.ini:7 ServerPackages=Own]: " +
		"Sub.ini:4 ServerPackages=Parent is in [Engine.GameEngine], which [Sub.SubGameEngine] overrides: " +
		"the engine reads ServerPackages from [Sub.SubGameEngine] (Sub.ini:7 ServerPackages=Own)"}
	if !slices.Equal(have, want) {
		t.Errorf("have %q\nwant %q", have, want)
	}
}

func TestAddEditLines(t *testing.T) {
	f, err := ini.Parse("Game.ini", []byte("[Editor.EditorEngine]\nEditPackages=Core\nEditPackages=Engine\nEditPackages=engine\n"))
	if err != nil {
		t.Fatal(err)
	}
	g := build(t, baseSpecs)
	res := g.CheckEditPackages(f.EditPackages(), OrderOptions{})
	AddEditLines(res.Findings, f)
	var roots []string
	for _, fd := range res.Findings {
		if fd.Kind == EditOrder && len(fd.Packages) == 1 {
			roots = append(roots, fd.Roots...)
		}
	}
	if want := []string{"Game.ini:3 EditPackages=Engine", "Game.ini:4 EditPackages=engine"}; !slices.Equal(roots, want) {
		t.Errorf("have %q, want %q (findings %+v)", roots, want, res.Findings)
	}
}
