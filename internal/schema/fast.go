package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The fast plan validates a record from its JSON bytes in one pass, without
// decoding it into maps, for the keyword subset Singer taps use. It is built
// once per schema by Compile and decides only whether a record is valid:
// a record it accepts is one Validate accepts, and a record it does not
// accept is decoded and handed to Validate, which then words the error. So
// ValidateRaw and Validate agree on every record by construction, as long as
// the plan never accepts what Validate rejects; the differential tests and
// the fuzz target check that, and that the plan rejects only what Validate
// rejects.
//
// A schema that uses anything outside the subset is not covered at all
// (Fast reports false) and every record goes through Validate.

// fastPlan is a compiled fast plan, or the reason there is none.
type fastPlan struct {
	root *fnode // nil when the schema is not covered
	why  string // why root is nil, for tests and logs
}

// ValidateRaw validates one record given as its exact JSON bytes. It gives
// the same accept/reject decision as Validate on the record decoded by
// encoding/json with UseNumber, and on rejection the same *ValidationError
// (path and message), since that error comes from Validate. Bytes that are
// not one JSON value give a *ValidationError with an empty path. For
// schemas the fast plan does not cover, it decodes and calls Validate.
//
// ValidateRaw does not allocate for a valid record of a covered schema,
// except for "pattern" checks, a multipleOf divisor with more than 18
// digits, and escaped keys or checked strings longer than 128 bytes once
// unescaped. anyOf/oneOf/allOf walk the value once per branch tried (a
// branch whose "type" rules the value out is skipped), like Validate.
func (s *Schema) ValidateRaw(record []byte) error {
	if s.fast != nil && s.fast.root != nil && fastValid(s.fast.root, record) == fastAccept {
		return nil
	}
	return s.validateDecoded(record)
}

// Fast reports whether the fast plan covers this schema, that is, whether
// ValidateRaw checks valid records without decoding them.
func (s *Schema) Fast() bool { return s.fast != nil && s.fast.root != nil }

// validateDecoded decodes the record like the pipeline's reader does and
// calls Validate.
func (s *Schema) validateDecoded(record []byte) error {
	d := json.NewDecoder(bytes.NewReader(record))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return &ValidationError{Msg: fmt.Sprintf("record is not valid JSON: %v", err)}
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return &ValidationError{Msg: "record is not valid JSON: unexpected data after the value"}
	}
	return s.Validate(v)
}

// buildFast compiles the fast plan of a decoded schema document (the
// output of decodeOrdered). It never fails: a schema outside the subset
// gives a plan with a nil root.
func buildFast(doc any) *fastPlan {
	b := &planBuilder{root: doc, memo: map[*object]*fnode{}, active: map[*object]bool{}}
	root, ok := doc.(*object)
	if !ok {
		return &fastPlan{why: "schema is not an object"}
	}
	b.draft = 7
	if s, ok := root.vals["$schema"].(string); ok && knownDraft(s) {
		if b.draft = draftOf(s); b.draft == 0 {
			return &fastPlan{why: fmt.Sprintf("$schema %q", s)}
		}
	}
	if nestedScope(root, b.draft) {
		// They change how the library resolves the $refs below them,
		// which the plan does not model.
		return &fastPlan{why: "a subschema below the root sets $id or $schema"}
	}
	n, err := b.node(doc, 0)
	if err != nil {
		return &fastPlan{why: err.Error()}
	}
	return &fastPlan{root: n}
}

// nestedScope reports whether a subschema below the root (in a schema
// position: properties, items, allOf, definitions, …) carries $id,
// $schema or, in draft 4, id.
func nestedScope(root any, draft int) bool {
	return eachSubschema(root, 0, true, func(o *object) bool {
		_, id := o.vals["$id"]
		_, sch := o.vals["$schema"]
		_, id4 := o.vals["id"].(string)
		return id || sch || id4 && draft == 4
	})
}
