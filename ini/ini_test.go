package ini

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestPathsForms(t *testing.T) {
	tests := []struct {
		name string
		ini  []byte
		want []string
	}{
		{
			name: "repeated, as the 469 patch and UT2004 write",
			ini: text("[Core.System]",
				"Paths=../System/*.u",
				"Paths=../Maps/*.unr",
				"Paths=../Textures/*.utx"),
			want: []string{"../System/*.u", "../Maps/*.unr", "../Textures/*.utx"},
		},
		{
			name: "indexed, in index order not file order",
			ini: text("[Core.System]",
				`Paths[2]=..\Textures\*.utx`,
				`Paths[0]=..\System\*.u`,
				`Paths[1]=..\Maps\*.unr`),
			want: []string{`..\System\*.u`, `..\Maps\*.unr`, `..\Textures\*.utx`},
		},
		{
			name: "indexed with a gap and a repeated index: gap skipped, last line wins",
			ini: text("[Core.System]",
				"Paths[0]=a/*.u",
				"Paths[3]=d/*.u",
				"Paths[1]=b/*.u",
				"Paths[1]=b2/*.u"),
			want: []string{"a/*.u", "b2/*.u", "d/*.u"},
		},
		{
			name: "mixed: indexed entries first, then repeated ones in file order",
			ini: text("[Core.System]",
				"Paths=../Extra/*.u",
				"Paths[1]=../Maps/*.unr",
				"Paths[0]=../System/*.u",
				"Paths=../More/*.u"),
			want: []string{"../System/*.u", "../Maps/*.unr", "../Extra/*.u", "../More/*.u"},
		},
		{
			name: "entry without a folder, as SWAT 4 writes",
			ini: text("[Core.System]",
				"Paths=*.u",
				"Paths=../Content/Maps/*.s4m"),
			want: []string{"*.u", "../Content/Maps/*.s4m"},
		},
		{
			name: "non-canonical indices are other keys",
			ini: text("[Core.System]",
				"Paths[01]=zero-one",
				"Paths[-1]=minus",
				"Paths[ 2]=blank",
				"Paths[0]=ok"),
			want: []string{"ok"},
		},
		{
			name: "empty values are skipped, repeated values kept",
			ini: text("[Core.System]",
				"Paths=",
				"Paths=a/*.u",
				"Paths=   ",
				"Paths=a/*.u"),
			want: []string{"a/*.u", "a/*.u"},
		},
		{
			name: "no entries",
			ini:  text("[Core.System]", "CacheExt=.uxx"),
			want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := mustParse(t, "Test.ini", tt.ini)
			checkStrings(t, "Values(Paths)", f.Values("Core.System", "Paths"), tt.want)
			checkStrings(t, "System().Paths", f.System().Paths, tt.want)
			if have := f.Values("Core.System", "Paths"); tt.want == nil && have != nil {
				t.Errorf("Values: have %#v, want nil", have)
			}
		})
	}
}

func TestEntries(t *testing.T) {
	f := mustParse(t, "Test.ini", text(
		"[Core.System]",
		"Paths=../Extra/*.u",
		"PATHS[1]=../Maps/*.unr",
		"",
		"paths[0]=../System/*.u",
		"Paths=",
	))
	want := []Entry{
		{Key: "Paths", Index: -1, Value: "../Extra/*.u", Line: 2},
		{Key: "PATHS[1]", Index: 1, Value: "../Maps/*.unr", Line: 3},
		{Key: "paths[0]", Index: 0, Value: "../System/*.u", Line: 5},
		{Key: "Paths", Index: -1, Value: "", Line: 6},
	}
	have := f.Entries("core.system", "Paths")
	if len(have) != len(want) {
		t.Fatalf("Entries: have %d entries %+v, want %d", len(have), have, len(want))
	}
	for i := range want {
		if have[i] != want[i] {
			t.Errorf("Entries[%d]: have %+v, want %+v", i, have[i], want[i])
		}
	}
	// An indexed key looks up exactly that key.
	checkStrings(t, "Values(Paths[1])", f.Values("Core.System", "paths[1]"), []string{"../Maps/*.unr"})
	if have := f.Entries("Core.System", "Paths[1]"); len(have) != 1 || have[0].Line != 3 {
		t.Errorf("Entries(Paths[1]): have %+v, want the line 3 entry", have)
	}
	// The returned slice is the caller's.
	have[0].Value = "changed"
	if again := f.Entries("Core.System", "Paths"); again[0].Value != "../Extra/*.u" {
		t.Errorf("Entries shares its slice with the File")
	}
	if f.Entries("Core.System", "Nothing") != nil || f.Entries("No.Section", "Paths") != nil {
		t.Errorf("Entries of a missing key or section is not nil")
	}
}

func TestLineEndingsAndEncodings(t *testing.T) {
	lines := []string{
		"; UT2004 user ini",
		"[Engine.GameEngine]",
		"ServerPackages=Core",
		"ServerPackages=Onslaught",
		"[Core.System]",
		`Paths=..\System\*.u`,
		"Paths=../Maps/*.ut2",
	}
	joined := strings.Join(lines, "\r\n") + "\r\n"
	tests := []struct {
		name string
		data []byte
	}{
		{"LF", text(lines...)},
		{"CRLF", crlf(lines...)},
		{"CR only", []byte(strings.Join(lines, "\r"))},
		{"no final line end", []byte(strings.Join(lines, "\n"))},
		{"UTF-8 BOM", append([]byte{0xEF, 0xBB, 0xBF}, joined...)},
		{"UTF-16LE BOM", utf16Text(joined, binary.LittleEndian)},
		{"UTF-16BE BOM", utf16Text(joined, binary.BigEndian)},
		{"UTF-16LE BOM, LF", utf16Text(string(text(lines...)), binary.LittleEndian)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := mustParse(t, "UT2004.ini", tt.data)
			checkStrings(t, "Paths", f.System().Paths, []string{`..\System\*.u`, "../Maps/*.ut2"})
			checkStrings(t, "ServerPackages", f.ServerPackages(), []string{"Core", "Onslaught"})
			if have := f.Entries("Core.System", "Paths"); len(have) != 2 || have[1].Line != 7 {
				t.Errorf("line of the second Paths: have %+v, want line 7", have)
			}
		})
	}
}

func TestTextDecoding(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"UTF-8", text("[A]", "Name=Jérôme"), "Jérôme"},
		{"Latin-1 (ANSI) is widened byte by byte", []byte("[A]\nName=J\xe9r\xf4me\n"), "Jérôme"},
		{"UTF-16LE outside the BMP", utf16Text("[A]\r\nName=\U0001F600\r\n", binary.LittleEndian), "\U0001F600"},
		{"UT2004 colour codes survive", []byte("[A]\nName=\x1b\xff\x01\x01Red\n"), "\x1bÿ\x01\x01Red"},
		{"a second byte-order mark", append([]byte{0xEF, 0xBB, 0xBF}, "\uFEFF[A]\nName=x\n"...), "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := mustParse(t, "Test.ini", tt.data)
			if have, _ := f.Value("A", "Name"); have != tt.want {
				t.Errorf("Value: have %q, want %q", have, tt.want)
			}
		})
	}
}

func TestValuesKeepSpecialCharacters(t *testing.T) {
	f := mustParse(t, "Test.ini", text(
		"[Engine.Input]",
		`Aliases[0]=(Command="Button bFire | Fire",Alias=Fire)`,
		"Semi=a;b ; c",
		"Hash=#1 # two",
		"Colon=http://example.com:8080/ut/",
		"Parens=(X=1,Y=2)",
		`DemoPath=C:\Demos\`,
		"NextLine=kept separate",
		"Back=`quoted`",
		"Open=`half",
		`Triple="""x"""`,
		`Quoted="1.0.0"`,
		`Inner="a"b"`,
		`Single='s'`,
		`OneQuote="`,
		"Equals=a=b=c",
		"  Spaced  =  in the middle  ",
		"Tabbed\t=\tv\t",
		"Code=|x&n<7.KAwE{}6?rpChi,24M=F;0`Q-o",
	))
	tests := []struct{ key, want string }{
		{"Aliases[0]", `(Command="Button bFire | Fire",Alias=Fire)`},
		{"Semi", "a;b ; c"},
		{"Hash", "#1 # two"},
		{"Colon", "http://example.com:8080/ut/"},
		{"Parens", "(X=1,Y=2)"},
		{"DemoPath", `C:\Demos\`},
		{"NextLine", "kept separate"},
		{"Back", "`quoted`"},
		{"Open", "`half"},
		{"Triple", `""x""`},
		{"Quoted", "1.0.0"},
		{"Inner", `a"b`},
		{"Single", "'s'"},
		{"OneQuote", `"`},
		{"Equals", "a=b=c"},
		{"Spaced", "in the middle"},
		{"Tabbed", "v"},
		{"Code", "|x&n<7.KAwE{}6?rpChi,24M=F;0`Q-o"},
	}
	for _, tt := range tests {
		if have, ok := f.Value("Engine.Input", tt.key); !ok || have != tt.want {
			t.Errorf("Value(%s): have %q, %v; want %q", tt.key, have, ok, tt.want)
		}
	}
}

func TestCaseInsensitiveLookup(t *testing.T) {
	f := mustParse(t, "ut.ini", text(
		"[IpDrv.HTTPDownLoad]",
		"RedirectToURL=http://example.com/~ut/",
		"[ipdrv.httpdownload]",
		"usecompression=True",
		"[Engine.GameEngine]",
		"ServerPackages=SoldierSkins",
		"SERVERPACKAGES=Botpack",
	))
	for _, sec := range []string{"IpDrv.HTTPDownload", "IPDRV.HTTPDOWNLOAD", "ipdrv.httpdownload"} {
		if !f.HasSection(sec) {
			t.Errorf("HasSection(%s) = false", sec)
		}
		if have, _ := f.Value(sec, "redirecttourl"); have != "http://example.com/~ut/" {
			t.Errorf("Value(%s, redirecttourl) = %q", sec, have)
		}
	}
	want := Redirect{URL: "http://example.com/~ut/", UseCompression: true, HasCompression: true}
	if have := f.Redirect(); have != want {
		t.Errorf("Redirect: have %+v, want %+v", have, want)
	}
	checkStrings(t, "ServerPackages", f.ServerPackages(), []string{"SoldierSkins", "Botpack"})
	checkStrings(t, "Sections (first spelling)", f.Sections(), []string{"IpDrv.HTTPDownLoad", "Engine.GameEngine"})
	if e := f.Entries("engine.gameengine", "serverpackages"); len(e) != 2 || e[1].Key != "SERVERPACKAGES" {
		t.Errorf("Entries keep key spelling: have %+v", e)
	}
	if have := f.SectionLine("ipdrv.HTTPdownload"); have != 1 {
		t.Errorf("SectionLine: have %d, want 1", have)
	}
}

func TestSectionRules(t *testing.T) {
	f := mustParse(t, "Test.ini", text(
		"Orphan=before any section",
		"# a hash comment",
		"; a comment",
		"  ;Paths=commented/*.u",
		"[Core]",
		"Paths=parent/*.u",
		"[Core.System]",
		"CacheExt=.uxx",
		"a line without an equals sign",
		"=no key",
		"-=auto",
		`"Quoted"=key`,
		"   [Engine.Engine]   ; trailing text",
		"  Language=det",
		"[Core.System]",
		"Paths=../System/*.u",
		"[DEFAULT]",
		"X=1",
		"[Default]",
		"X=2",
		"[Empty.Section]",
	))
	checkStrings(t, "Sections", f.Sections(), []string{"Core", "Core.System", "Engine.Engine", "DEFAULT", "Empty.Section"})
	// No parent/child inheritance: [Core.System] does not see [Core] Paths.
	checkStrings(t, "Paths", f.Values("Core.System", "Paths"), []string{"../System/*.u"})
	checkStrings(t, "default X", f.Values("default", "X"), []string{"1", "2"})
	if f.HasKey("Core.System", "-") || f.HasKey("Core.System", `"Quoted"`) || f.HasKey("Core.System", "") {
		t.Errorf("keys ini.v1 would misread are kept")
	}
	if !f.HasSection("Empty.Section") || f.HasSection("Missing") {
		t.Errorf("HasSection: empty section not found or missing one found")
	}
	if f.System().Language != "det" {
		t.Errorf("Language: have %q, want det", f.System().Language)
	}
	if f.HasSection("Orphan") || f.HasKey("DEFAULT", "Orphan") {
		t.Errorf("key before the first section was kept")
	}
}

func TestEmptyFile(t *testing.T) {
	for _, data := range [][]byte{nil, {}, {0xEF, 0xBB, 0xBF}, {0xFF, 0xFE}, []byte("\r\n\n"), []byte("; only a comment")} {
		f, err := Parse("Detected.ini", data)
		if err != nil {
			t.Fatalf("Parse(%q): %v", data, err)
		}
		if len(f.Sections()) != 0 || f.System().Paths != nil || f.Language() != "int" {
			t.Errorf("Parse(%q): have sections %q, want none", data, f.Sections())
		}
	}
}

func TestSystem(t *testing.T) {
	tests := []struct {
		name string
		ini  []byte
		want System
	}{
		{
			name: "UT99 469",
			ini: text("[Engine.Engine]", "Language=int",
				"[Core.System]", "PurgeCacheDays=30", "SavePath=../Save", "CachePath=../Cache", "CacheExt=.uxx",
				"Paths=../System/*.u", "Paths=../Maps/*.unr"),
			want: System{Paths: []string{"../System/*.u", "../Maps/*.unr"}, CachePath: "../Cache", CacheExt: ".uxx", PurgeCacheDays: 30, Language: "int"},
		},
		{
			name: "defaults when unset",
			ini:  text("[Core.System]", "Paths=*.u"),
			want: System{Paths: []string{"*.u"}, Language: "int"},
		},
		{
			name: "repeated single values: last wins; atoi-style days",
			ini: text("[Core.System]", "CachePath=../OldCache", "CachePath=../Cache", `CacheExt=".uxx"`,
				"PurgeCacheDays=  -7 days", "[Engine.Engine]", "Language=frt"),
			want: System{CachePath: "../Cache", CacheExt: ".uxx", PurgeCacheDays: -7, Language: "frt"},
		},
		{
			name: "UT2004's UnrealEd language is not the game's",
			ini:  text("[Editor.EditorEngine]", "Language=ute", "[Core.System]", "PurgeCacheDays=x"),
			want: System{Language: "int"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			have := mustParse(t, "Test.ini", tt.ini).System()
			checkStrings(t, "Paths", have.Paths, tt.want.Paths)
			have.Paths, tt.want.Paths = nil, nil
			if have.CachePath != tt.want.CachePath || have.CacheExt != tt.want.CacheExt ||
				have.PurgeCacheDays != tt.want.PurgeCacheDays || have.Language != tt.want.Language {
				t.Errorf("System:\nhave %+v\nwant %+v", have, tt.want)
			}
		})
	}
}

func TestPackagesLists(t *testing.T) {
	f := mustParse(t, "UnrealTournament.ini", crlf(
		"[Engine.GameEngine]",
		"ServerPackages=SoldierSkins",
		"ServerPackages=Botpack",
		"ServerActors=IpServer.UdpServerUplink MasterServerAddress=unreal.epicgames.com MasterServerPort=27900",
		"[XC_Engine.XC_GameEngine]",
		"ServerPackages=BOTPACK",
		"ServerPackages=XC_Core",
		"ServerPackages=SoldierSkins",
		"ServerPackages=MapVoteLA13",
		"[Editor.EditorEngine]",
		"EditPackages=Core",
		"EditPackages=Engine",
		"EditPackages=Core",
		"EditPackages=Botpack",
	))
	checkStrings(t, "ServerPackages", f.ServerPackages(), []string{"SoldierSkins", "Botpack", "XC_Core", "MapVoteLA13"})
	checkStrings(t, "EditPackages", f.EditPackages(), []string{"Core", "Engine", "Core", "Botpack"})

	only := mustParse(t, "UnrealTournament.ini", text("[XC_Engine.XC_GameEngine]", "ServerPackages=A", "ServerPackages=a"))
	checkStrings(t, "XC only", only.ServerPackages(), []string{"A"})
	if mustParse(t, "x.ini", nil).ServerPackages() != nil {
		t.Errorf("ServerPackages of an empty ini is not nil")
	}
}

func TestRedirect(t *testing.T) {
	tests := []struct {
		name string
		ini  []byte
		want Redirect
	}{
		{"missing section", text("[Core.System]"), Redirect{}},
		{"UE1 server", text("[IpDrv.HTTPDownload]", "RedirectToURL=http://redirect.example.com/ut/", "UseCompression=True"),
			Redirect{URL: "http://redirect.example.com/ut/", UseCompression: true, HasCompression: true}},
		{"UE2 template", text("[IpDrv.HTTPDownload]", "RedirectToURL=http://r.example.com/%lcfile%.uz2?g=%guid%", "UseCompression=False"),
			Redirect{URL: "http://r.example.com/%lcfile%.uz2?g=%guid%", HasCompression: true}},
		{"numeric true", text("[IpDrv.HTTPDownload]", "UseCompression=1"), Redirect{UseCompression: true, HasCompression: true}},
		{"empty values", text("[IpDrv.HTTPDownload]", "RedirectToURL=", "UseCompression="), Redirect{HasCompression: true}},
		{"quoted URL", text("[IpDrv.HTTPDownload]", `RedirectToURL="http://q.example.com/"`), Redirect{URL: "http://q.example.com/"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if have := mustParse(t, "Test.ini", tt.ini).Redirect(); have != tt.want {
				t.Errorf("Redirect: have %+v, want %+v", have, tt.want)
			}
		})
	}
}

func TestValueFirstLast(t *testing.T) {
	f := mustParse(t, "Test.ini", text("[A]", "K=", "K=one", "K=two", "K="))
	if v, ok := f.Value("A", "K"); !ok || v != "one" {
		t.Errorf("Value: have %q, %v; want one", v, ok)
	}
	if v, ok := f.Last("A", "K"); !ok || v != "two" {
		t.Errorf("Last: have %q, %v; want two", v, ok)
	}
	if v, ok := f.Value("A", "Missing"); ok || v != "" {
		t.Errorf("Value of a missing key: have %q, %v", v, ok)
	}
	g := mustParse(t, "Test.ini", text("[A]", "K="))
	if _, ok := g.Value("A", "K"); ok || !g.HasKey("A", "K") {
		t.Errorf("an empty value: Value reports it or HasKey does not")
	}
}

func TestDir(t *testing.T) {
	tests := []struct{ path, want string }{
		{"/games/UT/System/UnrealTournament.ini", "/games/UT/System"},
		{"UnrealTournament.ini", "."},
		{"System/UT2004.ini", "System"},
	}
	for _, tt := range tests {
		f := mustParse(t, tt.path, nil)
		if have := f.Dir(); have != filepath.FromSlash(tt.want) {
			t.Errorf("Dir(%s): have %q, want %q", tt.path, have, tt.want)
		}
	}
}

func TestAtoi(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"30", 30}, {"", 0}, {"x", 0}, {" 7d", 7}, {"+5", 5}, {"-2", -2},
		{"99999999999999999999", 1<<31 - 1}, {"-99999999999999999999", -1 << 31},
	}
	for _, tt := range tests {
		if have := atoi(tt.in); have != tt.want {
			t.Errorf("atoi(%q): have %d, want %d", tt.in, have, tt.want)
		}
	}
}

// TestLoadSections: LoadSections gives the named sections' entries as Load
// does (any case, a section written twice merged), every section's name,
// no entries of the others, and Load's errors, wherever their line is.
func TestLoadSections(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := write("x.int", "[Core.System]\nPaths=../System/*.u\n[public]\nObject=(Name=A.B,Class=Class)\nObject=\"q\"\n"+
		"[Other]\nObject=(Name=C.D)\nKey=`v`\n[PUBLIC]\nObject=(Name=E.F)\nPreferences=(Caption=x)\nObject[1]=idx\n")
	whole, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	part, err := LoadSections(p, "Public")
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"Object", "Preferences", "Object[1]"} {
		if w, g := whole.Entries("Public", key), part.Entries("public", key); len(w) == 0 || !reflect.DeepEqual(w, g) {
			t.Errorf("Entries(Public, %s): %v, want %v", key, g, w)
		}
	}
	if !reflect.DeepEqual(whole.Values("Public", "Object"), part.Values("Public", "Object")) {
		t.Errorf("Values differ")
	}
	for _, sec := range []string{"Core.System", "Other"} {
		if len(whole.Entries(sec, "Paths"))+len(whole.Entries(sec, "Object")) == 0 {
			t.Errorf("Load: [%s] has no entries", sec)
		}
		if len(part.Entries(sec, "Paths"))+len(part.Entries(sec, "Object"))+len(part.Entries(sec, "Key")) != 0 {
			t.Errorf("LoadSections: [%s] has entries", sec)
		}
	}
	if !reflect.DeepEqual(whole.Sections(), part.Sections()) {
		t.Errorf("sections %q, want %q", part.Sections(), whole.Sections())
	}
	for _, text := range []string{
		"[Public]\nObject=x\n[Other]\nK=" + strings.Repeat("v", MaxLineLength) + "\n",
		"[Public]\nObject=x\n[Other\nK=v\n",
		"[Public]\nObject=x\n[]\nK=v\n",
	} {
		p := write("bad.int", text)
		_, werr := Load(p)
		_, perr := LoadSections(p, "Public")
		if werr == nil || perr == nil || werr.Error() != perr.Error() {
			t.Errorf("errors %v and %v", werr, perr)
		}
	}
	// The bound on the parser's work counts the keys it parses: 12,000
	// distinct keys in another section are too many for Load, not for
	// LoadSections; the number of key lines is bounded in any section.
	var many strings.Builder
	many.WriteString("[Public]\nObject=(Name=A.B)\n[Strings]\n")
	for i := range 12000 {
		fmt.Fprintf(&many, "%032X=P%d\n", i, i)
	}
	p = write("many.int", many.String())
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "too many distinct keys in section [Strings]") {
		t.Errorf("Load: %v", err)
	}
	if f, err := LoadSections(p, "Public"); err != nil || len(f.Entries("Public", "Object")) != 1 {
		t.Errorf("LoadSections: %v", err)
	}
	p = write("lines.int", "[Public]\nObject=x\n[Other]\n"+strings.Repeat("K=v\n", MaxKeyLines))
	_, werr := Load(p)
	_, perr := LoadSections(p, "Public")
	if werr == nil || perr == nil || werr.Error() != perr.Error() || !strings.Contains(perr.Error(), "too many key lines") {
		t.Errorf("key lines: errors %v and %v", werr, perr)
	}
}
