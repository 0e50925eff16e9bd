package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Limits on the schema text. maxJSONDepth keeps a hostile schema ("[[[[…")
// from exhausting the stack of the recursive decoder or of the validator
// built from it; it is far above what MaxDepth needs. maxObjects bounds the
// validator library's compile time, which grows with the square of the
// number of subschemas (about 2 s for the 25,000 objects of the conformance
// tap_aapl schema).
const (
	maxJSONDepth = 2000
	maxObjects   = 100_000
)

// object is a JSON object that remembers the order of its keys, which
// encoding/json's maps forget. A key repeated in the text keeps its first
// position and its last value, as encoding/json does.
type object struct {
	keys []string
	vals map[string]any
}

func (o *object) get(key string) (any, bool) {
	v, ok := o.vals[key]
	return v, ok
}

// decodeOrdered decodes one JSON value into nil, bool, string, json.Number,
// []any and *object, rejecting trailing data.
func decodeOrdered(raw []byte) (any, error) {
	d := &decoder{dec: json.NewDecoder(bytes.NewReader(raw))}
	d.dec.UseNumber()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := d.dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected data after the schema")
	}
	return v, nil
}

type decoder struct {
	dec     *json.Decoder
	objects int
}

func (d *decoder) value(depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, fmt.Errorf("schema nested deeper than %d levels", maxJSONDepth)
	}
	tok, err := d.dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		if d.objects++; d.objects > maxObjects {
			return nil, fmt.Errorf("schema has more than %d objects", maxObjects)
		}
		o := &object{vals: map[string]any{}}
		for d.dec.More() {
			kt, err := d.dec.Token()
			if err != nil {
				return nil, err
			}
			key := kt.(string) // the decoder only yields string keys in objects
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			if _, dup := o.vals[key]; !dup {
				o.keys = append(o.keys, key)
			}
			o.vals[key] = v
		}
		_, err := d.dec.Token() // '}'
		return o, err
	case json.Delim('['):
		arr := []any{}
		for d.dec.More() {
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := d.dec.Token() // ']'
		return arr, err
	}
	return tok, nil
}

// Shapes of keyword values, for rewriting subschemas only.
const (
	literal    = iota // enum, const, default, examples, …: never rewritten
	schemaVal         // a subschema (or draft 4–7 tuple "items")
	schemaList        // an array of subschemas
	schemaMap         // an object of name → subschema
)

func keywordShape(k string) int {
	switch k {
	case "properties", "patternProperties", "definitions", "$defs", "dependentSchemas",
		"dependencies": // draft 4–7: subschemas or property-name lists
		return schemaMap
	case "items", "additionalItems", "additionalProperties", "not", "if", "then", "else",
		"contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema":
		return schemaVal
	case "allOf", "anyOf", "oneOf", "prefixItems":
		return schemaList
	}
	return literal
}

// plain converts a decoded schema to the map[string]any form the validator
// library takes. It drops "format":"regex", the one format the library
// asserts even when overridden (SPEC §4 asserts only date-time, date and
// time), from every object but the values of const and enum, which are
// data: a $ref may point into default, examples or an unknown keyword and
// use what is there as a schema, so only data is safe from the rewrite.
func plain(v any, data bool) any {
	switch v := v.(type) {
	case *object:
		m := make(map[string]any, len(v.keys))
		for _, k := range v.keys {
			val := v.vals[k]
			switch {
			case data:
				m[k] = plain(val, true)
			case k == "format" && val == "regex":
				continue
			case k == "const" || k == "enum":
				m[k] = plain(val, true)
			case keywordShape(k) == schemaMap:
				m[k] = plainMap(val)
			default:
				m[k] = plain(val, false)
			}
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = plain(e, data)
		}
		return out
	}
	return v
}

// plainMap converts an object of name → subschema: its keys are names, not
// keywords.
func plainMap(v any) any {
	o, ok := v.(*object)
	if !ok {
		return plain(v, false)
	}
	m := make(map[string]any, len(o.keys))
	for _, k := range o.keys {
		m[k] = plain(o.vals[k], false)
	}
	return m
}
