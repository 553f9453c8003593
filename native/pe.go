package native

import (
	"bytes"
	"debug/pe"
	"encoding/binary"
	"fmt"
	"io"
)

// peExports returns the export names of the PE file in r that may be
// class symbols (holding "autoclass": ClassFromSymbol reads no other), each
// name checked as all are. debug/pe reads
// the headers and section table; the export directory (the first data
// directory: IMAGE_EXPORT_DIRECTORY, then an array of name RVAs) is read
// here, every RVA mapped through a section's raw data and checked. Imports
// are never read, so a DLL's imports of another package's autoclass
// symbols never count.
func peExports(r io.ReaderAt, size int64, path string) ([]string, error) {
	f, err := pe.NewFile(r)
	if err != nil {
		return nil, bad(path, 0, "pe: %v", err)
	}
	// ddOff: the export data directory's offset in the file (for errors):
	// after the PE signature (at e_lfanew), the 20-byte file header and 96
	// (PE32) or 112 (PE32+) bytes of optional header.
	var lfanew [4]byte
	if err := readAt(r, lfanew[:], 0x3c, path, "dos header"); err != nil {
		return nil, err
	}
	ddOff := int64(binary.LittleEndian.Uint32(lfanew[:])) + 4 + 20
	var dd pe.DataDirectory
	switch oh := f.OptionalHeader.(type) {
	case *pe.OptionalHeader32:
		ddOff += 96
		if oh.NumberOfRvaAndSizes > 0 {
			dd = oh.DataDirectory[pe.IMAGE_DIRECTORY_ENTRY_EXPORT]
		}
	case *pe.OptionalHeader64:
		ddOff += 112
		if oh.NumberOfRvaAndSizes > 0 {
			dd = oh.DataDirectory[pe.IMAGE_DIRECTORY_ENTRY_EXPORT]
		}
	}
	if dd.VirtualAddress == 0 || dd.Size == 0 {
		return nil, errNoTable
	}
	m := peMap{f: f, size: size, path: path}
	const dirSize = 40
	dirOff, err := m.offset(dd.VirtualAddress, dirSize, "export directory", ddOff)
	if err != nil {
		return nil, err
	}
	var dir [dirSize]byte
	if err := readAt(r, dir[:], dirOff, path, "export directory"); err != nil {
		return nil, err
	}
	numNames := binary.LittleEndian.Uint32(dir[24:])
	namesRVA := binary.LittleEndian.Uint32(dir[32:])
	if numNames == 0 {
		return nil, nil
	}
	if numNames > maxExports || int64(numNames)*4 > size {
		return nil, bad(path, dirOff+24, "export directory claims %d names (limit %d)", numNames, maxExports)
	}
	tabOff, err := m.offset(namesRVA, numNames*4, "export name table", dirOff+32)
	if err != nil {
		return nil, err
	}
	tab := make([]byte, numNames*4)
	if err := readAt(r, tab, tabOff, path, "export name table"); err != nil {
		return nil, err
	}
	// The names normally lie in the export area the data directory spans:
	// read it once instead of one read per name.
	var area []byte
	if areaOff, err := m.offset(dd.VirtualAddress, dd.Size, "", ddOff); err == nil {
		area = make([]byte, dd.Size)
		if err := readAt(r, area, areaOff, path, "export area"); err != nil {
			return nil, err
		}
	}
	var names []string
	var buf []byte
	for i := range numNames {
		rva := binary.LittleEndian.Uint32(tab[i*4:])
		if rva >= dd.VirtualAddress && rva-dd.VirtualAddress < uint32(len(area)) {
			if b, ok := cBytes(area[rva-dd.VirtualAddress:]); ok {
				if mayBeClassSymbol(b) {
					names = append(names, string(b))
				}
				continue
			}
		}
		off, avail, err := m.tail(rva)
		if err != nil {
			return nil, bad(path, tabOff+int64(i)*4, "export name %d: %v", i, err)
		}
		n := min(avail, maxSymbolLen+1)
		if cap(buf) < int(n) {
			buf = make([]byte, n)
		}
		if err := readAt(r, buf[:n], off, path, "export name"); err != nil {
			return nil, err
		}
		b, ok := cBytes(buf[:n])
		if !ok {
			return nil, bad(path, off, "export name %d is not NUL-terminated within %d bytes", i, n)
		}
		if mayBeClassSymbol(b) {
			names = append(names, string(b))
		}
	}
	return names, nil
}

// mayBeClassSymbol reports whether an export name may be a class's symbol
// (ClassFromSymbol takes only names holding "autoclass"): a DLL exports
// thousands of names, of which a few dozen are.
func mayBeClassSymbol(b []byte) bool { return bytes.Contains(b, []byte(autoclass)) }

// peMap maps RVAs to file offsets through the section table.
type peMap struct {
	f    *pe.File
	size int64
	path string
}

// offset returns the file offset of the n bytes at rva, which must all lie
// in one section's raw data inside the file.
// at is the offset of the field holding rva, for the error.
func (m peMap) offset(rva, n uint32, what string, at int64) (int64, error) {
	off, avail, err := m.tail(rva)
	if err == nil && avail < int64(n) {
		err = fmt.Errorf("%d bytes at rva 0x%X run past the end of their section", n, rva)
	}
	if err != nil {
		return 0, bad(m.path, at, "%s: %v", what, err)
	}
	return off, nil
}

// tail returns the file offset of rva and how many bytes of its section's
// raw data (within the file) follow it.
func (m peMap) tail(rva uint32) (off, avail int64, err error) {
	for _, s := range m.f.Sections {
		if rva < s.VirtualAddress || int64(rva-s.VirtualAddress) >= int64(s.Size) {
			continue
		}
		off = int64(s.Offset) + int64(rva-s.VirtualAddress)
		end := min(int64(s.Offset)+int64(s.Size), m.size)
		if off >= end {
			return 0, 0, fmt.Errorf("rva 0x%X maps to offset %d, past the end of the file", rva, off)
		}
		return off, end - off, nil
	}
	return 0, 0, fmt.Errorf("rva 0x%X is in no section's file data", rva)
}
