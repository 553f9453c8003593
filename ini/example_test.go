package ini_test

import (
	"fmt"

	"github.com/upkdeps/upkdeps/ini"
)

func ExampleParse() {
	data := []byte("[Core.System]\r\n" +
		"CachePath=../Cache\r\n" +
		"CacheExt=.uxx\r\n" +
		"Paths=../System/*.u\r\n" +
		"Paths=../Maps/*.unr\r\n" +
		"\r\n" +
		"[Engine.GameEngine]\r\n" +
		"ServerPackages=SoldierSkins\r\n" +
		"ServerPackages=Botpack\r\n" +
		"\r\n" +
		"[XC_Engine.XC_GameEngine]\r\n" +
		"ServerPackages=botpack\r\n" +
		"ServerPackages=XC_Core\r\n")
	f, err := ini.Parse("System/UnrealTournament.ini", data)
	if err != nil {
		fmt.Println(err)
		return
	}
	sys := f.System()
	fmt.Println(ini.GuessGame(f), f.Dir(), sys.Paths, sys.CachePath, sys.CacheExt, sys.Language)
	fmt.Println(f.ServerPackages())
	// Output:
	// ut99 System [../System/*.u ../Maps/*.unr] ../Cache .uxx int
	// [SoldierSkins Botpack XC_Core]
}

func ExampleFile_Entries() {
	f, err := ini.Parse("Default.ini", []byte(
		"[Core.System]\n"+
			"Paths[1]=..\\Maps\\*.unr\n"+
			"Paths[0]=..\\System\\*.u\n"+
			"Paths=../Extra/*.u\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range f.Entries("core.system", "paths") {
		fmt.Printf("line %d: %s (index %d) = %s\n", e.Line, e.Key, e.Index, e.Value)
	}
	fmt.Println(f.Values("Core.System", "Paths"))
	// Output:
	// line 2: Paths[1] (index 1) = ..\Maps\*.unr
	// line 3: Paths[0] (index 0) = ..\System\*.u
	// line 4: Paths (index -1) = ../Extra/*.u
	// [..\System\*.u ..\Maps\*.unr ../Extra/*.u]
}

func ExampleParse_error() {
	_, err := ini.Parse("System/Foo.ini", []byte("[Core.System]\nPaths=../System/*.u\n[Engine.GameEngine\n"))
	fmt.Println(err)
	// Output:
	// ini: System/Foo.ini:3: unterminated section header "[Engine.GameEngine"
}

// An editor that must keep every byte of a file reads it with the same
// decoder and line rules as Parse, and writes it back with Encode.
func ExampleLines() {
	data := []byte("[Cache] ; downloads\r\n;comment\r\nABC=\"Foo.u\"\r\n")
	text, enc, err := ini.Decode("cache.ini", data)
	if err != nil {
		fmt.Println(err)
		return
	}
	for l := range ini.Lines(text) {
		switch l.Kind {
		case ini.HeaderLine:
			fmt.Printf("%d: section %s\n", l.Num, l.Name)
		case ini.KeyLine:
			fmt.Printf("%d: %s = %s\n", l.Num, l.Key, ini.Unquote(l.Value))
		default:
			fmt.Printf("%d: %q ignored\n", l.Num, l.Text)
		}
	}
	back, _ := enc.Encode(text)
	fmt.Println(enc, string(back) == string(data))
	// Output:
	// 1: section Cache
	// 2: ";comment" ignored
	// 3: ABC = Foo.u
	// UTF-8 true
}
