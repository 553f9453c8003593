package testutil

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SARIFSchemaFile is the OASIS SARIF 2.1.0 schema kept for the tests
// (check/cifmt/testdata/ORIGIN.md says where it comes from), relative to
// the project root.
const SARIFSchemaFile = "check/cifmt/testdata/sarif-schema-2.1.0.json"

// SARIFSchema compiles the SARIF 2.1.0 schema.
func SARIFSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	root, err := ProjectRoot()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(root, filepath.FromSlash(SARIFSchemaFile)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// ValidateSARIF fails t unless data is a SARIF log that validates
// against the SARIF 2.1.0 schema.
func ValidateSARIF(t testing.TB, data []byte) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := SARIFSchema(t).Validate(doc); err != nil {
		t.Fatalf("SARIF does not validate against %s: %v", SARIFSchemaFile, err)
	}
}
