package verify

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
)

// Properties is the SCHEMA of the scratch stream: one property per column
// type of SPEC §5.2 (the type mapping of the tablemap package decides the
// columns under the server's facts and the user's settings). Key "k".
const Properties = `{"type":"object","properties":{` +
	`"k":{"type":"string","maxLength":64},` +
	`"i":{"type":["null","integer"]},` +
	`"n":{"type":["null","number"]},` +
	`"dec":{"type":["null","string"],"format":"x-singer.decimal","precision":38,"scale":10},` +
	`"b":{"type":["null","boolean"]},` +
	`"s":{"type":["null","string"]},` +
	`"sc":{"type":["null","string"],"maxLength":100},` +
	`"c":{"type":["null","string"],"maxLength":4000000},` +
	`"t":{"type":["null","string"],"format":"date-time"},` +
	`"t9":{"type":["null","string"],"format":"date-time"},` +
	`"dt":{"type":["null","string"],"format":"date"},` +
	`"tm":{"type":["null","string"],"format":"time"},` +
	`"j":{"type":["null","object"]},` +
	`"a":{"type":["null","array"]},` +
	// No type: a JSON column that may hold a top-level scalar, which
	// `IS JSON` accepts only with RFC 8259 (COMPATIBLE >= 20).
	`"u":{},` +
	`"v":{"type":["null","string","integer"]},` +
	// Binary columns (interpret_content_encoding, which the run turns on:
	// no other property has a contentEncoding): RAW(1), RAW(16),
	// RAW(2000) and BLOB.
	`"r1":{"type":["null","string"],"contentEncoding":"base16","maxLength":2},` +
	`"r16":{"type":["null","string"],"contentEncoding":"base16","maxLength":32},` +
	`"r2k":{"type":["null","string"],"contentEncoding":"base16","maxLength":4000},` +
	`"bl":{"type":["null","string"],"contentEncoding":"base64"},` +
	// VECTOR(3, …) on a server with VECTOR (23ai), else the JSON column.
	`"v32":{"type":["null","array"],"items":{"type":"number"},"x-sql-datatype":"vector","x-sql-datatype-properties":{"dimensions":3,"format":"float32"}},` +
	`"v64":{"type":["null","array"],"items":{"type":"number"},"x-sql-datatype":"vector","x-sql-datatype-properties":{"dimensions":3,"format":"float64"}},` +
	`"vi8":{"type":["null","array"],"items":{"type":"number"},"x-sql-datatype":"vector","x-sql-datatype-properties":{"dimensions":3,"format":"int8"}}` +
	`}}`

// bytesPattern is n bytes running through every byte value (0x00 and 0xFF
// among them), offset by seed.
func bytesPattern(n, seed int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/256 + seed)
	}
	return b
}

// b16 and b64 are the JSON texts of bytes in base16 and padded base64.
func b16(b []byte) string { return str(hex.EncodeToString(b)) }
func b64(b []byte) string { return str(base64.StdEncoding.EncodeToString(b)) }

// rawKeyProperty is the key of the binary-key table: a RAW(16).
const rawKeyProperty = `"k":{"type":"string","contentEncoding":"base16","maxLength":32},`

// dateTimeKeyProperty is the key of the date-time-key table: a
// TIMESTAMP(9), never WITH TIME ZONE, which Oracle refuses in a primary key
// (ORA-02329).
const dateTimeKeyProperty = `"k":{"type":"string","format":"date-time"},`

// keyKind is the kind of a scratch table's key.
type keyKind uint8

const (
	keyText     keyKind = iota // VARCHAR2(64)
	keyRaw                     // RAW(16): MERGE ON a RAW bind, the readback by HEXTORAW
	keyDateTime                // TIMESTAMP(9): a date-time primary key, bound and read back in UTC
)

// schemaOf is the scratch stream's schema: Properties, with the key of
// the table's kind.
func schemaOf(k keyKind) string {
	text := `"k":{"type":"string","maxLength":64},`
	switch k {
	case keyRaw:
		return strings.Replace(Properties, text, rawKeyProperty, 1)
	case keyDateTime:
		return strings.Replace(Properties, text, dateTimeKeyProperty, 1)
	}
	return Properties
}

// casesFor keeps the cases a table of key kind k runs: all of them under
// a text key, the binary ones under the RAW key, the date-time ones under
// the date-time key.
func casesFor(k keyKind, cases []Case) []Case {
	switch k {
	case keyRaw:
		return slices.DeleteFunc(cases, func(c Case) bool { return !binaryCase(c) })
	case keyDateTime:
		return slices.DeleteFunc(cases, func(c Case) bool { return c.Property != "t" && c.Property != "t9" })
	}
	return cases
}

// binaryCase reports whether c writes a binary column (the cases of the
// binary-key table).
func binaryCase(c Case) bool {
	return c.Property == "bl" || strings.HasPrefix(c.Property, "r")
}

// Case is one edge value of SPEC §2, written alone into one property (every
// other column NULL). Values holds the JSON text of each record's value:
// several values travel as one array execute.
type Case struct {
	Name     string
	Property string
	Values   []string
}

// str is the JSON text of a string.
func str(s string) string {
	b, _ := json.Marshal(s) // a Go string always marshals
	return string(b)
}

// Cases returns the edge values for a server whose VARCHAR2 columns hold
// textBytes bytes (the string ceiling; half of it, in characters, for
// national text): strings longer than that go only to the CLOB column,
// where they belong.
func Cases(textBytes int) []Case {
	cs := []Case{
		{"integer of 38 digits", "i", []string{strings.Repeat("9", 38)}},
		{"negative integer of 38 digits", "i", []string{"-" + strings.Repeat("9", 38)}},
		{"integer -0", "i", []string{"-0"}},
		{"number of 38 significant digits (fraction)", "n", []string{"0." + strings.Repeat("12345678901234567890", 2)[:38]}},
		{"number of 38 significant digits", "n", []string{"12345678901234567890.123456789012345678"}},
		{"number 1e-130", "n", []string{"1e-130"}},
		{"number 9.99e125", "n", []string{"9.99e125"}},
		{"number -0", "n", []string{"-0"}},
		{"number with exponent", "n", []string{"-1.5E+3"}},
		{"decimal NUMBER(38,10) of 38 digits", "dec", []string{str("1234567890123456789012345678.0123456789")}},
		{"decimal NUMBER(38,10) smallest step", "dec", []string{str("-0.0000000001")}},
		{"boolean true", "b", []string{"true"}},
		{"boolean false", "b", []string{"false"}},
		{"date-time year 0001", "t", []string{str("0001-01-01T00:00:00Z")}},
		{"date-time year 9999", "t", []string{str("9999-12-31T23:59:59.999999Z")}},
		{"date-time offset +14:00", "t", []string{str("2024-06-30T23:00:00+14:00")}},
		{"date-time offset -14:00", "t", []string{str("2024-01-01T00:00:00-14:00")}},
		{"date-time offset +05:30", "t", []string{str("2024-02-29T12:34:56.123456+05:30")}},
		{"date-time with 9 fraction digits", "t9", []string{str("2024-02-29T23:59:59.123456789Z")}},
		{"date-time 1 ns after the epoch, offset -14:00", "t9", []string{str("1970-01-01T00:00:00.000000001-14:00")}},
		{"date year 0001", "dt", []string{str("0001-01-01")}},
		{"date year 9999", "dt", []string{str("9999-12-31")}},
		{"date 29 February", "dt", []string{str("2024-02-29")}},
		{"time", "tm", []string{str("23:59:59.999999")}},
		{"several scalar types: integer", "v", []string{"12345678901234567890"}},
		{"several scalar types: string", "v", []string{str("text")}},
		{"JSON object", "j", []string{`{"a":1,"b":[1,null],"c":"é€😀","d":{"e":true}}`}},
		{"JSON number text", "j", []string{`{"n":1.50,"m":-0.0,"big":12345678901234567890123456789012345678}`}},
		{"JSON array with NULL last", "a", []string{`[1,"x",null]`}},
		{"untyped JSON: top-level string", "u", []string{str("2023-07-14")}},
		{"untyped JSON: top-level number", "u", []string{"10.0"}},
		{"untyped JSON: top-level true", "u", []string{"true"}},
		{"untyped JSON: object", "u", []string{`{"a":[]}`}},
		{"all columns NULL", "s", []string{"null"}},
		{"NULL as the last element of an array execute", "s", []string{str("x"), "null"}},
		{"string of 1 byte", "sc", []string{str("x")}},
		{"string with 2-byte UTF-8", "sc", []string{str("é")}},
		{"string with 3-byte UTF-8", "sc", []string{str("€")}},
		{"string with 4-byte UTF-8", "sc", []string{str("😀")}},
		{"string with NUL", "s", []string{str("a\x00b")}},
		{"string with CR/LF", "s", []string{str("a\r\nb\n")}},
		{"CLOB with 2-, 3- and 4-byte UTF-8", "c", []string{str("é€😀")}},
		{"RAW(1) 0x00", "r1", []string{b16([]byte{0})}},
		{"RAW(1) 0xFF (lowercase base16)", "r1", []string{str("ff")}},
		{"RAW(16) of 16 bytes", "r16", []string{b16(bytesPattern(16, 3))}},
		{"RAW(2000) of bytes 0x00/0xFF", "r2k", []string{b16(bytes.Repeat([]byte{0x00, 0xFF}, 1000))}},
		{"RAW NULL as the last element of an array execute", "r16", []string{b16([]byte{0xFF}), "null"}},
		{"BLOB NULL as the last element of an array execute", "bl", []string{b64([]byte{0}), "null"}},
		{"vector FLOAT32 rounded", "v32", []string{`[1.1,-2.5e-3,3.4028234e38]`}},
		{"vector FLOAT64", "v64", []string{`[0.1,-1e-300,1.7976931348623157e308]`}},
		{"vector INT8 range and rounding", "vi8", []string{`[-128,127,2.6]`}},
	}
	// A BLOB by each bind route of the engine: RAW up to the RAW limit,
	// a temporary BLOB above it within go-ora's RAW switch (4000 bytes),
	// LONG RAW for an INSERT beyond (a MERGE: temporary BLOB).
	for _, n := range []int{1, 2000, 2001, 4000, 4001, 32768, 1 << 20} {
		cs = append(cs, Case{"BLOB of " + bytesName(n), "bl", []string{b64(bytesPattern(n, n))}})
	}
	for _, n := range []int{1, 4000, 4001, 32767, 32768, 1 << 20} {
		v := str(strings.Repeat("x", n-1) + "y")
		if n <= textBytes {
			cs = append(cs, Case{"string of " + bytesName(n) + " (VARCHAR2)", "s", []string{v}})
		}
		cs = append(cs, Case{"string of " + bytesName(n) + " (CLOB)", "c", []string{v}})
	}
	return cs
}

func bytesName(n int) string {
	if n == 1<<20 {
		return "1 MB"
	}
	return itoa(n) + " bytes"
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
