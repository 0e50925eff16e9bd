package schema

import "testing"

// KeepNumberText lifts Oracle NUMBER's bounds where numbers keep their
// text (CLOB JSON, SPEC §5.3), and only there (issue 13 item 12).
func TestKeepNumberText(t *testing.T) {
	const big = "123456789012345678901234567890123456789012345"
	sch := mustCompile(t, `{"type":"object","properties":{"j":{},"t":{"type":["string","object"]},"n":{"type":"number"},"o":{"type":"object","properties":{"m":{"type":"integer"}}}}}`)
	sch.KeepNumberText([][]string{{"j"}, {"t"}, {"o", "m"}}, [][]string{{"j"}})
	for _, c := range []struct{ record, want string }{
		{`{"j":` + big + `}`, ""},
		{`{"j":{"a":[` + big + `,1e400]}}`, ""},
		{`{"t":{"a":[` + big + `]}}`, ""},
		{`{"o":{"m":{"x":` + big + `}}}`, `property "o.m": an object is not of type integer`},
		// the schema's own rules still hold, exactly
		{`{"o":{"m":` + big + `.5}}`, `property "o.m": ` + big + `.5 is not a valid number: 46 significant digits, at most 38 expected`},
		// a number standing where only objects keep their text
		{`{"t":` + big + `}`, `property "t": ` + big + ` is not a valid number: 45 significant digits, at most 38 expected`},
		{`{"n":` + big + `}`, `property "n": ` + big + ` is not a valid number: 45 significant digits, at most 38 expected`},
		{`{"j":1e10000}`, `property "j": 1e10000 has an exponent of more than 4 digits`},
		{`{"j":0e99999999999999999999}`, ""},
	} {
		checkErr(t, sch.ValidateRaw([]byte(c.record)), c.want)
	}
	sch.KeepNumberText(nil, nil)
	checkErr(t, sch.ValidateRaw([]byte(`{"j":`+big+`}`)), `property "j": `+big+` is not a valid number: 45 significant digits, at most 38 expected`)
}
