package livemap

import (
	"strings"
	"testing"
)

// TestWriteText: livemap's text names the ini and the managing mapvote,
// lists the base and each preset (a disabled one marked) with every
// entry's line; a map without a mapvote says so, and a switched-off one
// prints its notes.
func TestWriteText(t *testing.T) {
	f := writeFiles(t, map[string]string{"Server.ini": gameIni, "VoteSys.ini": voteSysIniText, "VoteSysPresets.ini": voteSysPresets})
	m, err := Read(f, Options{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := m.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "upkdeps livemap: " + f.Path + "\n" +
		"votesys manages ServerPackages (VoteSys.ini:3 bManageServerPackages=True)\n" +
		"\nbase (3):\n" +
		"  SoldierSkins             VoteSys.ini:4 DefaultPackages=SoldierSkins\n" +
		"  Botpack                  VoteSys.ini:5 DefaultPackages=Botpack\n" +
		"  VoteSys                  VoteSys.ini:6 DefaultPackages=VoteSys\n" +
		"\npreset DM/DeathMatch, VoteSysPresets.ini:1 [VS_PresetConfig0]: 0 package(s)\n" +
		"  the server loads (game, mutators, actors): Botpack\n" +
		"\npreset DM/InstaGib, VoteSysPresets.ini:8 [VS_PresetConfig1]: 2 package(s)\n" +
		"  InstaGibPlus             VoteSysPresets.ini:12 Mutators=InstaGibPlus.NewNetIG,Botpack.LowGrav\n" +
		"  Botpack                  VoteSysPresets.ini:12 Mutators=InstaGibPlus.NewNetIG,Botpack.LowGrav\n" +
		"  the server loads (game, mutators, actors): Botpack, InstaGibPlus\n" +
		"\npreset CTF/Sniper (disabled), VoteSysPresets.ini:14 [VS_PresetConfig2]: 3 package(s)\n"
	if !strings.HasPrefix(b.String(), want) {
		t.Errorf("have\n%s\nwant a start of\n%s", b.String(), want)
	}

	f = writeFiles(t, map[string]string{"Server.ini": gameIni})
	if m, err = Read(f, Options{Generation: 1}); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := m.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want = "upkdeps livemap: " + f.Path + "\nno mapvote config beside the ini\n\nbase (2):\n" +
		"  SoldierSkins             Server.ini:2 ServerPackages=SoldierSkins\n" +
		"  Botpack                  Server.ini:3 ServerPackages=Botpack\n"
	if b.String() != want {
		t.Errorf("have\n%s\nwant\n%s", b.String(), want)
	}

	f = writeFiles(t, map[string]string{"Server.ini": gameIni,
		"VoteSys.ini": strings.Replace(voteSysIniText, "=True", "=False", 1), "VoteSysPresets.ini": voteSysPresets})
	if m, err = Read(f, Options{Generation: 1}); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := m.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nvotesys found, its switch off (VoteSys.ini:3 bManageServerPackages=False)\n",
		"\n\nnotes:\n  votesys's switch is off (VoteSys.ini:3 bManageServerPackages=False): "} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
}
