package schema

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func decode(t testing.TB, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}

func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Errorf("got %v, want valid", err)
		}
		return
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Errorf("got %v (%T), want *ValidationError %q", err, err, want)
		return
	}
	if err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
}

// singerSchema is shaped like what taps write.
const singerSchema = `{
  "type": "object",
  "properties": {
    "id": {"type": "integer"},
    "uuid": {"type": "string", "maxLength": 36},
    "name": {"type": ["null", "string"]},
    "email": {"type": ["null", "string"], "format": "email"},
    "amount": {"type": "number", "multipleOf": 0.01},
    "quantity": {"type": ["null", "integer"]},
    "active": {"type": "boolean"},
    "created_at": {"type": "string", "format": "date-time"},
    "updated_at": {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]},
    "address": {"type": ["object", "null"], "properties": {
      "street": {"type": "string"}, "city": {"type": ["null", "string"]}, "zip": {"type": "string", "maxLength": 10}}},
    "tags": {"type": "array", "items": {"type": "string"}},
    "day": {"type": ["string", "null"], "format": "date"},
    "at": {"type": "string", "format": "time"},
    "price": {"type": ["string", "null"], "format": "x-singer.decimal", "precision": 10, "scale": 2},
    "level": {"type": "integer", "minimum": 1, "maximum": 5},
    "kind": {"enum": ["a", "b"]},
    "code": {"type": "string", "pattern": "^[A-Z]+$"},
    "strict": {"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": false},
    "ip": {"type": "string", "format": "ipv4"},
    "re": {"type": "string", "format": "regex"},
    "custom": {"type": "string", "format": "my-format"}
  },
  "required": ["id"]
}`

func TestValidate(t *testing.T) {
	sch := mustCompile(t, singerSchema)
	tests := []struct{ record, want string }{
		// valid forms
		{`{"id": 1}`, ""},
		{`{"id": 1.0}`, ""},
		{`{"id": 123456789012345678901234567890}`, ""},
		{`{"id": 1, "amount": 0.07}`, ""},
		{`{"id": 1, "amount": 1187.85}`, ""},
		{`{"id": 1, "amount": -3}`, ""},
		{`{"id": 1, "name": null, "quantity": null, "updated_at": null, "address": null, "day": null, "price": null}`, ""},
		{`{"id": 1, "created_at": "2024-01-02T03:04:05Z"}`, ""},
		{`{"id": 1, "created_at": "2024-01-02 03:04:05"}`, ""},
		{`{"id": 1, "created_at": "2024-01-02T03:04:05.123456789+05:30"}`, ""},
		{`{"id": 1, "updated_at": "2024-01-02T03:04:05"}`, ""},
		{`{"id": 1, "day": "2024-02-29", "at": "12:30:00"}`, ""},
		{`{"id": 1, "price": "12345678.90"}`, ""},
		{`{"id": 1, "email": "not an email", "ip": "999.1", "re": "((", "custom": "whatever"}`, ""},
		{`{"id": 1, "uuid": "123e4567-e89b-12d3-a456-426614174000", "unknown_prop": {"any": [1]}}`, ""},
		{`{"id": 1, "address": {"street": "Main", "city": null, "zip": "12345"}, "tags": ["a", "b"]}`, ""},
		{`{"id": 1, "uuid": "ééééééééééééééééééééééééééééééééééée"}`, ""}, // 36 characters, 72 bytes
		// each failing keyword
		{`{}`, `property "id": missing required property "id"`},
		{`{"id": "abc"}`, `property "id": "abc" is not of type integer`},
		{`{"id": 1.5}`, `property "id": 1.5 is not of type integer`},
		{`{"id": null}`, `property "id": null is not of type integer`},
		{`{"id": 1, "amount": 12.345}`, `property "amount": 12.345 is not a multiple of 0.01`},
		{`{"id": 1, "amount": 0.075}`, `property "amount": 0.075 is not a multiple of 0.01`},
		{`{"id": 1, "uuid": "0123456789012345678901234567890123456"}`, `property "uuid": string of 37 characters is longer than maxLength 36`},
		{`{"id": 1, "created_at": "2024-13-45"}`, `property "created_at": "2024-13-45" is not a valid date-time: expected YYYY-MM-DDTHH:MM[:SS]`},
		{`{"id": 1, "created_at": "2024-02-30T00:00:00Z"}`, `property "created_at": "2024-02-30T00:00:00Z" is not a valid date-time: day out of range for the month`},
		{`{"id": 1, "created_at": null}`, `property "created_at": null is not of type string`},
		{`{"id": 1, "updated_at": "yesterday"}`, `property "updated_at": "yesterday" is not a valid date-time: expected YYYY-MM-DDTHH:MM[:SS]`},
		{`{"id": 1, "updated_at": 5}`, `property "updated_at": 5 is not of type string or null`},
		{`{"id": 1, "day": "2023-02-29"}`, `property "day": "2023-02-29" is not a valid date: day out of range for the month`},
		{`{"id": 1, "at": "24:00:00"}`, `property "at": "24:00:00" is not a valid time: hour out of range 00-23`},
		{`{"id": 1, "price": "12,5"}`, `property "price": "12,5" is not a valid x-singer.decimal: expected a JSON number`},
		{`{"id": 1, "price": 12.5}`, `property "price": 12.5 is not of type string or null`},
		{`{"id": 1, "address": {"street": 5}}`, `property "address.street": 5 is not of type string`},
		{`{"id": 1, "address": {"zip": "12345678901"}}`, `property "address.zip": string of 11 characters is longer than maxLength 10`},
		{`{"id": 1, "address": "Main St"}`, `property "address": "Main St" is not of type object or null`},
		{`{"id": 1, "tags": ["a", 2]}`, `property "tags.1": 2 is not of type string`},
		{`{"id": 1, "level": 0}`, `property "level": 0 is less than the minimum 1`},
		{`{"id": 1, "level": 6}`, `property "level": 6 is greater than the maximum 5`},
		{`{"id": 1, "kind": "c"}`, `property "kind": "c" is not one of the allowed values`},
		{`{"id": 1, "code": "ab"}`, `property "code": "ab" does not match the pattern "^[A-Z]+$"`},
		{`{"id": 1, "strict": {"x": "1", "y": 2}}`, `property "strict.y": property "y" is not allowed by the schema`},
		{`{"id": 1, "active": "true"}`, `property "active": "true" is not of type boolean`},
		// numbers that cannot be stored unchanged, wherever they are
		{`{"id": 1, "amount": 1e400}`, `property "amount": 1e400 is not a valid number: magnitude 1e126 or more, less expected`},
		{`{"id": 1e-400}`, `property "id": 1e-400 is not a valid number: non-zero magnitude below 1e-130, at least 1e-130 expected`},
		{`{"id": 1234567890123456789012345678901234567890}`, `property "id": 1234567890123456789012345678901234567890 is not a valid number: 39 significant digits, at most 38 expected`},
		{`{"id": 1, "unknown": [0, {"deep": 1e999999}]}`, `property "unknown.1.deep": 1e999999 is not a valid number: magnitude 1e126 or more, less expected`},
		{`{"id": 1.` + strings.Repeat("0", MaxNumberText) + `}`, `property "id": number text of 1002 characters is longer than the 1000 allowed`},
		// not an object
		{`[1]`, `record: an array is not of type object`},
	}
	for _, tt := range tests {
		checkErr(t, sch.Validate(decode(t, tt.record)), tt.want)
	}
}

func TestValidateDrafts(t *testing.T) {
	tests := []struct{ schema, record, want string }{
		{`{"$schema":"http://json-schema.org/draft-04/schema#","properties":{"a":{"type":"number","maximum":10,"exclusiveMaximum":true}}}`,
			`{"a": 10}`, `property "a": 10 is not less than the exclusive maximum 10`},
		{`{"$schema":"http://json-schema.org/draft-04/schema#","properties":{"a":{"type":"number","maximum":10,"exclusiveMaximum":true}}}`,
			`{"a": 9.99}`, ``},
		{`{"$schema":"http://json-schema.org/draft-04/schema#","properties":{"a":{"type":"number","maximum":10,"exclusiveMaximum":false}}}`,
			`{"a": 10}`, ``},
		{`{"$schema":"http://json-schema.org/draft-06/schema#","properties":{"a":{"type":"number","exclusiveMaximum":10}}}`,
			`{"a": 10}`, `property "a": 10 is not less than the exclusive maximum 10`},
		{`{"properties":{"a":{"type":"number","exclusiveMinimum":0.5}}}`,
			`{"a": 0.5}`, `property "a": 0.5 is not greater than the exclusive minimum 0.5`},
		{`{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"a":{"type":"string","format":"date-time"}}}`,
			`{"a": "bad"}`, `property "a": "bad" is not a valid date-time: expected YYYY-MM-DDTHH:MM[:SS]`},
		{`{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"a":{"type":"string","format":"email"}}}`,
			`{"a": "bad"}`, ``},
		{`{"properties":{"a":{"oneOf":[{"type":"number"},{"type":"integer"}]}}}`,
			`{"a": 1}`, `property "a": 1 matches more than one oneOf alternative`},
		{`{"properties":{"a":{"type":"number","multipleOf":0.3}}}`, `{"a": 0.9}`, ``},
		{`{"properties":{"a":{"type":"number","multipleOf":0.3}}}`, `{"a": 1}`, `property "a": 1 is not a multiple of 0.3`},
		{`{"properties":{"a":{"allOf":[{"type":"string"},{"maxLength":2}]}}}`, `{"a": "abc"}`, `property "a": string of 3 characters is longer than maxLength 2`},
		{`{"definitions":{"m":{"type":"number","multipleOf":0.01}},"properties":{"a":{"$ref":"#/definitions/m"}}}`,
			`{"a": 1.001}`, `property "a": 1.001 is not a multiple of 0.01`},
		{`{"properties":{"a":{"not":{"type":"string"}}}}`, `{"a": "x"}`, `property "a": 'not' failed`},
	}
	for _, tt := range tests {
		sch := mustCompile(t, tt.schema)
		checkErr(t, sch.Validate(decode(t, tt.record)), tt.want)
	}
}

func TestValidationErrorText(t *testing.T) {
	e := &ValidationError{Path: []string{"a", "b"}, Msg: "m"}
	if e.Error() != `property "a.b": m` {
		t.Error(e.Error())
	}
	if e := (&ValidationError{Msg: "m"}); e.Error() != "record: m" {
		t.Error(e.Error())
	}
}

func BenchmarkValidate(b *testing.B) {
	const schema = `{"type":"object","properties":{
		"id":{"type":"integer"},
		"uuid":{"type":"string","maxLength":36},
		"name":{"type":["null","string"]},
		"email":{"type":["null","string"]},
		"amount":{"type":"number","multipleOf":0.01},
		"quantity":{"type":["null","integer"]},
		"active":{"type":"boolean"},
		"created_at":{"type":"string","format":"date-time"},
		"updated_at":{"anyOf":[{"type":"string","format":"date-time"},{"type":"null"}]},
		"address":{"type":["object","null"],"properties":{"street":{"type":"string"},"city":{"type":["null","string"]},"zip":{"type":"string"}}},
		"tags":{"type":"array","items":{"type":"string"}}},
		"required":["id"]}`
	const record = `{"id":1234567,"uuid":"123e4567-e89b-12d3-a456-426614174000","name":"Ada Lovelace","email":null,
		"amount":1187.85,"quantity":42,"active":true,"created_at":"2024-01-02T03:04:05.123456Z","updated_at":"2024-01-02 03:04:05",
		"address":{"street":"1 Main St","city":"London","zip":"N1 9GU"},"tags":["a","bb","ccc"]}`
	sch := mustCompile(b, schema)
	rec := decode(b, record)
	b.ReportAllocs()
	for b.Loop() {
		if err := sch.Validate(rec); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompile measures compiling a Singer-shaped schema (done once per
// SCHEMA message).
func BenchmarkCompile(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile([]byte(singerSchema)); err != nil {
			b.Fatal(err)
		}
	}
}

// A zero with an exponent beyond int64 once made the validator library
// panic; it is a valid zero.
func TestHugeExponentZero(t *testing.T) {
	for _, kw := range []string{`"minimum":0`, `"multipleOf":0.01`, `"type":"integer"`} {
		s, err := Compile([]byte(`{"type":"object","properties":{"n":{"type":"number",` + kw + `}}}`))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.ValidateRaw([]byte(`{"n":0e9223372036854775808}`)); err != nil {
			t.Errorf("%s: %v", kw, err)
		}
		if err := s.ValidateRaw([]byte(`{"n":-1e9223372036854775808}`)); err == nil {
			t.Errorf("%s: a huge non-zero number was accepted", kw)
		}
	}
}

// Taps that write draft 4's boolean exclusive bounds without a $schema
// (PipelineWise and Stitch tap-postgres and tap-mysql, for every numeric
// column) get draft 4's meaning, on both validators; anything else
// without a $schema stays draft 7.
func TestDraft4BoundsWithoutSchemaKeyword(t *testing.T) {
	pwNumeric := `{"type":"object","properties":{"amount":{"type":["null","number"],"exclusiveMaximum":true,"maximum":1000,"exclusiveMinimum":true,"minimum":-1000,"multipleOf":0.01}}}`
	nested := `{"type":"object","properties":{"o":{"type":"object","properties":{"n":{"type":"number","maximum":5,"exclusiveMaximum":true}}}}}`
	inDefs := `{"definitions":{"n":{"type":"number","minimum":0,"exclusiveMinimum":false}},"properties":{"a":{"$ref":"#/definitions/n"}}}`
	// A property named like the keyword, with the boolean schema true,
	// is draft 6+ and no draft-4 bound.
	named := `{"properties":{"exclusiveMaximum":true,"a":{"type":"number","exclusiveMaximum":10}}}`
	tests := []struct{ schema, record, want string }{
		{pwNumeric, `{"amount": 999.99}`, ``},
		{pwNumeric, `{"amount": 1000}`, `property "amount": 1000 is not less than the exclusive maximum 1000`},
		{pwNumeric, `{"amount": -1000}`, `property "amount": -1000 is not greater than the exclusive minimum -1000`},
		{pwNumeric, `{"amount": null}`, ``},
		{nested, `{"o": {"n": 5}}`, `property "o.n": 5 is not less than the exclusive maximum 5`},
		{nested, `{"o": {"n": 4}}`, ``},
		{inDefs, `{"a": 0}`, ``},
		{inDefs, `{"a": -1}`, `property "a": -1 is less than the minimum 0`},
		{named, `{"a": 10}`, `property "a": 10 is not less than the exclusive maximum 10`},
		{named, `{"a": 9, "exclusiveMaximum": "x"}`, ``},
	}
	for _, tt := range tests {
		sch, err := Compile([]byte(tt.schema))
		if err != nil {
			t.Fatalf("%s: %v", tt.schema, err)
		}
		checkErr(t, sch.Validate(decode(t, tt.record)), tt.want)
		checkErr(t, sch.ValidateRaw([]byte(tt.record)), tt.want)
	}
	// A boolean bound beside a named draft stays that draft's error.
	if _, err := Compile([]byte(`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"maximum":1,"exclusiveMaximum":true}}}`)); err == nil {
		t.Error("draft 7 with a boolean exclusiveMaximum compiled")
	}
}
