package native_test

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
	"github.com/upkdeps/upkdeps/native"
)

const (
	ut469   = "OldUnreal__UnrealTournamentPatches/System"
	ut436   = "nrempel__ut-server/System"
	undying = "l0m-dev__Undying-Renewal"
)

// corpusCounts are the classes each corpus binary registers, counted with
// readelf -Ws / objdump -p (the corpus README gives Core 36 and Engine 103
// for 469).
var corpusCounts = map[string]int{
	ut469 + "/Core.dll": 36, ut469 + "/Core.so": 36,
	ut469 + "/Engine.dll": 103, ut469 + "/Engine.so": 103,
	ut469 + "/Fire.dll": 6, ut469 + "/Fire.so": 6,
	ut469 + "/IpDrv.dll": 10, ut469 + "/IpDrv.so": 10,
	ut469 + "/Render.dll": 1, ut469 + "/Render.so": 1,
	ut469 + "/UWeb.dll": 2, ut469 + "/UWeb.so": 2,
	ut469 + "/Window.dll": 1,
	ut469 + "/udemo.dll":  8, ut469 + "/udemo.so": 8,
	ut436 + "/Core.so": 34, ut436 + "/Engine.so": 98, ut436 + "/Fire.so": 6,
	ut436 + "/IpDrv.so": 10, ut436 + "/Render.so": 1,
}

func readCorpus(t *testing.T) map[string]*native.Binary {
	t.Helper()
	corpus := testutil.Corpus(t)
	paths, err := native.FindBinaries([]string{filepath.Join(corpus, ut469), filepath.Join(corpus, ut436)})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*native.Binary{}
	for _, p := range paths {
		b, err := native.ReadBinary(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(corpus, p)
		out[filepath.ToSlash(rel)] = b
	}
	return out
}

func TestCorpusBinaries(t *testing.T) {
	bins := readCorpus(t)
	if len(bins) != len(corpusCounts) {
		t.Errorf("found %d binaries, want %d", len(bins), len(corpusCounts))
	}
	for rel, want := range corpusCounts {
		b := bins[rel]
		if b == nil {
			t.Errorf("%s: not found", rel)
			continue
		}
		wantMethod := native.MethodELF
		if strings.HasSuffix(rel, ".dll") {
			wantMethod = native.MethodPE
		}
		if len(b.Classes) != want || b.Method != wantMethod {
			t.Errorf("%s: %d classes by %s, want %d by %s", rel, len(b.Classes), b.Method, want, wantMethod)
		}
		t.Logf("%s: %s %d classes", rel, b.Method, len(b.Classes))
	}
	// The PE and ELF builds of one 469 package register the same classes.
	for rel, b := range bins {
		if so, ok := strings.CutSuffix(rel, ".dll"); ok && bins[so+".so"] != nil {
			if !slices.Equal(b.Classes, bins[so+".so"].Classes) {
				t.Errorf("%s and .so differ:\n%q\n%q", rel, b.Classes, bins[so+".so"].Classes)
			}
		}
	}
	for _, rel := range []string{ut469 + "/udemo.dll", ut469 + "/udemo.so"} {
		if b := bins[rel]; b == nil || !slices.Contains(b.Classes, "uDemoDriver") || b.Package != "udemo" {
			t.Errorf("%s: no class uDemoDriver in package udemo", rel)
		}
	}
	if b := bins[ut436+"/Engine.so"]; b == nil || slices.Contains(b.Classes, "Object") {
		t.Error("Engine.so counts Core's classes")
	}
}

// handList is the hand-written list of native-only classes upkdeps kept
// before these tables (uscript.NativeClasses, now retired): every UE1 name
// in it must be found in the 469 binaries.
var handList = map[string][]string{
	"Core": strings.Fields(`ArrayProperty BoolProperty ByteProperty Class ClassProperty
		Commandlet Const Enum Exporter Factory Field FixedArrayProperty FloatProperty Function
		IntProperty Language Linker LinkerLoad LinkerSave MapProperty NameProperty Object
		ObjectProperty Package PackageMap PointerProperty Property State StrProperty Struct
		StructProperty Subsystem System TextBuffer TextBufferFactory DelegateProperty`),
	"Engine": strings.Fields(`ActorChannel Animation AudioSubsystem Bitmap BspNodes BspSurfs
		Canvas Channel ChannelDownload CheckSumCommandlet Client Console ControlChannel
		ConvexVolume DemoPlayPendingLevel DemoRecConnection DemoRecDriver Download Engine
		FileChannel Font GameEngine Input Level LevelBase LevelSummary LodMesh Mesh Model Music
		NetConnection NetDriver NetPendingLevel PackageMapLevel Palette PendingLevel Player Polys
		Primitive RenderBase RenderDevice RenderIterator ScriptedTexture ServerCommandlet
		SkeletalMesh StaticMesh StaticMeshInstance Sound TerrainSector Texture Vectors Verts
		Viewport VertMesh MeshAnimation ProjectorPrimitive`),
	"Fire":   strings.Fields(`FireTexture FractalTexture IceTexture WaterTexture WaveTexture WetTexture`),
	"IpDrv":  strings.Fields(`CompressCommandlet DecompressCommandlet HTTPDownload MasterServerCommandlet TcpipConnection TcpNetDriver UpdateServerCommandlet`),
	"Render": {"Render"},
	"UWeb":   {"WebRequest", "WebResponse"},
	"Window": {"WindowManager"},
}

// TestCorpusHandList checks the retired hand-written list of native
// classes against the 469 binaries; the names the binaries do not
// register are UE2's and must be in the ut2004 table.
func TestCorpusHandList(t *testing.T) {
	bins := readCorpus(t)
	s := native.NewSet()
	for _, rel := range slices.Sorted(maps.Keys(bins)) {
		if strings.HasPrefix(rel, ut469) {
			s.AddBinary(bins[rel])
		}
	}
	// Names in the hand list that UT99 v469 does not have: all
	// UE2 classes, registered by UT2004's Core.dll and Engine.dll.
	notIn469 := []string{
		"Core.DelegateProperty",
		"Engine.ConvexVolume", "Engine.MeshAnimation", "Engine.ProjectorPrimitive",
		"Engine.StaticMesh", "Engine.StaticMeshInstance", "Engine.TerrainSector", "Engine.VertMesh",
	}
	ue2 := native.NewSet()
	ue2.AddTable(native.Builtin("ut2004"))
	for _, pc := range notIn469 {
		pkg, class, _ := strings.Cut(pc, ".")
		if !ue2.Has(pkg, class) {
			t.Errorf("%s is in neither the 469 binaries nor the ut2004 table", pc)
		}
	}
	var missing []string
	for _, pkg := range []string{"Core", "Engine", "Fire", "IpDrv", "Render", "UWeb", "Window"} {
		for _, c := range handList[pkg] {
			if !s.Has(pkg, c) {
				missing = append(missing, pkg+"."+c)
			}
		}
	}
	slices.Sort(missing)
	t.Logf("hand-list classes not registered by the 469 binaries: %q", missing)
	if !slices.Equal(missing, notIn469) {
		t.Errorf("hand list classes missing from the 469 binaries:\n have %q\n want %q", missing, notIn469)
	}
}

func BenchmarkReadBinary(b *testing.B) {
	corpus := testutil.Corpus(b)
	// The largest corpus binary.
	paths, err := native.FindBinaries([]string{filepath.Join(corpus, ut469), filepath.Join(corpus, ut436)})
	if err != nil || len(paths) == 0 {
		b.Skip("no corpus binaries")
	}
	var largest string
	var size int64
	for _, p := range paths {
		if st, err := statSize(p); err == nil && st > size {
			largest, size = p, st
		}
	}
	b.Logf("%s (%d bytes)", filepath.Base(largest), size)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := native.ReadBinary(largest); err != nil {
			b.Fatal(err)
		}
	}
}

func statSize(p string) (int64, error) {
	st, err := os.Stat(p)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}
