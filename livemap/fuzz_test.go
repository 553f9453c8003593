package livemap

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/ini"
)

// FuzzMapvoteConfigs: hostile VoteSys and MVES configs (aliases that grow,
// Extends and InheritFrom loops, broken struct values) never panic or
// hang, and every entry read names a package and a line.
func FuzzMapvoteConfigs(f *testing.F) {
	f.Add(voteSysIniText, voteSysPresets, "")
	f.Add("", "", mvesConfig)
	f.Add("", "", "[MVES.MapVote]\nbOverrideServerPackages=True\nAliases[0]=<a> <a>,<a>\nMainServerPackages=(<a>)\nCustomGame[0]=(GameName=\"A\",Extends=\"0,1\",Packages=\"<a>\")\nCustomGame[1]=(GameName=\"B\",Extends=\"0\")\n")
	f.Add("[ServerSettings]\nbManageServerPackages=True\n", "[VS_PresetConfig0]\nPresetName=A\nInheritFrom=/A\nPackages=,,\n", "")
	f.Fuzz(func(t *testing.T, voteSys, presets, mves string) {
		dir := t.TempDir()
		files := map[string]string{"Server.ini": gameIni}
		if mves != "" {
			files["MVE_Config.ini"] = mves
		} else {
			files["VoteSys.ini"], files["VoteSysPresets.ini"] = voteSys, presets
		}
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		gi, err := ini.Load(filepath.Join(dir, "Server.ini"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := Read(gi, Options{Generation: 1})
		if err != nil {
			return // a config the ini reader refuses: an error, not a panic
		}
		all := append(append([]Entry{}, m.Base...), m.Unsent...)
		for _, p := range m.Presets {
			all = append(all, p.Packages...)
		}
		for _, e := range all {
			if e.Package == "" || e.Source.Line < 1 {
				t.Fatalf("entry %+v", e)
			}
		}
	})
}
