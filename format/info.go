package format

import (
	"encoding/json"
	"errors"
	"fmt"
)

// InfoSchemaVersion is the schema_version of `upkdeps info --json`,
// whose files are Infos (docs/json.md).
const InfoSchemaVersion = 1

// Info is what `upkdeps info` shows of one package file: its header, the
// game it suggests, its table counts and dependencies, and the three
// tables with every import's and export's path and class resolved. Its
// JSON form is documented in docs/json.md.
type Info struct {
	Path        string           `json:"path"`
	Error       string           `json:"error,omitempty"`
	Package     string           `json:"package,omitempty"`
	Tag         string           `json:"tag,omitempty"`
	Version     int              `json:"version,omitempty"`
	Licensee    int              `json:"licensee"`
	Game        string           `json:"game,omitempty"`
	Flags       uint32           `json:"flags"`
	FlagNames   []string         `json:"flag_names"`
	GUID        string           `json:"guid,omitempty"`
	Generations []InfoGeneration `json:"generations,omitempty"`
	Heritage    []string         `json:"heritage,omitempty"`
	NameCount   int              `json:"name_count"`
	ImportCount int              `json:"import_count"`
	ExportCount int              `json:"export_count"`
	DependsOn   []string         `json:"depends_on"`
	Names       []string         `json:"names"`
	Imports     []InfoImport     `json:"imports"`
	Exports     []InfoExport     `json:"exports"`
	// Offsets are the name, import and export tables' offsets, and
	// NameFlags each name's flags: shown in text, not in JSON.
	Offsets   [3]int32 `json:"-"`
	NameFlags []uint32 `json:"-"`
}

// MarshalJSON writes a file that could not be read as {"path", "error"}.
func (r Info) MarshalJSON() ([]byte, error) { return json.Marshal(r.JSONValue()) }

// plainInfo is Info without its MarshalJSON: the encoder writes it
// directly, where a Marshaler's bytes are parsed once more to be checked.
type plainInfo Info

// JSONValue is what r's JSON form encodes: the report, or only its path
// and error when the file could not be read.
func (r Info) JSONValue() any {
	if r.Error != "" {
		return struct {
			Path  string `json:"path"`
			Error string `json:"error"`
		}{r.Path, r.Error}
	}
	return plainInfo(r)
}

// InfoGeneration is one entry of a UE2 header's generation table.
type InfoGeneration struct {
	ExportCount int32 `json:"export_count"`
	NameCount   int32 `json:"name_count"`
}

// InfoImport is one import: its dotted path and its class.
type InfoImport struct {
	Path         string `json:"path"`
	Class        string `json:"class"`
	ClassPackage string `json:"class_package"`
}

// InfoExport is one export: its dotted path, class, superclass (for a
// class or struct), flags and where its data lies.
type InfoExport struct {
	Path         string `json:"path"`
	Class        string `json:"class"`
	ClassPackage string `json:"class_package"`
	Super        string `json:"super,omitempty"`
	ObjectFlags  uint32 `json:"object_flags"`
	SerialSize   int32  `json:"serial_size"`
	SerialOffset int32  `json:"serial_offset"`
}

// ReadInfo reads the header and tables of the package at path into an
// Info (a file that cannot be read is an Info with Error set).
func ReadInfo(path string) Info {
	r := Info{Path: path}
	f, err := Open(path)
	if err != nil {
		var pe *PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		r.Error = err.Error()
		return r
	}
	defer f.Close()
	h := f.Header
	r.Package = f.PackageName
	r.Tag = fmt.Sprintf("%08X", h.Tag)
	r.Version, r.Licensee = int(h.Version), int(h.Licensee)
	r.Game = f.Game()
	r.Flags, r.FlagNames = uint32(h.Flags), h.Flags.Names()
	r.GUID = h.GUID.String()
	for _, g := range h.Generations {
		r.Generations = append(r.Generations, InfoGeneration(g))
	}
	for _, g := range h.Heritage {
		r.Heritage = append(r.Heritage, g.String())
	}
	r.NameCount, r.ImportCount, r.ExportCount = len(f.Names), len(f.Imports), len(f.Exports)
	r.Offsets = [3]int32{h.NameOffset, h.ImportOffset, h.ExportOffset}
	r.DependsOn = f.Dependencies()
	if r.FlagNames == nil {
		r.FlagNames = []string{}
	}
	r.Names = make([]string, len(f.Names))
	r.NameFlags = make([]uint32, len(f.Names))
	for i, n := range f.Names {
		r.Names[i], r.NameFlags[i] = n.Name, n.Flags
	}
	r.Imports = make([]InfoImport, len(f.Imports))
	for i := range f.Imports {
		ref := ImportRef(i)
		c, p := f.ClassOf(ref)
		r.Imports[i] = InfoImport{Path: f.ObjectPath(ref), Class: c, ClassPackage: p}
	}
	r.Exports = make([]InfoExport, len(f.Exports))
	for i, ex := range f.Exports {
		ref := ExportRef(i)
		c, p := f.ClassOf(ref)
		e := InfoExport{Path: f.ObjectPath(ref), Class: c, ClassPackage: p,
			ObjectFlags: ex.ObjectFlags, SerialSize: ex.SerialSize, SerialOffset: ex.SerialOffset}
		if !ex.Super.IsNull() {
			e.Super = f.ObjectName(ex.Super)
		}
		r.Exports[i] = e
	}
	return r
}
