package schema

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/singer"
	"github.com/target-oracle/target-oracle/internal/value"
)

// differential runs one record through the fast plan, ValidateRaw and
// decode+Validate and reports every disagreement. It returns the fast
// plan's verdict.
func differential(t testing.TB, sch *Schema, record []byte) fastResult {
	t.Helper()
	want := sch.validateDecoded(record)
	got := sch.ValidateRaw(record)
	if errText(got) != errText(want) { // byte for byte: messages do not depend on map order
		t.Errorf("record %s:\nValidateRaw: %v\nValidate:    %v", record, got, want)
	}
	if got != nil {
		var ve *ValidationError
		if !errors.As(got, &ve) {
			t.Errorf("record %s: error %v is a %T, want *ValidationError", record, got, got)
		}
	}
	if !sch.Fast() {
		return fastUnsure
	}
	r := fastValid(sch.fast.root, record)
	switch {
	case r == fastAccept && want != nil:
		t.Errorf("record %s: the fast plan accepts it, Validate says %v", record, want)
	case r == fastAccept && jsonDepth(record) < singer.MaxDepth && singer.CheckValue(record, 1) != nil:
		// The one-pass decoder's walk is the syntax check of records the
		// reader deferred (singer.Message.DecodeRecord).
		t.Errorf("record %q: the fast plan accepts it, the reader says %v", record, singer.CheckValue(record, 1))
	case r == fastReject && want == nil && !hasDuplicateKeys(record):
		t.Errorf("record %s: the fast plan rejects it, Validate accepts it", record)
	case r == fastUnsure && want == nil && jsonDepth(record) <= maxFastDepth && !hugeExponentText.Match(record) &&
		singer.CheckValue(record, 1) == nil: // the plan leaves to Validate what the reader refuses
		t.Errorf("record %s: the fast plan cannot decide a valid record", record)
	}
	return r
}

// hugeExponentText finds numbers the walker leaves to Validate (see
// numberInfo).
var hugeExponentText = regexp.MustCompile(`[0-9][eE][+-]?0*[1-9][0-9]{18}`)

func errText(err error) string {
	if err == nil {
		return "<valid>"
	}
	return err.Error()
}

// hasDuplicateKeys reports whether some object in the JSON text repeats a
// key (after unescaping). Validate sees only the last value of such a key,
// the fast plan checks every value, so it may reject what Validate accepts.
func hasDuplicateKeys(record []byte) bool {
	d := json.NewDecoder(strings.NewReader(string(record)))
	d.UseNumber()
	type frame struct {
		keys   map[string]bool
		object bool
		expect bool // the next string token is a key
	}
	var stack []*frame
	for {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.expect {
			if k, ok := tok.(string); ok {
				if top.keys[k] {
					return true
				}
				top.keys[k] = true
				top.expect = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{keys: map[string]bool{}, object: true, expect: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].expect = true
		}
	}
}

// jsonDepth is the deepest nesting of brackets outside strings.
func jsonDepth(b []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// fastCases are records with the path of the error Validate reports ("" for
// a valid record, "record" for an error about the record itself).
var fastCases = []struct {
	name, schema string
	records      map[string]string // record → error path
}{
	{"singer", singerSchema, map[string]string{
		`{"id": 1}`:                              "",
		`{"id": 1.0}`:                            "",
		`{"id": 1e2}`:                            "",
		`{"id": 1.5e1}`:                          "",
		`{"id": 15e-1}`:                          "id",
		`{"id": -0}`:                             "",
		`{"id": -0.0e5}`:                         "",
		`{"id": 123456789012345678901234567890}`: "",
		`{"id": 1, "amount": 0.07}`:              "",
		`{"id": 1, "amount": 0.070}`:             "",
		`{"id": 1, "amount": 7e-2}`:              "",
		`{"id": 1, "amount": 0.075}`:             "amount",
		`{"id": 1, "amount": 1187.85}`:           "",
		`{"id": 1, "amount": -3}`:                "",
		`{"id": 1, "amount": 12.345}`:            "amount",
		`{"id": 1, "amount": "1.00"}`:            "amount",
		`{"id": 1, "amount": null}`:              "amount",
		`{"id": null}`:                           "id",
		`{}`:                                     "id",
		`{"\u0069d": 1}`:                         "",
		`{"i\u0064": "x"}`:                       "id",
		`{"id": 1, "name": null, "quantity": null, "updated_at": null, "address": null, "day": null, "price": null}`: "",
		`{"id": 1, "created_at": "2024-01-02T03:04:05Z"}`:                                                            "",
		`{"id": 1, "created_at": "2024-01-02 03:04:05"}`:                                                             "",
		`{"id": 1, "created_at": "2024-01-02t03:04:05.123456789-05:30"}`:                                             "",
		`{"id": 1, "created_at": "2024-01-02T03:04:05.1234567891Z"}`:                                                 "created_at",
		`{"id": 1, "created_at": "2024-01-02T03:04:05.1234567890Z"}`:                                                 "created_at",
		`{"id": 1, "created_at": "2016-12-31T23:59:60Z"}`:                                                            "created_at",
		`{"id": 1, "created_at": "2024-01-02T24:00:00Z"}`:                                                            "created_at",
		`{"id": 1, "created_at": "0001-01-01T00:30:00+01:00"}`:                                                       "created_at",
		`{"id": 1, "created_at": "2024-01-02T03:04:05\u005a"}`:                                                       "",
		`{"id": 1, "created_at": "2024-13-45"}`:                                                                      "created_at",
		`{"id": 1, "created_at": null}`:                                                                              "created_at",
		`{"id": 1, "updated_at": "yesterday"}`:                                                                       "updated_at",
		`{"id": 1, "updated_at": 5}`:                                                                                 "updated_at",
		`{"id": 1, "updated_at": null}`:                                                                              "",
		`{"id": 1, "day": "2024-02-29", "at": "12:30:00"}`:                                                           "",
		`{"id": 1, "day": "2023-02-29"}`:                                                                             "day",
		`{"id": 1, "at": "12:30:00.5+01:00"}`:                                                                        "",
		`{"id": 1, "at": "24:00:00"}`:                                                                                "at",
		`{"id": 1, "price": "12345678.90"}`:                                                                          "",
		`{"id": 1, "price": "1e400"}`:                                                                                "price",
		`{"id": 1, "price": "12,5"}`:                                                                                 "price",
		`{"id": 1, "email": "not an email", "ip": "999.1", "re": "((", "custom": "whatever"}`:                        "",
		`{"id": 1, "uuid": "123e4567-e89b-12d3-a456-426614174000", "unknown_prop": {"any": [1]}}`:                    "",
		`{"id": 1, "address": {"street": "Main", "city": null, "zip": "12345"}, "tags": ["a", "b"]}`:                 "",
		`{"id": 1, "address": {"street": 5}}`:                                                                        "address.street",
		`{"id": 1, "address": {"zip": "12345678901"}}`:                                                               "address.zip",
		`{"id": 1, "address": "Main St"}`:                                                                            "address",
		`{"id": 1, "tags": ["a", 2]}`:                                                                                "tags.1",
		`{"id": 1, "tags": []}`:                                                                                      "",
		`{"id": 1, "tags": null}`:                                                                                    "tags",
		// maxLength counts characters, not bytes or escapes
		`{"id": 1, "uuid": "ééééééééééééééééééééééééééééééééééée"}`:  "",
		`{"id": 1, "uuid": "éééééééééééééééééééééééééééééééééééée"}`: "uuid",
		`{"id": 1, "uuid": "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"}`:                                                                                                                                                                                                                         "",
		`{"id": 1, "uuid": "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\n"}`:                                                                                                                                                                                                                       "uuid",
		`{"id": 1, "uuid": "😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀"}`:                                                                                                                                                                                                                                                                                                                                                                                                             "",
		`{"id": 1, "uuid": "\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00"}`: "",
		`{"id": 1, "uuid": "\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ude00"}`:                                                                                                                                                                                                                   "",
		`{"id": 1, "uuid": "\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ud83d\ude00"}`:                                                                                                                                                                                                             "uuid",
		`{"id": 1, "level": 1}`:                                "",
		`{"id": 1, "level": 5.0}`:                              "",
		`{"id": 1, "level": 0}`:                                "level",
		`{"id": 1, "level": 6}`:                                "level",
		`{"id": 1, "level": 0.5e1}`:                            "",
		`{"id": 1, "kind": "a"}`:                               "",
		`{"id": 1, "kind": "\u0062"}`:                          "",
		`{"id": 1, "kind": "c"}`:                               "kind",
		`{"id": 1, "kind": null}`:                              "kind",
		`{"id": 1, "code": "ABC"}`:                             "",
		`{"id": 1, "code": "ab"}`:                              "code",
		`{"id": 1, "strict": {"x": "1"}}`:                      "",
		`{"id": 1, "strict": {"x": "1", "y": 2}}`:              "strict.y",
		`{"id": 1, "active": "true"}`:                          "active",
		`{"id": 1, "active": false}`:                           "",
		`{"id": 1, "amount": 1e400}`:                           "amount",
		`{"id": 1e-400}`:                                       "id",
		`{"id": 1234567890123456789012345678901234567890}`:     "id",
		`{"id": 1, "unknown": [0, {"deep": 1e999999}]}`:        "unknown.1.deep",
		`{"id": 1.` + strings.Repeat("0", MaxNumberText) + `}`: "id",
		`{"id": 1, "x": 1.` + strings.Repeat("0", 998) + `}`:   "",
		`[1]`:                                    "record",
		`"x"`:                                    "record",
		`null`:                                   "record",
		` {"id" : 1 } `:                          "",
		"{\"id\":1,\n\t\"name\":\"a\"}":          "",
		`{"id": 2, "id": 1}`:                     "",
		`{"id": "x", "id": 1}`:                   "",
		`{"id": 1, "id": "x"}`:                   "id",
		`{"id": 1, "name": "bad \x"}`:            "record",
		`{"id": 1,}`:                             "record",
		`{"id": 01}`:                             "record",
		`{"id": 1} x`:                            "record",
		`{"id": 1`:                               "record",
		``:                                       "record",
		`{"id": 1, "name": "a` + "\x01" + `"}`:   "record",
		`{"id": 0e9223372036854775807}`:          "",
		`{"id": 0e9223372036854775808}`:          "", // a zero, whatever its exponent
		`{"id": 1, "x": 0e99999999999999999999}`: "",
		`{"id": 1, "x": 1e99999999999999999999}`: "x",
		`{"id": tru}`:                            "record",
		`{"id": 1, "name": "\ud800"}`:            "",
		`{"id": 1, "name": "caf` + "\xe9" + `"}`: "",
		`{"id": 1, "custom": "` + strings.Repeat("\\n", 200) + `"}`: "",
	}},
	{"nested", `{"type": "object", "properties": {
		"orders": {"type": "array", "items": {"type": "object", "properties": {
			"sku": {"type": "string", "minLength": 2},
			"qty": {"type": "integer", "minimum": 1},
			"lines": {"type": ["array", "null"], "items": {"type": ["number", "null"], "exclusiveMaximum": 100}}},
			"required": ["sku"], "additionalProperties": false}, "minItems": 1, "maxItems": 3},
		"meta": {"anyOf": [{"type": "null"}, {"type": "object", "properties": {"v": {"const": 3}}, "required": ["v"]}]},
		"choice": {"oneOf": [{"type": "null"}, {"type": "string", "format": "date"}, {"type": "integer", "enum": [1, 2.0, 30e-1]}]},
		"ref": {"$ref": "#/definitions/money"},
		"both": {"allOf": [{"type": "string"}, {"maxLength": 3}]},
		"free": {},
		"never": false
	}, "definitions": {"money": {"type": ["number", "null"], "multipleOf": 0.25, "maximum": 1e10}}}`, map[string]string{
		`{}`:                          "",
		`{"orders": [{"sku": "ab"}]}`: "",
		`{"orders": [{"sku": "ab", "qty": 1, "lines": [1.5, null, 99.999]}]}`: "",
		`{"orders": [{"sku": "ab", "lines": [100]}]}`:                         "orders.0.lines.0",
		`{"orders": [{"sku": "ab", "lines": [100.0]}]}`:                       "orders.0.lines.0",
		`{"orders": []}`: "orders",
		`{"orders": [{"sku": "ab"}, {"sku": "ab"}, {"sku": "ab"}, {"sku": "ab"}]}`: "orders",
		`{"orders": [{"sku": "a"}]}`:            "orders.0.sku",
		`{"orders": [{"qty": 1}]}`:              "orders.0.sku",
		`{"orders": [{"sku": "ab", "qty": 0}]}`: "orders.0.qty",
		`{"orders": [{"sku": "ab", "x": 0}]}`:   "orders.0.x",
		`{"meta": null}`:                        "",
		`{"meta": {"v": 3}}`:                    "",
		`{"meta": {"v": 3.0}}`:                  "",
		`{"meta": {"v": 0.3e1}}`:                "",
		`{"meta": {"v": "3"}}`:                  "meta.v",
		`{"meta": {}}`:                          "meta.v",
		`{"meta": 1}`:                           "meta",
		`{"choice": null}`:                      "",
		`{"choice": "2024-01-31"}`:              "",
		`{"choice": "2024-01-32"}`:              "choice",
		`{"choice": 2}`:                         "",
		`{"choice": 3}`:                         "",
		`{"choice": 4}`:                         "choice",
		`{"choice": 1.5}`:                       "choice",
		`{"choice": true}`:                      "choice",
		`{"ref": 0.75}`:                         "",
		`{"ref": -1e9}`:                         "",
		`{"ref": 0.1}`:                          "ref",
		`{"ref": 1e11}`:                         "ref",
		`{"ref": null}`:                         "",
		`{"both": "abc"}`:                       "",
		`{"both": "abcd"}`:                      "both",
		`{"both": 1}`:                           "both",
		`{"free": [{"a": [1, "x", null, true, false, {}]}]}`: "",
		`{"free": [{"a": 1e500}]}`:                           "free.0.a",
		`{"never": null}`:                                    "never",
	}},
	{"enums", `{"properties": {"e": {"enum": ["a", 1, null, true]}, "c": {"const": "x"}, "n": {"type": "number", "enum": [1.5, 2]}}}`, map[string]string{
		`{"e": "a", "c": "x", "n": 1.50}`: "",
		`{"e": 1.0}`:                      "",
		`{"e": 1e0}`:                      "",
		`{"e": null}`:                     "",
		`{"e": true}`:                     "",
		`{"e": false}`:                    "e",
		`{"e": "1"}`:                      "e",
		`{"e": {}}`:                       "e",
		`{"e": ["a"]}`:                    "e",
		`{"c": {"x": 1}}`:                 "c",
		`{"c": ["x"]}`:                    "c",
		`{"c": "y"}`:                      "c",
		`{"n": 2.0}`:                      "",
		`{"n": 2.5}`:                      "n",
		`{"n": "2"}`:                      "n",
	}},
	{"draft4", `{"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {
		"a": {"type": "number", "maximum": 10, "exclusiveMaximum": true, "minimum": 0, "exclusiveMinimum": false},
		"b": {"type": "integer", "const": 5},
		"c": {"$ref": "#/definitions/c", "type": "string"}
	}, "additionalProperties": {"type": "boolean"}, "definitions": {"c": {"type": "integer"}}}`, map[string]string{
		`{"a": 9.99}`:   "",
		`{"a": 10}`:     "a",
		`{"a": 0}`:      "",
		`{"a": -0.1}`:   "a",
		`{"b": 6}`:      "", // const is not a draft 4 keyword
		`{"c": 3}`:      "", // keywords beside $ref are ignored before 2019-09
		`{"c": "x"}`:    "c",
		`{"z": true}`:   "",
		`{"z": "true"}`: "z",
	}},
	{"draft2020", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {
		"c": {"$ref": "#/$defs/c", "maximum": 5},
		"d": {"type": "string", "format": "date-time"},
		"e": {"type": "string", "format": "email"}
	}, "required": ["c"], "$defs": {"c": {"type": "integer"}}}`, map[string]string{
		`{"c": 3}`:             "",
		`{"c": 6}`:             "c",
		`{"c": "x"}`:           "c",
		`{"c": 1, "d": "bad"}`: "d",
		`{"c": 1, "e": "bad"}`: "",
		`{"c": 1, "d": "2024-01-01T00:00:00+14:00"}`: "",
	}},
	{"multiples", `{"properties": {
		"a": {"multipleOf": 0.3},
		"b": {"multipleOf": 7},
		"c": {"multipleOf": 100},
		"d": {"multipleOf": 1e-7},
		"e": {"multipleOf": 12345678901234567890123}
	}}`, map[string]string{
		`{"a": 0.9}`:                     "",
		`{"a": 1}`:                       "a",
		`{"a": -0.6e1}`:                  "",
		`{"a": "x"}`:                     "",
		`{"b": 49}`:                      "",
		`{"b": 4.9e1}`:                   "",
		`{"b": 50}`:                      "b",
		`{"b": 0.7}`:                     "b",
		`{"b": 7e30}`:                    "",
		`{"c": 1200}`:                    "",
		`{"c": 1250}`:                    "c",
		`{"c": 12e2}`:                    "",
		`{"d": 0.0000001}`:               "",
		`{"d": 0.00000015}`:              "d",
		`{"e": 24691357802469135780246}`: "",
		`{"e": 24691357802469135780247}`: "e",
		`{"e": 0}`:                       "",
	}},
	// A $ref's fragment is percent-decoded before it is split (RFC 6901
	// §6, as the library does): %2F separates tokens.
	{"ref percent", `{"type":"object","definitions":{"x":{"properties":{"y":{"type":"integer"}}},"x/properties/y":{"type":"string"}},` +
		`"properties":{"a":{"$ref":"#/definitions/x%2Fproperties%2Fy"}}}`, map[string]string{
		`{"a": 1}`:       "",
		`{"a": "hello"}`: "a",
	}},
	// A $ref into an annotation uses it as a schema; "format": "regex"
	// stays an annotation there too.
	{"ref into examples", `{"type":"object","properties":{"a":{"type":"string","examples":[{"format":"regex"}]},` +
		`"b":{"$ref":"#/properties/a/examples/0"}}}`, map[string]string{
		`{"b": "("}`: "",
	}},
}

func TestValidateRawCases(t *testing.T) {
	for _, c := range fastCases {
		sch := mustCompile(t, c.schema)
		if !sch.Fast() {
			t.Fatalf("%s: not covered by the fast plan: %s", c.name, sch.fast.why)
		}
		for record, wantPath := range c.records {
			differential(t, sch, []byte(record))
			err := sch.ValidateRaw([]byte(record))
			var ve *ValidationError
			switch {
			case wantPath == "" && err != nil:
				t.Errorf("%s: %s: got %v, want valid", c.name, record, err)
			case wantPath == "":
			case !errors.As(err, &ve):
				t.Errorf("%s: %s: got %v, want an error at %q", c.name, record, err, wantPath)
			case wantPath == "record" && len(ve.Path) != 0, wantPath != "record" && strings.Join(ve.Path, ".") != wantPath:
				t.Errorf("%s: %s: got %v, want an error at %q", c.name, record, err, wantPath)
			}
		}
	}
}

func TestFastCoverage(t *testing.T) {
	tests := []struct {
		schema string
		fast   bool
	}{
		{`{"type": "object", "properties": {"a": {"type": ["null", "string"]}}}`, true},
		// $id or $schema below the root changes how the library resolves
		// the $refs under it: left to the library.
		{`{"type":"object","definitions":{"w":{"$id":"http://example.com/w.json","definitions":{"s":{"type":"integer"}},"properties":{"v":{"$ref":"#/definitions/s"}}}},"properties":{"a":{"$ref":"#/definitions/w/properties/v"}}}`, false},
		{`{"type":"object","properties":{"a":{"$schema":"http://json-schema.org/draft-07/schema#","type":"string"}}}`, false},
		{`{"type":"object","properties":{"id":{"type":"integer"},"$id":{"type":"string"}}}`, true},
		{`{}`, true},
		{`true`, false}, // Compile takes only objects
		{`{"properties": {"a": {"not": {"type": "string"}}}}`, false},
		{`{"properties": {"a": {"if": {"type": "string"}, "then": {"maxLength": 1}}}}`, false},
		{`{"patternProperties": {"^x": {"type": "string"}}}`, false},
		{`{"dependencies": {"a": ["b"]}}`, false},
		{`{"properties": {"a": {"type": "array", "uniqueItems": true}}}`, false},
		{`{"properties": {"a": {"type": "array", "uniqueItems": false}}}`, true},
		{`{"properties": {"a": {"type": "array", "items": [{"type": "string"}]}}}`, false},
		{`{"minProperties": 1}`, false},
		{`{"properties": {"a": {"oneOf": [{"type": "number"}, {"type": "integer"}]}}}`, false},
		{`{"properties": {"a": {"oneOf": [{"type": "null"}, {"type": "string"}]}}}`, true},
		{`{"properties": {"a": {"oneOf": [{"type": "null"}, {"maxLength": 3}]}}}`, false},
		{`{"definitions": {"n": {"properties": {"next": {"$ref": "#/definitions/n"}}}}, "properties": {"head": {"$ref": "#/definitions/n"}}}`, false},
		{`{"properties": {"a": {"enum": [{"x": 1}]}}}`, false},
		{`{"properties": {"a": {"const": [1]}}}`, false},
		{`{"properties": {"a": {"maximum": 1e300}}}`, false},
		{`{"properties": {"a": {"type": "string", "format": "uuid"}}}`, true},
		{`{"properties": {"a": {"type": "string", "x-custom": {"not": 1}}}}`, true},
	}
	for _, tt := range tests {
		sch, err := Compile([]byte(tt.schema))
		if err != nil {
			if tt.fast {
				t.Errorf("Compile(%s): %v", tt.schema, err)
			}
			continue
		}
		if sch.Fast() != tt.fast {
			t.Errorf("%s: Fast() = %v (%s), want %v", tt.schema, sch.Fast(), sch.fast.why, tt.fast)
		}
	}
}

func TestDivisorMatchesValue(t *testing.T) {
	divisors := []string{"0.01", "0.3", "7", "100", "1e-7", "2.5", "0.125", "123456789012345678", "3e5", "1"}
	numbers := []string{"0", "-0", "0.07", "0.075", "0.9", "1", "49", "1250", "12e2", "7e30", "-2.5", "0.375",
		"246913578024691356", "123456789012345678e3", "1.1e-6", "300000", "9.99999999999999999999999999999999999e20"}
	for _, m := range divisors {
		dv, ok := newDivisor(json.Number(m))
		if !ok {
			t.Fatalf("newDivisor(%s) failed", m)
		}
		for _, n := range numbers {
			want, err := value.IsMultipleOf(n, m)
			if err != nil {
				t.Fatal(err)
			}
			d, ok := parseDecimal(n)
			if !ok {
				t.Fatalf("parseDecimal(%s) failed", n)
			}
			if got := dv.multiple([]byte(n), &d); got != want {
				t.Errorf("%s multiple of %s: got %v, want %v", n, m, got, want)
			}
			info, _ := value.CheckNumber(n)
			if got, known := dv.multipleByScale(info); known && got != want {
				t.Errorf("%s multiple of %s by scale: got %v, want %v", n, m, got, want)
			}
		}
	}
}

func TestCmpDecimal(t *testing.T) {
	ordered := []string{"-1e20", "-100.5", "-100", "-1", "-0.5", "-1e-100", "0", "1e-100", "0.001", "0.5", "1", "1.0000001", "10", "1e2", "100.01", "1e20"}
	for i, a := range ordered {
		for j, b := range ordered {
			da, _ := parseDecimal(a)
			db, _ := parseDecimal(b)
			want := cmpSign(i, j)
			if got := cmpDecimal(&da, &db); got != want {
				t.Errorf("cmp(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
	}
	for _, pair := range [][2]string{{"1", "1.000"}, {"100", "1e2"}, {"-0", "0.0e7"}, {"0.01", "1e-2"}} {
		da, _ := parseDecimal(pair[0])
		db, _ := parseDecimal(pair[1])
		if cmpDecimal(&da, &db) != 0 {
			t.Errorf("%s != %s", pair[0], pair[1])
		}
	}
}

func cmpSign(i, j int) int {
	switch {
	case i < j:
		return -1
	case i > j:
		return 1
	}
	return 0
}

// TestConformanceDifferential runs every RECORD of the shared conformance
// streams through ValidateRaw and Validate.
func TestConformanceDifferential(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/conformance/*/*.singer")
	if len(files) == 0 {
		t.Skip("../shared/conformance is absent: differential conformance test not run")
	}
	var records, covered int
	for _, f := range files {
		r, c := conformanceFile(t, f)
		records += r
		covered += c
	}
	t.Logf("%d records, %d of them with a schema the fast plan covers", records, covered)
	if records < 100 {
		t.Errorf("only %d records found", records)
	}
	if covered < records/2 {
		t.Errorf("the fast plan covers only %d of %d records", covered, records)
	}
}

func conformanceFile(t *testing.T, path string) (records, covered int) {
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	schemas := map[string]*Schema{}
	rd := bufio.NewReader(fh)
	for line := 1; ; line++ {
		text, err := rd.ReadBytes('\n')
		if len(text) > 0 {
			var msg struct {
				Type   string          `json:"type"`
				Stream string          `json:"stream"`
				Schema json.RawMessage `json:"schema"`
				Record json.RawMessage `json:"record"`
			}
			if json.Unmarshal(text, &msg) == nil {
				switch msg.Type {
				case "SCHEMA":
					sch, err := Compile(msg.Schema)
					if err != nil {
						sch = nil
					} else if !sch.Fast() {
						t.Logf("%s:%d: stream %q not covered: %s", filepath.Base(path), line, msg.Stream, sch.fast.why)
					}
					schemas[msg.Stream] = sch
				case "RECORD":
					if sch := schemas[msg.Stream]; sch != nil && msg.Record != nil {
						records++
						if sch.Fast() {
							covered++
						}
						differential(t, sch, msg.Record)
					}
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return records, covered
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestValidateRawAllocs checks that valid records of a covered schema are
// validated without allocating, escapes and all.
func TestValidateRawAllocs(t *testing.T) {
	sch := mustCompile(t, singerSchema)
	records := []string{
		`{"id": 1, "uuid": "123e4567-e89b-12d3-a456-426614174000", "name": "Ad\u00e9 \"L\"", "amount": 0.07,
		  "created_at": "2024-01-02T03:04:05.5\u002b05:30", "updated_at": null, "kind": "\u0062", "\u0069d": 2,
		  "address": {"street": "M\u00e4in", "zip": "é1"}, "tags": ["a", "\n"], "day": "2024-02-29", "level": 3.0,
		  "extra": [1, {"x": 1e5}], "strict": {"x": "y"}}`,
	}
	for _, r := range records {
		rec := []byte(r)
		if r := fastValid(sch.fast.root, rec); r != fastAccept {
			t.Fatalf("record %s: verdict %d, want accept", rec, r)
		}
		if n := testing.AllocsPerRun(100, func() { _ = sch.ValidateRaw(rec) }); n != 0 {
			t.Errorf("record %s: %v allocations per run, want 0", rec, n)
		}
	}
}

// TestValidateRawRandom compares the paths on random records built from
// the property names of each case's schema and values near the rules'
// edges, which byte-level fuzzing reaches only slowly.
func TestValidateRawRandom(t *testing.T) {
	scalars := []string{`null`, `true`, `false`, `0`, `-0`, `1`, `1.0`, `1e2`, `2`, `3`, `0.07`, `0.075`, `-3`, `1.5`, `0.25`,
		`100`, `100.0`, `1e10`, `1e11`, `1e400`, `49`, `0.9`, `1200`, `""`, `"a"`, `"ab"`, `"abcd"`, `"ABC"`, `"x"`, `"\u0062"`,
		`"2024-01-31"`, `"2024-02-30"`, `"2024-01-02T03:04:05Z"`, `"2024-01-02 03:04:05+01:00"`, `"12:30:00"`, `"\u00e9\u00e9"`,
		`"12345678.90"`, `"1e400"`, `"` + strings.Repeat("é", 37) + `"`}
	nameRE := regexp.MustCompile(`"([a-z_]+)":`)
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, c := range fastCases {
		sch := mustCompile(t, c.schema)
		var names []string
		for _, m := range nameRE.FindAllStringSubmatch(c.schema, -1) {
			names = append(names, m[1])
		}
		var gen func(depth int) string
		gen = func(depth int) string {
			switch k := rnd.IntN(10); {
			case k < 6 || depth > 2:
				return scalars[rnd.IntN(len(scalars))]
			case k < 8:
				var parts []string
				for range rnd.IntN(4) {
					parts = append(parts, `"`+names[rnd.IntN(len(names))]+`": `+gen(depth+1))
				}
				return "{" + strings.Join(parts, ", ") + "}"
			default:
				var parts []string
				for range rnd.IntN(4) {
					parts = append(parts, gen(depth+1))
				}
				return "[" + strings.Join(parts, ", ") + "]"
			}
		}
		verdicts := map[fastResult]int{}
		for range 3000 {
			var parts []string
			for range rnd.IntN(6) {
				parts = append(parts, `"`+names[rnd.IntN(len(names))]+`": `+gen(1))
			}
			verdicts[differential(t, sch, []byte("{"+strings.Join(parts, ", ")+"}"))]++
		}
		if verdicts[fastAccept] == 0 || verdicts[fastReject] == 0 {
			t.Errorf("%s: verdicts %v: the generator misses a side", c.name, verdicts)
		}
	}
}

// const and enum values are data: the rewrite that keeps "format": "regex"
// an annotation must leave them as they are.
func TestRegexRewriteSparesData(t *testing.T) {
	sch := mustCompile(t, `{"type":"object","properties":{"c":{"enum":[{"format":"regex"}]},"k":{"const":{"format":"regex"}}}}`)
	for record, valid := range map[string]bool{
		`{"c": {"format": "regex"}, "k": {"format": "regex"}}`: true,
		`{"c": {}}`: false,
		`{"k": {}}`: false,
	} {
		if err := sch.ValidateRaw([]byte(record)); (err == nil) != valid {
			t.Errorf("%s: %v, want valid %v", record, err, valid)
		}
	}
}

// PlainNumberAt hands the row builder the scan of the number Check just
// accepted, and nothing for a value Check did not scan as a number, even
// where an earlier Check scanned one at the same place.
func TestPlainNumberAt(t *testing.T) {
	s := mustCompile(t, `{"type": ["string", "number"]}`)
	root, ok := s.FastRoot()
	if !ok {
		t.Fatal("no fast plan")
	}
	var c Checker
	for _, tc := range []struct {
		in      string
		dot     int
		isPlain bool
	}{
		{`12.50`, 2, true},
		{`-7`, -1, true},
		{`"12.50"`, 0, false}, // a string at the same place as the number before
		{`1.5e3`, 0, false},
		{`1234567890123456789012345678901234567.8`, 0, false}, // 39 bytes: AppendCanonicalNumber decides
		{`0.000`, 1, true},
		{`1234567`, -1, true},
		{`"12345"`, 0, false}, // as long as the number before: only Check's reset tells them apart
	} {
		end, ok := c.Check(root, []byte(tc.in), 0, 2)
		if !ok || end != len(tc.in) {
			t.Fatalf("Check(%s) = %d, %v", tc.in, end, ok)
		}
		dot, plain := c.PlainNumberAt(0, end)
		if plain != tc.isPlain || plain && dot != tc.dot {
			t.Errorf("PlainNumberAt after %s = %d, %v; want %d, %v", tc.in, dot, plain, tc.dot, tc.isPlain)
		}
		if _, plain := c.PlainNumberAt(0, end-1); plain {
			t.Errorf("PlainNumberAt(0, %d) after %s: another value's end accepted", end-1, tc.in)
		}
	}
}
