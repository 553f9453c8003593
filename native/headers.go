package native

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// classMacros are the C++ macros that declare a native class in UE1 and
// UE2 headers, all taking (TClass, TSuperClass, TStaticFlags, TPackage)
// (Core/Inc/UnObjBas.h; DECLARE_WITHIN takes only the outer class and
// names no package, so it is not one of them).
var classMacros = []string{"DECLARE_CLASS", "DECLARE_ABSTRACT_CLASS", "DECLARE_BASE_CLASS"}

// maxHeaderSize caps a header file HeaderClasses reads: 16 MiB.
const maxHeaderSize = 16 << 20

// HeaderClasses returns the native classes a C++ header declares, per
// package: DECLARE_CLASS(UKMeshProps,UObject,0,Engine) declares class
// KMeshProps of package Engine. Comments and #define lines (the macros'
// own definitions) are skipped. name names the file in errors. The
// classes are in file order.
func HeaderClasses(r io.Reader, name string) (map[string][]string, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxHeaderSize+1))
	if err != nil {
		return nil, fmt.Errorf("native: %s: %w", name, err)
	}
	if len(data) > maxHeaderSize {
		return nil, fmt.Errorf("native: %s: header larger than %d bytes", name, maxHeaderSize)
	}
	src := stripComments(string(data))
	out := map[string][]string{}
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(make([]byte, 0, 4096), maxHeaderSize)
	line, continued := 0, false
	for sc.Scan() {
		line++
		text := sc.Text()
		inDefine := continued || strings.HasPrefix(strings.TrimSpace(text), "#")
		continued = inDefine && strings.HasSuffix(strings.TrimRight(text, " \t\r"), "\\")
		if inDefine {
			continue
		}
		for _, m := range classMacros {
			for rest := text; ; {
				i := strings.Index(rest, m)
				if i < 0 {
					break
				}
				before := byte(' ')
				if i > 0 {
					before = rest[i-1]
				}
				rest = rest[i+len(m):]
				after := strings.TrimLeft(rest, " \t")
				if isIdentByte(before) || !strings.HasPrefix(after, "(") {
					continue // part of a longer name
				}
				args, ok := macroArgs(after)
				if !ok || len(args) != 4 {
					return nil, fmt.Errorf("native: %s:%d: %s( does not have 4 arguments on its line", name, line, m)
				}
				class, ok := classFromIdent(args[0])
				pkg := args[3]
				if !ok || !isIdent(pkg) {
					return nil, fmt.Errorf("native: %s:%d: %s(%s,...,%s): not a class and a package name", name, line, m, args[0], pkg)
				}
				out[pkg] = append(out[pkg], class)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("native: %s:%d: %w", name, line+1, err)
	}
	return out, nil
}

// macroArgs splits "(a, (b|c), d)..." into its top-level arguments,
// trimmed; ok is false when the parentheses do not close on the line.
func macroArgs(s string) (args []string, ok bool) {
	depth, start := 0, 1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return append(args, strings.TrimSpace(s[start:i])), true
			}
		case ',':
			if depth == 1 {
				args = append(args, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return nil, false
}

// stripComments blanks C and C++ comments, keeping line breaks so line
// numbers stay right. String literals are not special: a header's
// strings do not hold comment markers next to DECLARE_CLASS.
func stripComments(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
			if i < len(s) {
				b.WriteByte('\n')
			}
		case strings.HasPrefix(s[i:], "/*"):
			i += 2
			for i < len(s) && !strings.HasPrefix(s[i:], "*/") {
				if s[i] == '\n' {
					b.WriteByte('\n')
				}
				i++
			}
			i++ // the loop's i++ skips the '/'
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
