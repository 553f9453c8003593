package native

import (
	"bytes"
	"io"
)

// scanBytes finds autoclass symbols in the raw bytes of a module that has
// no export table or symbol table: every run of name bytes (identifier
// characters and the mangling punctuation ? @ $ .) containing "autoclass"
// goes through ClassFromSymbol. The file is read in 64 KiB pieces; a run
// longer than maxSymbolLen is skipped.
func scanBytes(r io.ReaderAt, size int64, path string) ([]string, error) {
	sr := io.NewSectionReader(r, 0, size)
	buf := make([]byte, 64<<10)
	tok := make([]byte, 0, 256)
	long := false
	var classes []string
	flush := func() {
		if !long && len(tok) > len(autoclass) && bytes.Contains(tok, []byte(autoclass)) {
			if c, ok := ClassFromSymbol(string(tok)); ok {
				classes = append(classes, c)
			}
		}
		tok, long = tok[:0], false
	}
	var off int64
	for {
		n, err := sr.Read(buf)
		for _, c := range buf[:n] {
			if isIdentByte(c) || c == '?' || c == '@' || c == '$' || c == '.' {
				if len(tok) < maxSymbolLen {
					tok = append(tok, c)
				} else {
					long = true
				}
				continue
			}
			if len(tok) > 0 {
				flush()
			}
		}
		off += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, bad(path, off, "%v", err)
		}
	}
	flush()
	return sortClasses(classes), nil
}
