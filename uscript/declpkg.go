package uscript

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// PackageDecls is the declarations of one package's sources.
type PackageDecls struct {
	Name       string
	ClassesDir string // "" when the package has no Classes folder
	// Classes are in file-name order (ignoring case); a file that cannot be
	// read is a Diagnostic instead.
	Classes     []*Decls
	Diagnostics []Diagnostic
}

// ReadPackageDecls reads the declarations of every .uc file in
// <gameRoot>/<pkg>/Classes, finding folders as ScanPackage does. A
// package without sources is not an error: Classes is empty.
func ReadPackageDecls(gameRoot, pkg string) (*PackageDecls, error) {
	if pkg == "" || pkg == "." || pkg == ".." || strings.ContainsAny(pkg, `/\`) {
		return nil, fmt.Errorf("uscript: %q is not a package name", pkg)
	}
	var scratchPkg Package
	out := &PackageDecls{Name: pkg}
	dir, err := findEntry(gameRoot, pkg, true, &scratchPkg)
	if err != nil || dir == "" {
		return out, err
	}
	classes, err := findEntry(dir, "Classes", true, &scratchPkg)
	if err != nil || classes == "" {
		return out, err
	}
	out.ClassesDir = classes
	out.Diagnostics = append(out.Diagnostics, scratchPkg.Diagnostics...)
	entries, err := os.ReadDir(classes)
	if err != nil {
		return out, fmt.Errorf("uscript: %w", err)
	}
	var files []string
	for _, e := range entries {
		if isFile(e) && hasSuffixFold(e.Name(), ".uc") {
			files = append(files, e.Name())
		}
	}
	slices.SortFunc(files, compareNames)
	for _, name := range files {
		d, err := ReadDeclsFile(filepath.Join(classes, name))
		if err != nil {
			diag := Diagnostic{File: filepath.Join(classes, name), Msg: err.Error()}
			var se *Error
			if errors.As(err, &se) {
				diag = Diagnostic{File: se.File, Line: se.Line, Msg: se.Msg}
			}
			out.Diagnostics = append(out.Diagnostics, diag)
			continue
		}
		out.Diagnostics = append(out.Diagnostics, d.Diagnostics...)
		out.Classes = append(out.Classes, d)
	}
	return out, nil
}
