package graph

import "strings"

// nativeOnly lists, per package, the classes that exist only in C++ (no
// export in the package) for UE1 games; UE2 adds its own below. Public
// documentation and peer tools agree on these (FORMAT.md, "Import table
// entry"). An export always wins over this list.
var nativeOnly = map[string][]string{
	"core": strings.Fields(`ArrayProperty BoolProperty ByteProperty Class ClassProperty Commandlet Const Enum
		Exporter Factory Field FixedArrayProperty FloatProperty Function IntProperty Language Linker
		LinkerLoad LinkerSave MapProperty NameProperty Object ObjectProperty Package PackageMap
		PointerProperty Property State StrProperty Struct StructProperty Subsystem System TextBuffer
		TextBufferFactory DelegateProperty`),
	"engine": strings.Fields(`ActorChannel Animation AudioSubsystem Bitmap BspNodes BspSurfs Canvas Channel
		ChannelDownload CheckSumCommandlet Client Console ControlChannel ConvexVolume
		DemoPlayPendingLevel DemoRecConnection DemoRecDriver Download Engine FileChannel Font
		GameEngine Input Level LevelBase LevelSummary LodMesh Mesh Model Music NetConnection NetDriver
		NetPendingLevel PackageMapLevel Palette PendingLevel Player Polys Primitive RenderBase
		RenderDevice RenderIterator ScriptedTexture ServerCommandlet SkeletalMesh StaticMesh
		StaticMeshInstance Sound TerrainSector Texture Vectors Verts Viewport
		VertMesh MeshAnimation ProjectorPrimitive`),
	"fire":   strings.Fields(`FireTexture FractalTexture IceTexture WaterTexture WaveTexture WetTexture`),
	"ipdrv":  strings.Fields(`CompressCommandlet DecompressCommandlet HTTPDownload MasterServerCommandlet TcpipConnection TcpNetDriver UpdateServerCommandlet`),
	"render": {"Render"},
	"uweb":   {"WebRequest", "WebResponse"},
	"window": {"WindowManager"},
}

var nativeSet = func() map[string]map[string]bool {
	m := map[string]map[string]bool{}
	for pkg, classes := range nativeOnly {
		s := map[string]bool{}
		for _, c := range classes {
			s[strings.ToLower(c)] = true
		}
		m[pkg] = s
	}
	return m
}()

// isNativeOnly reports whether pkg.name is a known native-only object.
func isNativeOnly(pkg, name string) bool {
	return nativeSet[strings.ToLower(pkg)][strings.ToLower(name)]
}

// hasNativeCode reports whether pkg is a stock package that ships native code.
func hasNativeCode(pkg string) bool {
	_, ok := nativeSet[strings.ToLower(pkg)]
	return ok
}
