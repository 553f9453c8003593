package uscript

// The preprocessor of licensee builds: #if, #ifdef, #ifndef, #else,
// #elif, #endif and #define lines around declarations and code. Stock UE1
// and UE2 compilers have no such directives in UnrealScript (their # lines
// are #exec and #error), but builds derived from them do, and their trees
// hold code for several targets in one file. Scan evaluates what it can
// know: #if 0 and #if 1, and #ifdef/#ifndef of a name the file itself
// #defines before. A branch it cannot evaluate (a name the build defines on
// its command line) may be inactive: its references still count as
// dependencies but are never reported as unknown (Ref.Inactive). A branch
// known to be inactive is skipped.

// Branch states on the condition stack.
const (
	condFalse   int8 = iota // known inactive
	condTrue                // known active
	condUnknown             // may be either
)

// maxCondDepth bounds the nesting of conditional blocks the parser
// follows; deeper ones count as unknown.
const maxCondDepth = 64

// preprocess handles a directive line that is a conditional or a #define
// and reports whether it was one.
func (p *parser) preprocess(t token) bool {
	line := trimBlank(p.src[t.start:t.end])
	w := 0
	for w < len(line) && isIdentByte(line[w]) {
		w++
	}
	word, rest := line[:w], trimBlank(line[w:])
	name := rest
	for k := range name {
		if !isIdentByte(name[k]) {
			name = name[:k]
			break
		}
	}
	switch {
	case equalFold(word, "if"):
		v := condUnknown
		switch string(name) {
		case "0":
			v = condFalse
		case "1":
			v = condTrue
		}
		p.push(v)
	case equalFold(word, "ifdef"), equalFold(word, "ifndef"):
		v := condUnknown
		if p.defines[string(lowerBytes(name))] {
			v = condTrue
			if equalFold(word, "ifndef") {
				v = condFalse
			}
		}
		p.push(v)
	case equalFold(word, "else"):
		if n := len(p.conds); n > 0 {
			switch p.conds[n-1] {
			case condTrue:
				p.conds[n-1] = condFalse
			case condFalse:
				p.conds[n-1] = condTrue
			}
		}
	case equalFold(word, "elif"), equalFold(word, "elseif"):
		if n := len(p.conds); n > 0 {
			if p.conds[n-1] == condTrue {
				p.conds[n-1] = condFalse // an earlier branch was taken
			} else {
				p.conds[n-1] = condUnknown
			}
		}
	case equalFold(word, "endif"):
		if n := len(p.conds); n > 0 {
			p.conds = p.conds[:n-1]
		}
	case equalFold(word, "define"):
		if !p.dead() && !p.maybeInactive() && len(name) > 0 {
			if p.defines == nil {
				p.defines = map[string]bool{}
			}
			p.defines[string(lowerBytes(name))] = true
		}
	case equalFold(word, "undef"):
		delete(p.defines, string(lowerBytes(name)))
	default:
		return false
	}
	p.condsChanged()
	return true
}

func (p *parser) push(v int8) {
	if len(p.conds) >= maxCondDepth {
		v = condUnknown
	}
	p.conds = append(p.conds, v)
}

// condsChanged recomputes the summary of the condition stack.
func (p *parser) condsChanged() {
	p.isDead, p.isMaybe = false, false
	for _, c := range p.conds {
		p.isDead = p.isDead || c == condFalse
		p.isMaybe = p.isMaybe || c == condUnknown
	}
}

// dead reports whether the parser is in a branch known to be inactive.
func (p *parser) dead() bool { return p.isDead }

// maybeInactive reports whether the parser is in a branch that may be
// inactive.
func (p *parser) maybeInactive() bool { return p.isMaybe }

// hash handles a # line: a conditional, or a directive (#exec) when the
// branch it is in is not known to be inactive.
func (p *parser) hash(t token) {
	if !p.preprocess(t) && !p.dead() {
		p.directive(t)
	}
}
