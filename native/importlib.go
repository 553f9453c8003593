package native

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"strconv"
	"strings"
)

// importLibSymbols returns the symbol names of the short import objects in
// an MSVC import library (a COFF archive, "!<arch>\n"): one member per
// exported name, a 20-byte header (0x0000, 0xFFFF, version, machine, time,
// size of data, ordinal/hint, type) then the symbol name and the DLL name,
// both NUL-terminated (Microsoft PE/COFF specification, "Import Library
// Format"). Members for another DLL than pkg's are skipped. An import
// library lists exactly the DLL's exports, so it stands in for the DLL where
// only the SDK's .lib is public (UT2004).
func importLibSymbols(r io.ReaderAt, size int64, path, pkg string) ([]string, error) {
	br := bufio.NewReaderSize(io.NewSectionReader(r, 0, size), 64<<10)
	off := int64(8)
	if _, err := br.Discard(8); err != nil {
		return nil, bad(path, 0, "archive: %v", err)
	}
	var names []string
	var hdr [60]byte
	var imp [20]byte
	data := make([]byte, 0, 256)
	for members := 0; off < size; members++ {
		if members >= maxExports {
			return nil, bad(path, off, "archive has more than %d members", maxExports)
		}
		if off%2 == 1 { // members start on even offsets
			if _, err := br.Discard(1); err != nil {
				return nil, bad(path, off, "archive: %v", err)
			}
			off++
			if off == size {
				break
			}
		}
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			return nil, bad(path, off, "archive member header: %v", eofIsTruncated(err))
		}
		if string(hdr[58:60]) != "`\n" {
			return nil, bad(path, off+58, "archive member header does not end in \"`\\n\"")
		}
		msize, err := strconv.ParseInt(strings.TrimSpace(string(hdr[48:58])), 10, 64)
		if err != nil || msize < 0 || msize > size-off-60 {
			return nil, bad(path, off+48, "archive member size %q is invalid or runs past the end of the file", strings.TrimSpace(string(hdr[48:58])))
		}
		off += 60
		rest := msize
		if msize >= 20 {
			if _, err := io.ReadFull(br, imp[:]); err != nil {
				return nil, bad(path, off, "archive member: %v", eofIsTruncated(err))
			}
			rest -= 20
			sig1, sig2 := binary.LittleEndian.Uint16(imp[0:]), binary.LittleEndian.Uint16(imp[2:])
			if sig1 == 0 && sig2 == 0xFFFF {
				n := int64(binary.LittleEndian.Uint32(imp[12:]))
				if n > rest {
					return nil, bad(path, off+12, "import object claims %d bytes of names, member has %d", n, rest)
				}
				if n <= 2*maxSymbolLen+2 {
					data = data[:n]
					if _, err := io.ReadFull(br, data); err != nil {
						return nil, bad(path, off+20, "import object: %v", eofIsTruncated(err))
					}
					rest -= n
					sym, ok1 := cString(data)
					var dll string
					ok2 := false
					if ok1 {
						dll, ok2 = cString(data[len(sym)+1:])
					}
					if !ok1 || !ok2 {
						return nil, bad(path, off+20, "import object names are not NUL-terminated")
					}
					if strings.EqualFold(PackageOf(dll), pkg) {
						names = append(names, sym)
					}
				}
			}
		}
		if _, err := br.Discard(int(rest)); err != nil {
			return nil, bad(path, off, "archive member: %v", eofIsTruncated(err))
		}
		off += msize
	}
	return names, nil
}

func eofIsTruncated(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("file is truncated")
	}
	return err
}
