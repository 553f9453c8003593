package uscript

import (
	"strconv"
	"strings"
)

// maybeFunction reads a function header when one starts at i (possibly
// after modifiers) and skips its body; otherwise it skips the statement.
func (r *declReader) maybeFunction(i int) (int, error) {
	mods, native, j := r.modifiers(i)
	if !r.isIdent(j) || classify(r.word(j))&kwFunction == 0 {
		if len(mods) > 0 && r.isWord(j, "state") {
			return r.skipBlock(j), nil
		}
		return r.skipStatement(j), nil
	}
	f := Func{Kind: r.lower(j), Modifiers: mods, NativeIndex: native, Line: int(r.toks[j].line)}
	j++
	if f.Kind == "event" && r.isWord(j, "function") {
		j++ // "static event function" (Wheel of Time's Legend)
	}
	if f.Kind == "function" || f.Kind == "event" {
		j = r.afterSpecifiers(j, &f)
	}
	if strings.HasSuffix(f.Kind, "operator") && r.isSym(j, '(') {
		end := r.closing(j)
		if end == j+2 {
			f.Precedence, _ = strconv.Atoi(r.text(j + 1))
		}
		j = end + 1
	}
	// Modifiers come before the keyword: what follows it is the return
	// type or the name, which may well be a modifier's word (Travel).
	// Return type and name: "Name(", "Type Name(", operators "Type Sym(".
	if f.Kind == "function" || f.Kind == "event" || f.Kind == "delegate" {
		if r.isIdent(j) && r.isSym(j+1, '(') {
			f.Name = r.text(j)
			j++
		} else {
			ret, next, ok := r.typeAt(j, 0)
			if !ok || !r.isIdent(next) || !r.isSym(next+1, '(') {
				return r.skipStatement(j), nil
			}
			f.Return = &ret
			f.Name = r.text(next)
			j = next + 1
		}
	} else {
		k, ok := r.operatorName(j, &f)
		if !ok {
			return r.skipStatement(j), nil
		}
		j = k
	}
	end := r.closing(j)
	params, err := r.params(j+1, end)
	if err != nil {
		return end, err
	}
	f.Params = params
	k := end + 1
	for r.isIdent(k) { // const, UE3 specifiers after the list
		k++
	}
	switch {
	case r.isSym(k, ';'):
		k++
	case r.isSym(k, '{'):
		f.Body = true
		k = r.closing(k) + 1
	default:
		k = r.skipStatement(k)
	}
	r.d.Funcs = append(r.d.Funcs, f)
	return k, r.count(1)
}

// operatorName reads an operator's return type and symbol from j into f
// and returns where its parameter list starts; false when there is none.
func (r *declReader) operatorName(j int, f *Func) (int, bool) {
	ret, next, ok := r.typeAt(j, 0)
	if !ok {
		return j, false
	}
	var sym strings.Builder
	k := next
	for k < len(r.toks) && k < next+3 && !r.isSym(k, '(') {
		sym.Write(r.word(k))
		k++
	}
	if !r.isSym(k, '(') {
		// "operator(16) Sym(" without a return type.
		sym.Reset()
		k = j
		for k < len(r.toks) && k < j+3 && !r.isSym(k, '(') {
			sym.Write(r.word(k))
			k++
		}
		if !r.isSym(k, '(') {
			return j, false
		}
	} else {
		f.Return = &ret
	}
	f.Symbol = sym.String()
	if !operatorSymbol(f.Symbol) {
		return j, false
	}
	f.Name = f.Symbol
	return k, true
}

// afterKeywordSpecifiers are the function specifiers UnrealScript also
// accepts after the function or event keyword (function native final
// SetTimer(...), event simulated Bar()); "function event" declares an
// event.
var afterKeywordSpecifiers = map[string]bool{
	"native": true, "intrinsic": true, "final": true, "static": true, "simulated": true, "singular": true,
	"latent": true, "iterator": true, "exec": true, "private": true, "protected": true,
}

// afterSpecifiers reads the specifiers after a function or event keyword
// at j into f and returns the index after them. A specifier's word
// followed by "(" is the function's name (function Final()), except for
// native(N) followed by more of the header.
func (r *declReader) afterSpecifiers(j int, f *Func) int {
	for r.isIdent(j) {
		w := r.lower(j)
		if w == "event" && f.Kind == "function" && !r.isSym(j+1, '(') {
			// "native static function event ClientTravel(" (XIII's
			// Engine): an event, as "event function" is.
			f.Kind = "event"
			j++
			continue
		}
		if !afterKeywordSpecifiers[w] {
			break
		}
		next := j + 1
		if r.isSym(next, '(') {
			if w != "native" && w != "intrinsic" || !(next+2 < len(r.toks) && r.toks[next+1].kind == tNumber && r.isSym(next+2, ')') && r.isIdent(next+3)) {
				break
			}
			if n, err := strconv.Atoi(r.text(next + 1)); err == nil {
				f.NativeIndex = n
			}
			next += 3
		}
		if !hasMod(f.Modifiers, w) {
			f.Modifiers = append(f.Modifiers, w)
		}
		j = next
	}
	return j
}

// params reads the parameters between the parentheses (from, end).
func (r *declReader) params(from, end int) ([]Param, error) {
	var ps []Param
	for k := from; k < end; {
		mods, _, next := r.modifiers(k)
		for r.isIdent(next) && (r.isWord(next, "out") || r.isWord(next, "optional") || r.isWord(next, "coerce") || r.isWord(next, "skip")) {
			mods = append(mods, r.lower(next))
			next++
		}
		typ, next, ok := r.typeAt(next, 0)
		if ok && r.isIdent(next) && next < end {
			p := Param{Name: r.text(next), Type: typ, Modifiers: mods, Line: int(r.toks[next].line)}
			p.Dim, _, next = r.dim(next + 1)
			ps = append(ps, p)
			if err := r.count(1); err != nil {
				return nil, err
			}
		}
		for next < end && !r.isSym(next, ',') {
			if r.isSym(next, '(') {
				next = r.closing(next)
			}
			next++
		}
		k = next + 1
	}
	return ps, nil
}

// operatorSymbols are the symbols an UnrealScript operator may have,
// besides a name (dot, cross, ClockwiseFrom).
var operatorSymbols = map[string]bool{
	"+": true, "-": true, "*": true, "/": true, "%": true, "**": true, "==": true, "!=": true,
	"<": true, ">": true, "<=": true, ">=": true, "~=": true, "<<": true, ">>": true, ">>>": true,
	"&&": true, "||": true, "^^": true, "&": true, "|": true, "^": true, "!": true, "~": true,
	"++": true, "--": true, "+=": true, "-=": true, "*=": true, "/=": true, "$": true, "@": true,
	"$=": true, "@=": true,
}

// operatorSymbol reports whether s can name an operator.
func operatorSymbol(s string) bool {
	if operatorSymbols[s] {
		return true
	}
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}
