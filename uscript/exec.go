package uscript

import (
	"strings"

	"github.com/upkdeps/upkdeps/ini"
)

// directive records the package an #exec line loads. OBJ LOAD loads FILE=
// into PACKAGE= (its first part) or, without PACKAGE=, into the package
// named by the file's base name; either way the file must exist when the
// package is built, so its base name is a reference too. Other commands
// import raw data into this package; they count only when FILE= names a
// package file. The groups the
// line fills (PACKAGE=Pkg.Group, GROUP=Group) are remembered, so that
// Texture'Group.Tex' can resolve to the package itself.
func (p *parser) directive(t token) {
	cmd, sub, params := parseExec(p.src[t.start:t.end])
	if cmd == "" {
		return
	}
	file, pkg := params["file"], params["package"]
	target := pkg // the package, and maybe the group, the command fills
	if dot := strings.IndexByte(target, '.'); dot >= 0 {
		g := target[dot+1:]
		if k := strings.IndexByte(g, '.'); k >= 0 {
			g = g[:k]
		}
		target = target[:dot]
		if g != "" {
			p.c.groups = append(p.c.groups, group{target, g})
		}
	}
	if g := params["group"]; g != "" && !(strings.EqualFold(cmd, "obj") && strings.EqualFold(sub, "load")) {
		if k := strings.IndexByte(g, '.'); k >= 0 {
			g = g[:k]
		}
		p.c.groups = append(p.c.groups, group{target, g})
	}
	if strings.EqualFold(cmd, "obj") && strings.EqualFold(sub, "load") {
		switch {
		case pkg != "":
			if dot := strings.IndexByte(pkg, '.'); dot >= 0 {
				pkg = pkg[:dot]
			}
		case file != "":
			pkg = baseName(file)
		}
		name := file
		if name == "" {
			name = params["package"]
		}
		if pkg != "" {
			p.add(KindExec, pkg, name, "", t, 0)
		}
		// FILE= must be there when the package is built, whatever
		// PACKAGE= it is loaded into (the package being built, often).
		if base := baseName(file); base != "" && !strings.EqualFold(base, pkg) {
			p.add(KindExec, base, file, "", t, 0)
		}
		return
	}
	if base := baseName(file); base != "" && ini.IsPackageExt(extOf(file)) {
		p.add(KindExec, base, file, "", t, 0)
	}
}

// parseExec splits "exec CMD SUB KEY=VALUE ..." into the command, its first
// argument and the lower-cased keys with their (unquoted) values. It returns
// an empty command for other directives.
func parseExec(line []byte) (cmd, sub string, params map[string]string) {
	s := string(line)
	word := func() string {
		s = strings.TrimLeft(s, " \t")
		k := 0
		for k < len(s) && s[k] != ' ' && s[k] != '\t' {
			k++
		}
		w := s[:k]
		s = s[k:]
		return w
	}
	if !strings.EqualFold(word(), "exec") {
		return "", "", nil
	}
	cmd = word()
	params = map[string]string{}
	for s != "" {
		s = strings.TrimLeft(s, " \t")
		k := 0
		for k < len(s) && isIdentByte(s[k]) {
			k++
		}
		if k == 0 || k >= len(s) || s[k] != '=' {
			w := word()
			if sub == "" && !strings.Contains(w, "=") {
				sub = w
			}
			continue
		}
		key := strings.ToLower(s[:k])
		s = s[k+1:]
		var val string
		if strings.HasPrefix(s, `"`) {
			end := strings.IndexByte(s[1:], '"')
			if end < 0 {
				val, s = s[1:], ""
			} else {
				val, s = s[1:1+end], s[2+end:]
			}
		} else {
			val = word()
		}
		if _, dup := params[key]; !dup {
			params[key] = val
		}
	}
	return cmd, sub, params
}

// baseName returns the file name of a Windows or Unix path without its
// extension: ..\Textures\Foo.utx -> Foo.
func baseName(path string) string {
	if k := strings.LastIndexAny(path, `/\`); k >= 0 {
		path = path[k+1:]
	}
	return strings.TrimSuffix(path, extOf(path))
}

func extOf(path string) string {
	if k := strings.LastIndexAny(path, `/\.`); k >= 0 && path[k] == '.' {
		return path[k:]
	}
	return ""
}
