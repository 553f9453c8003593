package cifmt

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"
)

// SARIFSchema is the schema URI a SARIF log names: the OASIS standard's
// SARIF 2.1.0 schema (errata 01), the one testdata holds.
const SARIFSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// The SARIF 2.1.0 objects written (a subset of the standard's).
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool    sarifTool     `json:"tool"`
		Results []sarifResult `json:"results"`
		// ColumnKind is stated because SARIF asks a producer that writes
		// regions to say how columns count (we write lines only).
		ColumnKind string `json:"columnKind"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string        `json:"id"`
		Name                 string        `json:"name"`
		ShortDescription     sarifText     `json:"shortDescription"`
		FullDescription      sarifText     `json:"fullDescription"`
		Help                 sarifText     `json:"help"`
		DefaultConfiguration sarifRuleConf `json:"defaultConfiguration"`
	}
	sarifRuleConf struct {
		Level Level `json:"level"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           *int              `json:"ruleIndex,omitempty"`
		Level               Level             `json:"level"`
		Message             sarifText         `json:"message"`
		Locations           []sarifLocation   `json:"locations,omitempty"`
		PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region,omitempty"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine int `json:"startLine"`
	}
)

// FingerprintKey is the partialFingerprints key of a result's Fingerprint.
const FingerprintKey = "upkdepsFinding/v1"

// WriteSARIF prints l as a SARIF 2.1.0 log of one run: one rule per Rule
// (id, name, short and full description, help, default level), one result
// per Result, located at its file (a URI relative to Root, or a file: URI
// when outside it) and line.
func WriteSARIF(w io.Writer, l *Log) error {
	drv := sarifDriver{Name: l.Tool, Version: l.Version, InformationURI: l.URI, Rules: []sarifRule{}}
	index := map[string]int{}
	for i, r := range l.Rules {
		index[r.ID] = i
		drv.Rules = append(drv.Rules, sarifRule{ID: r.ID, Name: ruleName(r.ID),
			ShortDescription: sarifText{r.Short}, FullDescription: sarifText{r.Full}, Help: sarifText{r.Help},
			DefaultConfiguration: sarifRuleConf{Level: r.Level}})
	}
	run := sarifRun{Tool: sarifTool{Driver: drv}, Results: []sarifResult{}, ColumnKind: "unicodeCodePoints"}
	for _, r := range l.sorted() {
		res := sarifResult{RuleID: r.Rule, Level: r.Level, Message: sarifText{r.Message}}
		if ri, ok := index[r.Rule]; ok {
			res.RuleIndex = &ri
		}
		if r.File != "" {
			loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: l.uri(r.File)}}}
			if r.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: r.Line}
			}
			res.Locations = []sarifLocation{loc}
		}
		if r.Fingerprint != "" {
			res.PartialFingerprints = map[string]string{FingerprintKey: r.Fingerprint}
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: SARIFSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// uri returns file as a URI reference: relative to Root, percent-encoded,
// or a file: URI when outside Root.
func (l *Log) uri(file string) string {
	rel := l.rel(file)
	if strings.HasPrefix(rel, "/") || filepath.IsAbs(filepath.FromSlash(rel)) {
		p := rel
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // C:/x -> /C:/x
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	u := (&url.URL{Path: rel}).EscapedPath()
	if first, _, _ := strings.Cut(u, "/"); strings.Contains(first, ":") {
		u = "./" + u // not a scheme
	}
	return u
}

// ruleName turns a kind into SARIF's PascalCase rule name:
// "missing_package" -> "MissingPackage".
func ruleName(id string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(id, func(r rune) bool { return r == '_' || r == '-' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}
