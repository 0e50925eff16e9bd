// Package schema compiles a Singer SCHEMA message: a validator for its
// records and a resolved property tree ($ref, allOf, anyOf/oneOf with null
// already folded) that the table model maps to columns.
package schema

// TypeSet is a set of JSON types a property may take. Compile keeps Integer
// and Number apart only when Number is absent: every integer is a number, so
// ["integer","number"] compiles to Number. Any keeps all bits.
type TypeSet uint8

const (
	Null TypeSet = 1 << iota
	String
	Integer
	Number
	Boolean
	Object
	Array

	// Any is an untyped property ({} or no "type"): every type.
	Any = Null | String | Integer | Number | Boolean | Object | Array
)

// Has reports whether every type in u is in s.
func (s TypeSet) Has(u TypeSet) bool { return s&u == u }

// NonNull is s without Null.
func (s TypeSet) NonNull() TypeSet { return s &^ Null }

// Property is one resolved node of a stream's schema.
type Property struct {
	// Name is the property's key in its parent object ("" for the root and
	// for array items).
	Name string
	// Path is the key path from the record root (["address","city"]); array
	// items add the element "[]" (["tags","[]"]). Paths never share storage.
	Path []string

	Types       TypeSet
	Format      string // "date-time", "date", "time", "x-singer.decimal", ...; "" when none
	MaxLength   int    // -1 when absent
	MultipleOf  string // multipleOf as canonical decimal text (value.CanonicalNumber), "" when absent
	Precision   int    // x-singer.decimal precision, 0 when absent
	Scale       int    // x-singer.decimal scale, 0 when absent
	HasScale    bool
	Description string
	// Required is set when the parent object's "required" (its own, or an
	// allOf branch's) lists the property. Partitioning reads it: a
	// required date-time property is never absent.
	Required bool
	// ContentEncoding is the string's contentEncoding, lower-cased
	// ("base64", "base16", …); "" when absent. Only interpret_content_encoding
	// makes the table model read it (binary columns, SPEC §5.2).
	ContentEncoding string

	// SQLDatatype is x-sql-datatype, lower-cased ("vector", "pgvector"),
	// "" when absent; VectorDim (dimensions or dim of
	// x-sql-datatype-properties, 0 when absent) and VectorFormat (its
	// format, lower-cased, "" when absent) describe a vector. MinItems and
	// MaxItems are the array's bounds, -1 when absent.
	SQLDatatype        string
	VectorDim          int
	VectorFormat       string
	MinItems, MaxItems int

	// Properties of an object, in the order the schema text lists them.
	// HasProperties distinguishes {"type":"object"} (free-form) from an
	// object with an empty "properties".
	Properties    []*Property
	HasProperties bool
	// Items of an array ("" Name), nil when absent. Draft 4–7 tuple items
	// ("items": [..]) give an untyped Items.
	Items *Property
}

// Lookup returns the direct child property with that name, or nil.
func (p *Property) Lookup(name string) *Property {
	for _, c := range p.Properties {
		if c.Name == name {
			return c
		}
	}
	return nil
}
