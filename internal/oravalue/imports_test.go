package oravalue

import (
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestImportsNothingOfTheLoader keeps the value rules usable by every
// engine and the SQL layer without the Singer reader, the JSON Schema
// library or the table model (issue 17: engine, oraclesql, oracle and
// memory never import singer or schema).
func TestImportsNothingOfTheLoader(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(p, "github.com/") {
				t.Errorf("%s imports %s: the value rules import only the standard library", name, p)
			}
		}
	}
}
