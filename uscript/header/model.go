package header

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
)

// MaxHeaderSize is the largest existing header ParseHeader reads (the
// biggest stock one, UT2004's EngineClasses.h, is under 300 KiB).
const MaxHeaderSize = 16 << 20

// File is what a header declares: the model both of a generated header and
// of one parsed from disk, compared by Diff.
type File struct {
	Package string
	Names   []string // AUTOGENERATE_NAME, in order
	Classes []*Class
	// FuncClasses are the classes of the AUTOGENERATE_FUNCTION lines, in
	// order, each once.
	FuncClasses []string
	// RegClasses are the classes of UE2's DECLARE_NATIVE_TYPE lines.
	RegClasses []string
	// Structs are UE2's exported structs (Name is F<Name>; Members only).
	Structs []*Class
	// Registrants are the classes of UE2's AUTO_INITIALIZE_REGISTRANTS
	// macro, in order, and Lookups those with a native lookup function
	// (lower-cased).
	Registrants []string
	Lookups     map[string]bool
	// Probes are the events whose thunk calls only if(IsProbing(NAME_X)),
	// in order.
	Probes []string
}

// Class is one exported class.
type Class struct {
	Name    string // C++ name: AActor
	Super   string
	Flags   string // the DECLARE_CLASS flags: 0|CLASS_Config
	Members []Member
	Natives []Func  // DECLARE_FUNCTION, in order
	Events  []Func  // event thunks, in order
	Enums   []Enum  // the enums written before the class
	Consts  []Const // the UCONST_ defines written before the class
	Declare string  // the DECLARE_CLASS line, trimmed
	File    string  // the source file (generated) or header (parsed)
	Line    int     // the line of the class declaration in File
}

// Member is a member variable: its C++ type (with :1 for a bitfield and
// [N] for a static array) and name.
type Member struct {
	Name   string
	Type   string
	Pack   string // the packing mark: GCC_PACK(4), GCC_ALIGN(16) or ""
	Line   int    // the line in the header
	Source int    // the line in the .uc source (generated only)
}

// Func is a native function or an event.
type Func struct {
	Name      string
	Signature string // events: the C++ return type, event or delegate, and the parameters
	Line      int
	Source    int
}

// Const is a UCONST_ define written with a class.
type Const struct {
	Name, Value string
	Line        int // the line in the header
	Source      int // the line in the .uc source (generated only)
}

// Enum is an enum written with a class.
type Enum struct {
	Name   string
	Values []string
	Line   int // the line in the header
	Source int // the line in the .uc source (generated only)
}

var (
	reClass  = &lazyRegexp{expr: `^class\s+(?:\w+\s+)?(\w+)\s*:\s*public\s+(\w+)`}
	reStruct = &lazyRegexp{expr: `^struct\s+\w+_API\s+(\w+)`}
	reConst  = &lazyRegexp{expr: `^#define UCONST_(\w+)(?: (.*))?$`}
	// A member line as the generator writes it: four spaces, the type, the
	// name (C++ of a struct's own, usually tab-indented, is not one).
	reMember = &lazyRegexp{expr: `^    (\S.*?)\s+(\w+)((?::1)|(?:\[\d+\]))?(?:\s+(GCC_(?:PACK|ALIGN)\(\d+\)))?\s*;\s*$`}
	reDeclFn = &lazyRegexp{expr: `^\s+DECLARE_FUNCTION\(exec(\w+)\);`}
	reEvent  = &lazyRegexp{expr: `^\s+(.+?)\s*\b(event|delegate)(\w+)\((.*)\)\s*$`}
	reDeclCl = &lazyRegexp{expr: `^\s+DECLARE_(?:ABSTRACT_)?CLASS\((\w+),(\w+),([^,)]*)(?:,(\w+))?\)`}
	reEnum   = &lazyRegexp{expr: `^enum\s+(\w+)`}
	reValue  = &lazyRegexp{expr: `^\s+(\w+)\s*=\s*\d+,`}
	reName   = &lazyRegexp{expr: `^AUTOGENERATE_NAME\((\w+)\)`}
	reAutoFn = &lazyRegexp{expr: `^AUTOGENERATE_FUNCTION\((\w+),`}
	reNatTyp = &lazyRegexp{expr: `^DECLARE_NATIVE_TYPE\(\w+,(\w+)\);`}
	reRegist = &lazyRegexp{expr: `^\t(\w+)::StaticClass\(\); \\$`}
	reLookup = &lazyRegexp{expr: `^\tGNativeLookupFuncs\[Lookup\+\+\] = &Find\w*Native; \\$`}
	reProbe  = &lazyRegexp{expr: `^\s+if\(IsProbing\(NAME_(\w+)\)\) \{$`}
)

// ParseHeader reads the classes, members, functions, events and enums of
// a `ucc make -h` header. It reads at most MaxHeaderSize bytes and fails on
// more; anything it does not recognise is skipped.
func ParseHeader(r io.Reader, name string) (*File, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxHeaderSize+1))
	if err != nil {
		return nil, fmt.Errorf("header: %s: %w", name, err)
	}
	if len(data) > MaxHeaderSize {
		return nil, fmt.Errorf("header: %s: more than %d bytes", name, MaxHeaderSize)
	}
	p := &headerParser{f: &File{}, name: name, seenFn: map[string]bool{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), MaxHeaderSize)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case p.st != nil:
			p.structLine(line, n)
		case p.inEnum:
			p.enumLine(line)
		case p.inClass:
			p.classLine(line, n)
		default:
			p.topLine(line, n)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("header: %s: %w", name, err)
	}
	return p.f, nil
}

// headerParser is one ParseHeader under way: where in the header it is.
type headerParser struct {
	f      *File
	name   string
	cur    *Class
	enums  []Enum
	consts []Const
	enum   *Enum
	st     *Class // an exported struct being read
	seenFn map[string]bool

	inClass, inEnum, declared bool
}

// structLine reads a line of an exported struct.
func (p *headerParser) structLine(line string, n int) {
	if strings.HasPrefix(line, "};") {
		p.f.Structs = append(p.f.Structs, p.st)
		p.st = nil
	} else if m := reMember.get().FindStringSubmatch(line); m != nil && !strings.HasPrefix(line, "     ") && !strings.Contains(m[1], "(") {
		p.st.Members = append(p.st.Members, Member{Name: m[2], Type: m[1] + m[3], Pack: m[4], Line: n})
	}
}

// enumLine reads a line of an enum.
func (p *headerParser) enumLine(line string) {
	enum := p.enum
	if m := reValue.get().FindStringSubmatch(line); m != nil {
		enum.Values = append(enum.Values, m[1])
	}
	if strings.HasPrefix(line, "};") {
		// The generator's last line is the _MAX one; a value of
		// the script may end in _MAX too (XIII's
		// XBLE_OFFERING_ALREADY_OWN_MAX).
		if k := len(enum.Values) - 1; k >= 0 && (enum.Values[k] == "MAX" || strings.HasSuffix(enum.Values[k], "_MAX")) {
			enum.Values = enum.Values[:k]
		}
		p.inEnum = false
		p.enums = append(p.enums, *enum)
	}
}

// classLine reads a line of a class.
func (p *headerParser) classLine(line string, n int) {
	f, cur := p.f, p.cur
	if strings.HasPrefix(line, "};") {
		p.inClass, p.declared = false, false
		cur.Enums, cur.Consts = p.enums, p.consts
		p.enums, p.consts = nil, nil
		f.Classes = append(f.Classes, cur)
		return
	}
	if p.declared {
		return // the class's cpptext
	}
	if m := reProbe.get().FindStringSubmatch(line); m != nil {
		f.Probes = append(f.Probes, m[1])
		return
	}
	if m := reDeclFn.get().FindStringSubmatch(line); m != nil {
		cur.Natives = append(cur.Natives, Func{Name: m[1], Line: n})
	} else if m := reDeclCl.get().FindStringSubmatch(line); m != nil {
		cur.Flags = m[3]
		cur.Declare = strings.TrimSpace(line)
		p.declared = true
		if f.Package == "" {
			f.Package = m[4]
		}
	} else if m := reEvent.get().FindStringSubmatch(line); m != nil && strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "     ") {
		cur.Events = append(cur.Events, Func{Name: m[3], Line: n, Signature: m[1] + " " + m[2] + "(" + m[4] + ")"})
	} else if m := reMember.get().FindStringSubmatch(line); m != nil && !strings.HasPrefix(line, "     ") && !strings.Contains(m[1], "(") {
		cur.Members = append(cur.Members, Member{Name: m[2], Type: m[1] + m[3], Pack: m[4], Line: n})
	}
}

// topLine reads a line outside classes, structs and enums.
func (p *headerParser) topLine(line string, n int) {
	f := p.f
	switch {
	case strings.HasPrefix(line, "enum "):
		if m := reEnum.get().FindStringSubmatch(line); m != nil {
			p.enum = &Enum{Name: m[1], Line: n}
			p.inEnum = true
		}
	case strings.HasPrefix(line, "#define UCONST_"):
		if m := reConst.get().FindStringSubmatch(line); m != nil {
			p.consts = append(p.consts, Const{Name: m[1], Value: m[2], Line: n})
		}
	case strings.HasPrefix(line, "struct "):
		if m := reStruct.get().FindStringSubmatch(line); m != nil {
			p.st = &Class{Name: m[1], File: p.name, Line: n}
		}
	case strings.HasPrefix(line, "class "):
		if m := reClass.get().FindStringSubmatch(line); m != nil {
			p.cur = &Class{Name: m[1], Super: m[2], File: p.name, Line: n}
			p.inClass = true
		}
	case strings.HasPrefix(line, "AUTOGENERATE_NAME("):
		if m := reName.get().FindStringSubmatch(line); m != nil {
			f.Names = append(f.Names, m[1])
		}
	case strings.HasPrefix(line, "\t"):
		if m := reRegist.get().FindStringSubmatch(line); m != nil {
			f.Registrants = append(f.Registrants, m[1])
		} else if reLookup.get().MatchString(line) && len(f.Registrants) > 0 {
			if f.Lookups == nil {
				f.Lookups = map[string]bool{}
			}
			f.Lookups[strings.ToLower(f.Registrants[len(f.Registrants)-1])] = true
		}
	case strings.HasPrefix(line, "DECLARE_NATIVE_TYPE("):
		if m := reNatTyp.get().FindStringSubmatch(line); m != nil {
			f.RegClasses = append(f.RegClasses, m[1])
		}
	case strings.HasPrefix(line, "AUTOGENERATE_FUNCTION("):
		if m := reAutoFn.get().FindStringSubmatch(line); m != nil && !p.seenFn[m[1]] {
			p.seenFn[m[1]] = true
			f.FuncClasses = append(f.FuncClasses, m[1])
		}
	}
}

// Hints are what an existing header says about the engine's state when it
// wrote it (see the package documentation).
type Hints struct {
	Classes     []string // C++ class names in file order
	FuncClasses []string // classes of the AUTOGENERATE_FUNCTION lines, in order
	Names       []string // AUTOGENERATE_NAME lines, in order
	RegClasses  []string // UE2: classes of the DECLARE_NATIVE_TYPE lines, in order
	// Registrants and Lookups are UE2's AUTO_INITIALIZE_REGISTRANTS
	// classes (with those the native module registers without a script)
	// and those of them with native functions, lower-cased.
	Registrants []string
	Lookups     map[string]bool
	Spellings   []string // every identifier the header declares
	// Probes are the events the header calls only when probed, and
	// Thunks all the events it has a thunk for: which events are probes
	// is the engine's name table's business.
	Probes, Thunks []string
	// ClassRefs are the C++ names of the classes the header declares,
	// derives from or names in types (UModel in class UModel*).
	ClassRefs []string
}

// HintsFrom returns the hints a parsed header gives.
func HintsFrom(f *File) *Hints {
	h := &Hints{Names: f.Names, FuncClasses: f.FuncClasses, RegClasses: f.RegClasses, Registrants: f.Registrants, Lookups: f.Lookups, Probes: f.Probes}
	for _, c := range f.Classes {
		h.Classes = append(h.Classes, c.Name)
		h.ClassRefs = append(h.ClassRefs, c.Name, c.Super)
		h.Spellings = append(h.Spellings, c.Name[1:])
		for _, e := range c.Enums {
			h.Spellings = append(h.Spellings, e.Name)
			h.Spellings = append(h.Spellings, e.Values...)
		}
		for _, m := range c.Members {
			h.Spellings = append(h.Spellings, m.Name)
			if t := structOf(m.Type); t != "" {
				h.Spellings = append(h.Spellings, t)
			}
			h.ClassRefs = append(h.ClassRefs, classRefs(m.Type)...)
		}
		for _, fn := range c.Natives {
			h.Spellings = append(h.Spellings, fn.Name)
		}
		for _, ev := range c.Events {
			h.Thunks = append(h.Thunks, ev.Name)
			h.Spellings = append(h.Spellings, ev.Name)
			h.Spellings = append(h.Spellings, paramNames(ev.Signature)...)
			h.ClassRefs = append(h.ClassRefs, classRefs(ev.Signature)...)
		}
	}
	for _, st := range f.Structs {
		h.Spellings = append(h.Spellings, st.Name[1:])
		for _, m := range st.Members {
			h.Spellings = append(h.Spellings, m.Name)
			h.ClassRefs = append(h.ClassRefs, classRefs(m.Type)...)
		}
	}
	h.Spellings = append(h.Spellings, f.Names...)
	return h
}

var reClassRef = &lazyRegexp{expr: `class ([AU]\w+)\*`}

// classRefs returns the C++ class names in "class UFoo*" types of s.
func classRefs(s string) []string {
	var out []string
	for _, m := range reClassRef.get().FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

var reIdentEnd = &lazyRegexp{expr: `(\w+)\s*$`}

// paramNames returns the parameter names of a thunk signature.
func paramNames(sig string) []string {
	open := strings.IndexByte(sig, '(')
	if open < 0 || !strings.HasSuffix(sig, ")") {
		return nil
	}
	var out []string
	for _, p := range strings.Split(sig[open+1:len(sig)-1], ",") {
		if m := reIdentEnd.get().FindStringSubmatch(p); m != nil {
			out = append(out, m[1])
		}
	}
	return out
}

// structOf returns the struct name of a member type FName (F + the name)
// or "".
func structOf(t string) string {
	t = strings.TrimSuffix(t, "*")
	if i := strings.IndexByte(t, '['); i >= 0 {
		t = t[:i]
	}
	if len(t) > 1 && t[0] == 'F' && !strings.ContainsAny(t, " <:") {
		switch t {
		case "FName", "FString", "FStringNoInit", "FLOAT", "FArray", "FMap", "FScriptDelegate":
			return ""
		}
		return t[1:]
	}
	return ""
}

// lazyRegexp is a regexp compiled on first use: a command that reads no
// header compiles none (the 19 of this package cost 159 KB and 1,268
// allocations at every start of the program when compiled at init).
type lazyRegexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}
