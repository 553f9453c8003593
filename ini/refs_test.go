package ini

import (
	"fmt"
	"slices"
	"testing"
)

func TestReferences(t *testing.T) {
	text := `[Engine.Engine]
GameRenderDevice=OpenGLDrv.OpenGLRenderDevice
Console=None
GUIController=GUI2K4.UT2K4GUIController
DefaultGame=NoPackage
DefaultServerGame=Botpack.DeathMatchPlus
[URL]
Class=Botpack.TMale1
[Engine.GameEngine]
ServerPackages=SoldierSkins
ServerPackages=
ServerActors=IpServer.UdpServerUplink MasterServerAddress=unreal.epicgames.com MasterServerPort=27900
ServerActors[0]=UWeb.WebServer
[XC_Engine.XC_GameEngine]
ServerPackages=XCPack
[UWeb.WebServer]
Applications[0]=UTServerAdmin.UTServerAdmin
bEnabled=True
`
	f, err := Parse("Test.ini", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	render := func(refs []Reference) []string {
		var out []string
		for _, r := range refs {
			out = append(out, fmt.Sprintf("%d %s %s|%s %s", r.Line, r.Key, r.Package, r.Object, r.Load))
		}
		return out
	}
	want := []string{
		"2 GameRenderDevice OpenGLDrv|OpenGLRenderDevice client",
		"6 DefaultServerGame Botpack|DeathMatchPlus server",
		"8 Class Botpack|TMale1 both",
		"10 ServerPackages SoldierSkins| server",
		"12 ServerActors IpServer|UdpServerUplink server",
		"13 ServerActors[0] UWeb|WebServer server",
		"15 ServerPackages XCPack| server",
		"17 Applications[0] UTServerAdmin|UTServerAdmin server",
	}
	if have := render(f.References(1)); !slices.Equal(have, want) {
		t.Errorf("UE1:\nhave %q\nwant %q", have, want)
	}
	// UE2 adds GUIController; generation 0 takes every key.
	ue2 := render(f.References(2))
	if !slices.Contains(ue2, "4 GUIController GUI2K4|UT2K4GUIController client") || len(ue2) != len(want)+1 {
		t.Errorf("UE2: %q", ue2)
	}
	if refs := f.References(1); refs[4].Value != "IpServer.UdpServerUplink MasterServerAddress=unreal.epicgames.com MasterServerPort=27900" {
		t.Errorf("ServerActors keeps its parameters in Value: %+v", refs[4])
	}
	// The web admin is loaded only when the WebServer is enabled.
	off, err := Parse("Off.ini", []byte("[UWeb.WebServer]\nApplications[0]=UTServerAdmin.UTServerAdmin\nbEnabled=False\n"))
	if err != nil {
		t.Fatal(err)
	}
	if refs := off.References(1); len(refs) != 0 {
		t.Errorf("disabled web server: %+v", refs)
	}
}
