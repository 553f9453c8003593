package ini

import (
	"fmt"
	"slices"
	"testing"
)

func TestListProblems(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string // "line section key=value first|readfrom"
	}{
		{
			name: "repeats, exact and in another case, across the sections the engine merges",
			text: "[Engine.GameEngine]\nServerPackages=Botpack\nServerPackages=MyMod\nServerPackages=botpack\nServerActors=IpDrv.UdpBeacon\n" +
				"ServerActors=IpDrv.UdpBeacon\nServerActors=IpDrv.UdpBeacon Port=7777\n[XC_Engine.XC_GameEngine]\nServerPackages=MYMOD\n",
			want: []string{"4 Engine.GameEngine ServerPackages=botpack 2", "6 Engine.GameEngine ServerActors=IpDrv.UdpBeacon 5",
				"9 XC_Engine.XC_GameEngine ServerPackages=MYMOD 3"},
		},
		{
			name: "misplaced in a section of the engine's classes",
			text: "[Engine.GameInfo]\nServerPackages=MyMod\nServerActors=MyMod.Actor\n[Engine.GameEngine]\nServerPackages=Other\n" +
				"[Engine.Engine]\nEditPackages=Core\n[MyMod.Config]\nServerPackages=Own\n",
			want: []string{"2 Engine.GameInfo ServerPackages=MyMod Engine.GameEngine", "3 Engine.GameInfo ServerActors=MyMod.Actor Engine.GameEngine",
				"7 Engine.Engine EditPackages=Core Editor.EditorEngine"},
		},
		{
			name: "a game engine subclass reads its own section only",
			text: "[Engine.Engine]\nGameEngine=MyEngine.MyGameEngine\n[MyEngine.MyGameEngine]\nServerPackages=A\n[Engine.GameEngine]\nServerPackages=a\n" +
				"[Other.OldGameEngine]\nServerPackages=B\n",
			want: []string{"6 Engine.GameEngine ServerPackages=a MyEngine.MyGameEngine 4", "8 Other.OldGameEngine ServerPackages=B MyEngine.MyGameEngine"},
		},
		{
			name: "a game engine subclass without the key keeps [Engine.GameEngine]'s (SWAT 4)",
			text: "[Engine.Engine]\nGameEngine=SwatGame.SwatGameEngine\n[Engine.GameEngine]\nServerPackages=A\nServerPackages=a\nServerActors=IpDrv.UdpBeacon\n" +
				"[XC_Engine.XC_GameEngine]\nServerPackages=B\n",
			want: []string{"5 Engine.GameEngine ServerPackages=a 4", "8 XC_Engine.XC_GameEngine ServerPackages=B Engine.GameEngine"},
		},
		{
			name: "per key: the subclass's ServerActors win, [Engine.GameEngine]'s ServerPackages are read",
			text: "[Engine.Engine]\nGameEngine=Sub.SubGameEngine\n[Engine.GameEngine]\nServerPackages=A\nServerActors=A.B\n[Sub.SubGameEngine]\nServerActors=C.D\n",
			want: []string{"5 Engine.GameEngine ServerActors=A.B Sub.SubGameEngine 7"},
		},
		{
			name: "XC_GameEngine reads both, as ServerPackages merges them",
			text: "[Engine.Engine]\nGameEngine=XC_Engine.XC_GameEngine\n[XC_Engine.XC_GameEngine]\nServerPackages=A\n[Engine.GameEngine]\nServerPackages=B\n",
			want: []string{},
		},
		{
			name: "EditPackages repeats are the order check's",
			text: "[Editor.EditorEngine]\nEditPackages=Core\nEditPackages=core\n",
			want: []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("Server.ini", []byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			have := []string{}
			for _, p := range f.ListProblems() {
				s := fmt.Sprintf("%d %s %s=%s ", p.Line, p.Section, p.Key, p.Value)
				if p.Misplaced() {
					s += p.ReadFrom
					if p.Overridden() {
						s += fmt.Sprint(" ", p.Winner.Line)
					}
				} else {
					s += fmt.Sprint(p.First)
				}
				have = append(have, s)
			}
			if !slices.Equal(have, tt.want) {
				t.Errorf("have %q\nwant %q", have, tt.want)
			}
		})
	}
}
