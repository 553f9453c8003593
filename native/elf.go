package native

import (
	"debug/elf"
	"errors"
	"io"
)

// elfSymbols returns the names of the symbols the ELF file in r defines,
// from .dynsym and .symtab. Undefined symbols are references to other
// modules (Engine.so uses Core's autoclassUObject) and never count.
func elfSymbols(r io.ReaderAt, size int64, path string) ([]string, error) {
	f, err := elf.NewFile(r)
	if err != nil {
		return nil, bad(path, 0, "elf: %v", err)
	}
	var names []string
	found := false
	for _, typ := range []elf.SectionType{elf.SHT_DYNSYM, elf.SHT_SYMTAB} {
		s := sectionOfType(f, typ)
		if s == nil {
			continue
		}
		// Check the table's claim before debug/elf allocates for it.
		if s.Type != elf.SHT_NOBITS && (s.Offset > uint64(size) || s.Size > uint64(size)-s.Offset) {
			return nil, bad(path, int64(min(s.Offset, uint64(size))), "elf: section %s (%d bytes at %d) runs past the end of the file", s.Name, s.Size, s.Offset)
		}
		if s.Entsize != 0 && s.Size/s.Entsize > maxSymbols {
			return nil, bad(path, int64(s.Offset), "elf: section %s claims %d symbols (limit %d)", s.Name, s.Size/s.Entsize, maxSymbols)
		}
		var syms []elf.Symbol
		if typ == elf.SHT_DYNSYM {
			syms, err = f.DynamicSymbols()
		} else {
			syms, err = f.Symbols()
		}
		if errors.Is(err, elf.ErrNoSymbols) {
			continue
		}
		if err != nil {
			return nil, bad(path, int64(s.Offset), "elf: section %s: %v", s.Name, err)
		}
		found = true
		for _, sym := range syms {
			if sym.Section == elf.SHN_UNDEF || len(sym.Name) > maxSymbolLen {
				continue
			}
			names = append(names, sym.Name)
		}
	}
	if !found {
		return nil, errNoTable
	}
	return names, nil
}

func sectionOfType(f *elf.File, typ elf.SectionType) *elf.Section {
	for _, s := range f.Sections {
		if s.Type == typ {
			return s
		}
	}
	return nil
}
