package native

import (
	"bytes"
	"debug/elf"
	"debug/pe"
	"encoding/binary"
	"fmt"
)

// Test fixtures: minimal PE, ELF and import library files written here,
// never copied from a game.

// peOpts describes a PE file for buildPE.
type peOpts struct {
	is64    bool
	exports []string // export names, in order
	noTable bool     // leave the export data directory empty
	extra   []byte   // appended to the section data (for the byte scan)
}

// PE layout of buildPE's output: headers, then one section .edata at RVA
// 0x1000 and file offset 0x200 holding the export directory (40 bytes),
// the function and ordinal tables, the name pointer table and the names.
const (
	peLfanew     = 0x40
	peSectionRVA = 0x1000
	peSectionOff = 0x200
)

func buildPE(o peOpts) []byte {
	n := uint32(len(o.exports))
	var sec bytes.Buffer
	funcs := uint32(40)
	ords := funcs + 4*n
	namePtrs := ords + 2*n
	strs := namePtrs + 4*n
	dllName := strs
	var names bytes.Buffer
	names.WriteString("Test.dll\x00")
	ptrs := make([]uint32, n)
	for i, e := range o.exports {
		ptrs[i] = peSectionRVA + strs + uint32(names.Len())
		names.WriteString(e + "\x00")
	}
	le := binary.LittleEndian
	put := func(v any) { binary.Write(&sec, le, v) }
	put([]uint32{0, 0, 0, peSectionRVA + dllName, 1, n, n, peSectionRVA + funcs, peSectionRVA + namePtrs, peSectionRVA + ords})
	put(make([]uint32, n))
	for i := range n {
		put(uint16(i))
	}
	put(ptrs)
	sec.Write(names.Bytes())
	exportSize := uint32(sec.Len())
	sec.Write(o.extra)
	for sec.Len()%0x200 != 0 {
		sec.WriteByte(0)
	}

	var b bytes.Buffer
	dos := make([]byte, peLfanew)
	copy(dos, "MZ")
	le.PutUint32(dos[0x3c:], peLfanew)
	b.Write(dos)
	b.WriteString("PE\x00\x00")
	fh := pe.FileHeader{Machine: pe.IMAGE_FILE_MACHINE_I386, NumberOfSections: 1, Characteristics: pe.IMAGE_FILE_DLL}
	var dd [16]pe.DataDirectory
	if !o.noTable {
		dd[pe.IMAGE_DIRECTORY_ENTRY_EXPORT] = pe.DataDirectory{VirtualAddress: peSectionRVA, Size: exportSize}
	}
	if o.is64 {
		fh.Machine = pe.IMAGE_FILE_MACHINE_AMD64
		fh.SizeOfOptionalHeader = 240
		binary.Write(&b, le, fh)
		binary.Write(&b, le, pe.OptionalHeader64{Magic: 0x20b, SectionAlignment: 0x1000, FileAlignment: 0x200,
			SizeOfImage: 0x2000 + uint32(sec.Len()), SizeOfHeaders: peSectionOff, NumberOfRvaAndSizes: 16, DataDirectory: dd})
	} else {
		fh.SizeOfOptionalHeader = 224
		binary.Write(&b, le, fh)
		binary.Write(&b, le, pe.OptionalHeader32{Magic: 0x10b, SectionAlignment: 0x1000, FileAlignment: 0x200,
			SizeOfImage: 0x2000 + uint32(sec.Len()), SizeOfHeaders: peSectionOff, NumberOfRvaAndSizes: 16, DataDirectory: dd})
	}
	sh := pe.SectionHeader32{VirtualSize: uint32(sec.Len()), VirtualAddress: peSectionRVA,
		SizeOfRawData: uint32(sec.Len()), PointerToRawData: peSectionOff, Characteristics: 0x40000040}
	copy(sh.Name[:], ".edata")
	binary.Write(&b, le, sh)
	for b.Len() < peSectionOff {
		b.WriteByte(0)
	}
	b.Write(sec.Bytes())
	return b.Bytes()
}

// elfSym is a symbol for buildELF: defined ones get section index 1.
type elfSym struct {
	name    string
	defined bool
}

// buildELF writes a shared object with the given .dynsym and .symtab
// symbols; a nil slice leaves that table out.
func buildELF(is64 bool, dynsym, symtab []elfSym) []byte {
	le := binary.LittleEndian
	type section struct {
		name       string
		typ        elf.SectionType
		data       []byte
		link       uint32
		entsize    uint32
		off        uint32
		nameOffset uint32
	}
	secs := []*section{{}} // index 0: the null section
	addTable := func(symName, strName string, typ elf.SectionType, syms []elfSym) {
		var str bytes.Buffer
		str.WriteByte(0)
		var tab bytes.Buffer
		entsize := uint32(16)
		if is64 {
			entsize = 24
			binary.Write(&tab, le, elf.Sym64{})
		} else {
			binary.Write(&tab, le, elf.Sym32{})
		}
		for _, s := range syms {
			nameOff := uint32(str.Len())
			str.WriteString(s.name + "\x00")
			var shndx uint16
			if s.defined {
				shndx = 1
			}
			info := elf.ST_INFO(elf.STB_GLOBAL, elf.STT_OBJECT)
			if is64 {
				binary.Write(&tab, le, elf.Sym64{Name: nameOff, Info: info, Shndx: shndx, Size: 8})
			} else {
				binary.Write(&tab, le, elf.Sym32{Name: nameOff, Info: info, Shndx: shndx, Size: 4})
			}
		}
		strIndex := uint32(len(secs) + 1)
		secs = append(secs,
			&section{name: symName, typ: typ, data: tab.Bytes(), link: strIndex, entsize: entsize},
			&section{name: strName, typ: elf.SHT_STRTAB, data: str.Bytes()})
	}
	if dynsym != nil {
		addTable(".dynsym", ".dynstr", elf.SHT_DYNSYM, dynsym)
	}
	if symtab != nil {
		addTable(".symtab", ".strtab", elf.SHT_SYMTAB, symtab)
	}
	var shstr bytes.Buffer
	shstr.WriteByte(0)
	shstrtab := &section{name: ".shstrtab", typ: elf.SHT_STRTAB}
	secs = append(secs, shstrtab)
	for _, s := range secs[1:] {
		s.nameOffset = uint32(shstr.Len())
		shstr.WriteString(s.name + "\x00")
	}
	shstrtab.data = shstr.Bytes()

	ehsize, shentsize := 52, 40
	if is64 {
		ehsize, shentsize = 64, 64
	}
	var body bytes.Buffer
	body.Write(make([]byte, ehsize))
	for _, s := range secs[1:] {
		for body.Len()%8 != 0 {
			body.WriteByte(0)
		}
		s.off = uint32(body.Len())
		body.Write(s.data)
	}
	for body.Len()%8 != 0 {
		body.WriteByte(0)
	}
	shoff := body.Len()
	for _, s := range secs {
		if is64 {
			binary.Write(&body, le, elf.Section64{Name: s.nameOffset, Type: uint32(s.typ), Off: uint64(s.off),
				Size: uint64(len(s.data)), Link: s.link, Addralign: 1, Entsize: uint64(s.entsize)})
		} else {
			binary.Write(&body, le, elf.Section32{Name: s.nameOffset, Type: uint32(s.typ), Off: s.off,
				Size: uint32(len(s.data)), Link: s.link, Addralign: 1, Entsize: s.entsize})
		}
	}
	out := body.Bytes()
	var ident [16]byte
	copy(ident[:], "\x7fELF")
	ident[elf.EI_CLASS] = byte(elf.ELFCLASS32)
	ident[elf.EI_DATA] = byte(elf.ELFDATA2LSB)
	ident[elf.EI_VERSION] = byte(elf.EV_CURRENT)
	var hdr bytes.Buffer
	if is64 {
		ident[elf.EI_CLASS] = byte(elf.ELFCLASS64)
		binary.Write(&hdr, le, elf.Header64{Ident: ident, Type: uint16(elf.ET_DYN), Machine: uint16(elf.EM_X86_64),
			Version: uint32(elf.EV_CURRENT), Shoff: uint64(shoff), Ehsize: uint16(ehsize),
			Shentsize: uint16(shentsize), Shnum: uint16(len(secs)), Shstrndx: uint16(len(secs) - 1)})
	} else {
		binary.Write(&hdr, le, elf.Header32{Ident: ident, Type: uint16(elf.ET_DYN), Machine: uint16(elf.EM_386),
			Version: uint32(elf.EV_CURRENT), Shoff: uint32(shoff), Ehsize: uint16(ehsize),
			Shentsize: uint16(shentsize), Shnum: uint16(len(secs)), Shstrndx: uint16(len(secs) - 1)})
	}
	copy(out, hdr.Bytes())
	return out
}

// importSym is one short import object for buildImportLib.
type importSym struct{ sym, dll string }

// buildImportLib writes an MSVC-style import library: a linker member
// (content irrelevant here) then one short import object per symbol.
func buildImportLib(syms []importSym) []byte {
	var b bytes.Buffer
	b.WriteString("!<arch>\n")
	member := func(name string, data []byte) {
		fmt.Fprintf(&b, "%-16s%-12s%-6s%-6s%-8s%-10d`\n", name, "0", "", "", "0", len(data))
		b.Write(data)
		if b.Len()%2 == 1 {
			b.WriteByte('\n')
		}
	}
	member("/", []byte{0, 0, 0, 0, 1})
	for _, s := range syms {
		names := s.sym + "\x00" + s.dll + "\x00"
		var obj bytes.Buffer
		le := binary.LittleEndian
		binary.Write(&obj, le, []uint16{0, 0xFFFF, 0, pe.IMAGE_FILE_MACHINE_I386})
		binary.Write(&obj, le, []uint32{0, uint32(len(names))})
		binary.Write(&obj, le, []uint16{0, 1 | 3<<2}) // data import, name undecorated
		obj.WriteString(names)
		member(s.dll+"/", obj.Bytes())
	}
	return b.Bytes()
}
