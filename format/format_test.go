package format

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestCompactIndexRoundTrip(t *testing.T) {
	for _, v := range []int32{0, 1, -1, 63, -63, 64, -64, 8191, 8192, 1 << 20, -(1 << 20), 1<<27 - 1, 1 << 27, 1<<31 - 1, -(1<<31 - 1)} {
		var e encoder
		e.index(v)
		if len(e.b) > 5 {
			t.Errorf("index(%d): %d bytes, want at most 5", v, len(e.b))
		}
		d := &decoder{b: e.b}
		got := d.index()
		if d.failed() || got != v || d.pos != len(e.b) {
			t.Errorf("index(%d): have %d (pos %d of %d, short %d, err %v)", v, got, d.pos, len(e.b), d.short, d.err)
		}
	}
}

func TestCompactIndexMalformed(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"sixth byte", []byte{0x40 | 0x3f, 0xff, 0xff, 0xff, 0x80}},
		{"overflow", []byte{0x7f, 0xff, 0xff, 0xff, 0x10}},
	} {
		d := &decoder{b: tc.in, base: 100}
		d.index()
		var fe *FormatError
		if !errors.As(d.err, &fe) || fe.Offset != 100 {
			t.Errorf("%s: have %v, want *FormatError at offset 100", tc.name, d.err)
		}
	}
}

func TestGUID(t *testing.T) {
	g := GUID{0x4770B884, 0x11D38E3E, 0x100067B9, 0xF6F8975A}
	if have, want := g.String(), "4770B88411D38E3E100067B9F6F8975A"; have != want {
		t.Fatalf("String: have %s, want %s", have, want)
	}
	for _, g := range []GUID{{}, {1, 0x10, 0xABCDEF, 0xFFFFFFFF}, {0x80000000, 0x0F0F0F0F, 9, 0xA}} {
		if have, want := g.String(), fmt.Sprintf("%08X%08X%08X%08X", g[0], g[1], g[2], g[3]); have != want {
			t.Errorf("String: have %s, want %s", have, want)
		}
	}
	back, err := ParseGUID("4770b88411d38e3e100067b9f6f8975a")
	if err != nil || back != g {
		t.Fatalf("ParseGUID: have %v %v, want %v", back, err, g)
	}
	for _, bad := range []string{"", "4770B884", "4770B88411D38E3E100067B9F6F8975G"} {
		if _, err := ParseGUID(bad); err == nil {
			t.Errorf("ParseGUID(%q): no error", bad)
		}
	}
}

func TestFlagNames(t *testing.T) {
	f := FlagAllowDownload | FlagServerSideOnly | FlagNeed | 0x40000
	want := []string{"AllowDownload", "ServerSideOnly", "Need", "0x40000"}
	if have := f.Names(); !reflect.DeepEqual(have, want) {
		t.Errorf("have %v, want %v", have, want)
	}
	if have := PackageFlags(0).Names(); have == nil || len(have) != 0 {
		t.Errorf("zero flags: have %#v, want empty non-nil", have)
	}
}

// sample builds a package with groups, nested imports and a class.
func sample(version, licensee uint16) *File {
	b := NewBuilder(version, licensee)
	b.File.Flags = FlagAllowDownload
	b.File.GUID = GUID{1, 2, 3, 4}
	actor := b.ImportPath("Engine.Actor", "Core", "Class")
	b.Import(actor, "Touching", "Core", "ObjectProperty")
	b.ImportPath("MyTex.Walls.Brick", "Engine", "Texture")
	grp := b.ExportGroup(0, "Skins")
	b.Export(grp, "Gold", b.ImportPath("Engine.Texture", "Core", "Class"), 0, 100)
	cls := b.Export(0, "MyActor", 0, actor, 2000)
	b.Export(cls, "Tick", b.ImportPath("Core.Function", "Core", "Class"), 0, 50)
	b.Name("Ünïcödé")
	if version >= 64 {
		b.Name("名前")
	}
	return b.File
}

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		version, licensee uint16
		tag               uint32
	}{
		{60, 0, Tag}, {61, 0, Tag}, {63, 0, Tag}, {64, 0, Tag}, {66, 0, Tag}, {68, 0, Tag}, {69, 0, Tag},
		{100, 0, Tag}, {119, 25, Tag}, {128, 29, Tag}, {128, 29, TagKF}, {129, 27, Tag},
	} {
		f := sample(tc.version, tc.licensee)
		f.Tag = tc.tag
		img, err := Marshal(f)
		if err != nil {
			t.Fatalf("%d/%d: Marshal: %v", tc.version, tc.licensee, err)
		}
		g, err := NewFile(bytes.NewReader(img), int64(len(img)))
		if err != nil {
			t.Fatalf("%d/%d: NewFile: %v", tc.version, tc.licensee, err)
		}
		if !reflect.DeepEqual(f, g) {
			t.Errorf("%d/%d: round trip differs:\nwrote %+v\nread  %+v", tc.version, tc.licensee, f, g)
		}
	}
}

func TestResolve(t *testing.T) {
	f := sample(69, 0)
	f.PackageName = "MyPkg"
	img, _ := Marshal(f)
	g, err := NewFile(bytes.NewReader(img), int64(len(img)))
	if err != nil {
		t.Fatal(err)
	}
	g.PackageName = "MyPkg"
	var paths []string
	for i := range g.Imports {
		r := ImportRef(i)
		c, p := g.ClassOf(r)
		paths = append(paths, g.ObjectPath(r)+" "+p+"."+c+" in "+g.ImportPackage(r))
	}
	want := []string{
		"Engine Core.Package in Engine",
		"Engine.Actor Core.Class in Engine",
		"Engine.Actor.Touching Core.ObjectProperty in Engine",
		"MyTex Core.Package in MyTex",
		"MyTex.Walls Core.Package in MyTex",
		"MyTex.Walls.Brick Engine.Texture in MyTex",
		"Core Core.Package in Core",
		"Core.Package Core.Class in Core",
		"Engine.Texture Core.Class in Engine",
		"Core.Function Core.Class in Core",
	}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("imports:\nhave %q\nwant %q", paths, want)
	}
	var exports []string
	for i := range g.Exports {
		r := ExportRef(i)
		c, p := g.ClassOf(r)
		exports = append(exports, g.ObjectPath(r)+" "+p+"."+c)
	}
	wantEx := []string{
		"MyPkg.Skins Core.Package",
		"MyPkg.Skins.Gold Engine.Texture",
		"MyPkg.MyActor Core.Class",
		"MyPkg.MyActor.Tick Core.Function",
	}
	if !reflect.DeepEqual(exports, wantEx) {
		t.Errorf("exports:\nhave %q\nwant %q", exports, wantEx)
	}
	if have, want := g.Dependencies(), []string{"Core", "Engine", "MyTex"}; !reflect.DeepEqual(have, want) {
		t.Errorf("Dependencies: have %v, want %v", have, want)
	}
	if have := g.GroupPath(ImportRef(5)); !reflect.DeepEqual(have, []string{"Walls", "Brick"}) {
		t.Errorf("GroupPath: have %v", have)
	}
	if g.ObjectName(0) != "None" || g.ObjectName(ImportRef(99)) != "" || g.ObjectName(ExportRef(99)) != "" {
		t.Errorf("ObjectName of None/out of range wrong")
	}
}

func TestWriteFileSparse(t *testing.T) {
	f := sample(128, 29)
	f.Exports[0].SerialSize = 1 << 20
	path := t.TempDir() + "/Sparse.u"
	if err := WriteFile(path, f); err != nil {
		t.Fatal(err)
	}
	g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if g.PackageName != "Sparse" {
		t.Errorf("PackageName: have %q", g.PackageName)
	}
	closer := g.closer // compared without it, closed all the same (Windows cannot remove an open file)
	g.PackageName, g.closer = "", nil
	defer func() { g.closer = closer }()
	if !reflect.DeepEqual(f, g) {
		t.Errorf("WriteFile/Open round trip differs")
	}
}

func TestUnsupportedVersions(t *testing.T) {
	for _, tc := range []struct {
		version, licensee uint16
		reason            string
	}{
		{59, 0, "older than version 60, the engine's PACKAGE_MIN_VERSION"}, {1, 0, "PACKAGE_MIN_VERSION"},
		{141, 56, "Bioshock"}, {128, 32, "America's Army 2"}, {102, 116, "Splinter Cell: Conviction"},
		{175, 0, "ShadowStrike"}, {134, 38, "Arctic Combat"}, {178, 0, "Unreal Engine 3"}, {868, 0, "Unreal Engine 3"},
	} {
		f := NewBuilder(69, 0).File
		img, _ := Marshal(f)
		img[4], img[5] = byte(tc.version), byte(tc.version>>8)
		img[6], img[7] = byte(tc.licensee), byte(tc.licensee>>8)
		_, err := NewFile(bytes.NewReader(img), int64(len(img)))
		var ue *UnsupportedError
		if !errors.As(err, &ue) || ue.Version != tc.version || ue.Licensee != tc.licensee || !strings.Contains(ue.Reason, tc.reason) {
			t.Errorf("%d/%d: have %v, want UnsupportedError naming %q", tc.version, tc.licensee, err, tc.reason)
		}
		if _, err := Marshal(&File{Header: Header{Version: tc.version, Licensee: tc.licensee}}); !errors.As(err, &ue) {
			t.Errorf("%d/%d: Marshal: have %v, want UnsupportedError", tc.version, tc.licensee, err)
		}
	}
}

func TestNotPackage(t *testing.T) {
	for _, in := range [][]byte{nil, {1, 2}, []byte("version https://git-lfs.github.com/spec/v1\n"), []byte("[Core.System]\nPaths=*.u\n")} {
		if _, err := NewFile(bytes.NewReader(in), int64(len(in))); !errors.Is(err, ErrNotPackage) {
			t.Errorf("%q: have %v, want ErrNotPackage", in, err)
		}
	}
	swapped := []byte{0x9E, 0x2A, 0x83, 0xC1, 0, 0, 0, 0}
	var ue *UnsupportedError
	if _, err := NewFile(bytes.NewReader(swapped), 8); !errors.As(err, &ue) {
		t.Errorf("big-endian tag: have %v, want UnsupportedError", err)
	}
	l2 := []byte{}
	for _, c := range "Lineage2Ver111" {
		l2 = append(l2, byte(c), 0)
	}
	if _, err := NewFile(bytes.NewReader(l2), int64(len(l2))); !errors.As(err, &ue) ||
		err.Error() != "format: unsupported package: encrypted Lineage 2 package (its header reads Lineage2Ver111; decrypt it to read it)" {
		t.Errorf("lineage 2: have %v, want UnsupportedError naming the header and no version", err)
	}
	for _, tc := range []struct{ text, want string }{
		{"Lineage2Ver121", "Lineage2Ver121"}, {"Lineage2Ver", "Lineage2Ver"}, {"Lineage2Ver12345", "Lineage2Ver123"},
		{"Lineage2Ve", ""}, {"Lineage3Ver121", ""},
	} {
		b := []byte{}
		for _, c := range tc.text {
			b = append(b, byte(c), 0)
		}
		b = append(b, 0x41, 0x42) // not UTF-16 text any more
		if have := lineage2Header(bytes.NewReader(b), int64(len(b))); have != tc.want {
			t.Errorf("%q: have %q, want %q", tc.text, have, tc.want)
		}
	}
}

func TestExportPath(t *testing.T) {
	b := NewBuilder(69, 0)
	b.File.PackageName = "Pkg"
	cls := b.ExportPath("Actor", "Class", 10)
	prop := b.ExportPath("Actor.Touching", "Core.ArrayProperty", 4)
	tex := b.ExportPath("Skins.Metal.Gold", "Engine.Texture", 8)
	if b.File.Outer(prop) != cls {
		t.Errorf("Actor.Touching's outer is %d, want the class %d", b.File.Outer(prop), cls)
	}
	for ref, want := range map[Ref]string{prop: "Pkg.Actor.Touching Core.ArrayProperty", tex: "Pkg.Skins.Metal.Gold Engine.Texture"} {
		c, p := b.File.ClassOf(ref)
		if have := b.File.ObjectPath(ref) + " " + p + "." + c; have != want {
			t.Errorf("have %q, want %q", have, want)
		}
	}
	if c, _ := b.File.ClassOf(b.File.Outer(b.File.Outer(tex))); c != "Package" {
		t.Errorf("Skins is a %s, want a group (Package)", c)
	}
}

// TestReaderReuse reads packages of every layout, big and small, with one
// Reader: each result equals what Open returns, although memory is reused.
func TestReaderReuse(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i, v := range []uint16{128, 61, 69, 64, 129} {
		f := sample(v, 0)
		for j := 0; j < 50*(i%2); j++ { // alternate big and small tables
			f.Exports = append(f.Exports, Export{ObjectName: 1, SerialSize: 4})
		}
		p := filepath.Join(dir, fmt.Sprintf("P%d.u", i))
		if err := WriteFile(p, f); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	var rd Reader
	for round := 0; round < 2; round++ {
		for _, p := range paths {
			want, err := Open(p)
			if err != nil {
				t.Fatal(err)
			}
			want.Close()
			want.closer = nil
			have, err := rd.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(want, have) {
				t.Errorf("%s: Reader result differs from Open", p)
			}
		}
	}
	if _, err := rd.Open(filepath.Join(dir, "missing.u")); err == nil {
		t.Error("no error for a missing file")
	}
}

// TestHasTag: the sniff says yes to what the reader reads as a package (a
// written package, either tag) and no to the rest: a big-endian tag, other
// data, fewer than four bytes.
func TestHasTag(t *testing.T) {
	pkg, err := Marshal(NewBuilder(69, 0).File)
	if err != nil {
		t.Fatal(err)
	}
	kf := bytes.Clone(pkg)
	kf[0] = 0xC2
	for _, tt := range []struct {
		name string
		b    []byte
		want bool
	}{
		{"written package", pkg, true},
		{"KF tag", kf, true},
		{"tag only", pkg[:4], true},
		{"three bytes", pkg[:3], false},
		{"nil", nil, false},
		{"big-endian tag", []byte{0x9E, 0x2A, 0x83, 0xC1, 0, 0, 0, 0}, false},
		{"ini", []byte("[Core.System]\n"), false},
	} {
		if have := HasTag(tt.b); have != tt.want {
			t.Errorf("%s: HasTag = %v, want %v", tt.name, have, tt.want)
		}
		_, err := NewFile(bytes.NewReader(tt.b), int64(len(tt.b)))
		if read := err == nil; tt.name != "tag only" && read != tt.want {
			t.Errorf("%s: NewFile read it: %v (%v), HasTag %v", tt.name, read, err, tt.want)
		}
	}
}
