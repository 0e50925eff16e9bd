package schema

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/target-oracle/target-oracle/internal/value"
)

// rootURL names the schema inside the validator library. Nothing is ever
// loaded from it: the document is added as a resource and every other URL is
// refused (see refuseLoader).
const rootURL = "mem:///stream-schema.json"

// Schema is a compiled stream schema.
type Schema struct {
	// Root is the resolved property tree of the record. Root.HasProperties
	// is false for a schema without "properties" (SPEC §4 leaves it to the
	// pipeline whether that is acceptable).
	Root *Property
	// Unchecked notes each keyword dropped, not checked (pattern.go): a
	// "pattern" RE2 cannot express (lookahead, backreferences, …), a
	// "multipleOf" beyond what the validator computes exactly.
	Unchecked []string

	validator *jsonschema.Schema
	fast      *fastPlan  // see ValidateRaw
	asText    *textPaths // see KeepNumberText
}

// Compile compiles the "schema" object of a SCHEMA message. It resolves
// local $ref (#/definitions/…, #/$defs/…, "#"), merges allOf, folds
// anyOf/oneOf/type lists into TypeSet, keeps object properties in the order
// of the schema text, and builds a validator.
//
// The validator follows the schema's "$schema" when it names draft 4, 6, 7,
// 2019-09 or 2020-12; without one, draft 4 when the schema writes
// exclusiveMinimum/exclusiveMaximum as booleans (draft 4's form, as
// PipelineWise and Stitch taps send it), and draft 7 otherwise. It asserts only the date-time,
// date and time formats, by package value's rules (SPEC §4), plus the number
// syntax of x-singer.decimal strings; every other format is an annotation.
//
// An invalid schema (not an object, bad keyword types, an unresolvable or
// non-local $ref, nesting deeper than MaxDepth) is an error.
func Compile(raw []byte) (*Schema, error) {
	doc, err := decodeOrdered(raw)
	if err != nil {
		return nil, fmt.Errorf("decode schema: %w", err)
	}
	if _, ok := doc.(*object); !ok {
		return nil, errors.New("schema is not a JSON object")
	}
	if s, ok := doc.(*object).vals["$schema"].(string); !ok || !knownDraft(s) {
		// Unknown or custom metaschemas: draft 7, unless the schema is
		// written in draft 4's bounds (which draft 7 would refuse).
		readAs(doc.(*object), usesDraft4Bounds(doc))
	}
	unchecked := dropUncheckable(doc)
	libDoc := plain(doc, false).(map[string]any)
	// The property tree first: its limits are cheap to hit, while the
	// library's compile time grows with the square of the schema's size.
	r := &resolver{root: doc, active: map[*object]bool{doc.(*object): true}}
	root, err := r.build(doc, "", nil, 0)
	if err != nil {
		return nil, fmt.Errorf("invalid schema: %w", err)
	}
	if err := checkExpanded(doc); err != nil {
		return nil, fmt.Errorf("invalid schema: %w", err)
	}
	v, err := compileValidator(libDoc)
	if err != nil {
		return nil, err
	}
	if err := probe(v, root); err != nil {
		return nil, err
	}
	return &Schema{Root: root, Unchecked: unchecked, validator: v, fast: buildFast(doc)}, nil
}

// readAs sets the root's $schema to draft 4 when draft4, and removes it
// otherwise (the validator and the fast plan then read draft 7).
func readAs(root *object, draft4 bool) {
	_, had := root.vals["$schema"]
	if !draft4 {
		if had {
			delete(root.vals, "$schema")
			root.keys = slices.DeleteFunc(root.keys, func(k string) bool { return k == "$schema" })
		}
		return
	}
	if !had {
		root.keys = append(root.keys, "$schema")
	}
	root.vals["$schema"] = draft04
}

// probe validates a record with every top-level property null, once: a
// $ref loop with no schema in it (a → b → a) compiles, but the library
// reports it only when a value reaches it. Better refuse it at the SCHEMA
// than reject every record.
func probe(v *jsonschema.Schema, root *Property) error {
	rec := make(map[string]any, len(root.Properties))
	for _, p := range root.Properties {
		rec[p.Name] = nil
	}
	err := v.Validate(rec)
	var ve *jsonschema.ValidationError
	if err == nil || !errors.As(err, &ve) {
		return nil
	}
	if c := refCycle(ve); c != nil {
		// The library's internal URL says nothing to a user.
		return fmt.Errorf("invalid schema: $ref cycle with no schema in it: %s and %s both resolve to %s",
			c.KeywordLocation1, c.KeywordLocation2, strings.TrimPrefix(c.URL, rootURL))
	}
	return nil
}

// refCycle finds a reference cycle in a validation error tree.
func refCycle(ve *jsonschema.ValidationError) *kind.RefCycle {
	if c, ok := ve.ErrorKind.(*kind.RefCycle); ok {
		return c
	}
	for _, cause := range ve.Causes {
		if c := refCycle(cause); c != nil {
			return c
		}
	}
	return nil
}

func compileValidator(doc map[string]any) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	c.UseLoader(refuseLoader{})
	c.UseRegexpEngine(regexpEngine) // ECMA-262's \uXXXX as RE2's \x{XXXX} (pattern.go)
	c.AssertFormat()
	registerFormats(c)
	if err := c.AddResource(rootURL, doc); err != nil {
		return nil, fmt.Errorf("invalid schema: %w", err)
	}
	v, err := c.Compile(rootURL)
	if err != nil {
		return nil, fmt.Errorf("invalid schema: %s", describeCompileError(err, doc))
	}
	return v, nil
}

// describeCompileError shortens the library's metaschema report to the most
// specific keyword that is wrong.
func describeCompileError(err error, doc map[string]any) string {
	var sve *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	if errors.As(err, &sve) && errors.As(sve.Err, &ve) {
		e := describe(ve, doc)
		return fmt.Sprintf("keyword at /%s: %s", strings.Join(e.Path, "/"), e.Msg)
	}
	return strings.ReplaceAll(err.Error(), rootURL, "")
}

// knownDraft reports whether s is a metaschema URI the validator knows.
func knownDraft(s string) bool {
	s = strings.TrimSuffix(s, "#")
	s, ok := strings.CutPrefix(s, "http://")
	if !ok {
		s, _ = strings.CutPrefix(s, "https://")
	}
	switch s {
	case "json-schema.org/schema", "json-schema.org/draft/2020-12/schema", "json-schema.org/draft/2019-09/schema",
		"json-schema.org/draft-07/schema", "json-schema.org/draft-06/schema", "json-schema.org/draft-04/schema":
		return true
	}
	return false
}

// refuseLoader keeps the validator from reading files or the network for a
// $ref: a schema from a tap must be self-contained.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("only local $ref (#/definitions/…) is supported, not %q", url)
}

func registerFormats(c *jsonschema.Compiler) {
	// The formats the library would assert on its own are registered as
	// no-ops so that they stay annotations, as in the Singer SDK ("regex",
	// which cannot be overridden, is removed from the document instead; see
	// plain).
	for _, name := range []string{
		"json-pointer", "relative-json-pointer", "uuid", "duration", "period", "ipv4", "ipv6",
		"hostname", "email", "uri", "iri", "uri-reference", "iri-reference", "uri-template", "semver",
	} {
		c.RegisterFormat(&jsonschema.Format{Name: name, Validate: func(any) error { return nil }})
	}
	c.RegisterFormat(&jsonschema.Format{Name: "date-time", Validate: stringFormat(func(s string) error {
		_, err := value.ParseDateTime(s)
		return err
	})})
	c.RegisterFormat(&jsonschema.Format{Name: "date", Validate: stringFormat(value.CheckDate[string])})
	c.RegisterFormat(&jsonschema.Format{Name: "time", Validate: stringFormat(value.CheckTime[string])})
	c.RegisterFormat(&jsonschema.Format{Name: "x-singer.decimal", Validate: stringFormat(func(s string) error {
		_, err := value.CheckNumber(s)
		return err
	})})
}

// stringFormat applies check to strings; a format says nothing about other
// types.
func stringFormat(check func(string) error) func(any) error {
	return func(v any) error {
		if s, ok := v.(string); ok {
			return check(s)
		}
		return nil
	}
}
