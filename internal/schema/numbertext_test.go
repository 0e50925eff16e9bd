package schema

import (
	"testing"

	"github.com/target-oracle/target-oracle/internal/value"
)

// KeepNumberText lifts Oracle NUMBER's bounds where numbers keep their
// text (CLOB JSON, SPEC §5.3), and only there (issue 13 item 12).
func TestKeepNumberText(t *testing.T) {
	const big = "123456789012345678901234567890123456789012345"
	sch := mustCompile(t, `{"type":"object","properties":{"j":{},"t":{"type":["string","object"]},"n":{"type":"number"},"o":{"type":"object","properties":{"m":{"type":"integer"}}}}}`)
	sch.KeepNumberText(NumberPaths{Inside: [][]string{{"j"}, {"t"}, {"o", "m"}}, Bare: [][]string{{"j"}}})
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
	sch.KeepNumberText(NumberPaths{})
	checkErr(t, sch.ValidateRaw([]byte(`{"j":`+big+`}`)), `property "j": `+big+` is not a valid number: 45 significant digits, at most 38 expected`)
}

// numberEnd is the reference grammar numberScan is fuzzed against: it returns the end of the JSON number at b[i:], or -1 when there
// is none: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func numberEnd(b []byte, i int) int {
	digits := func(j int) int {
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		return j
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return -1
	case b[i] == '0':
		i++
	case b[i] >= '1' && b[i] <= '9':
		i = digits(i)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

// numberInfo is numberFacts finding the '.' and the exponent itself
// (FuzzNumberInfo checks it against value.CheckNumber).
func numberInfo(text []byte) (info value.NumberInfo, ok, sure bool) {
	dot, exp := -1, false
	for j, c := range text {
		switch c {
		case '.':
			dot = j
		case 'e', 'E':
			exp = true
		}
	}
	return numberFacts(text, dot, exp)
}

// Unloaded paths and the undeclared members of open objects are not
// bounded by Oracle NUMBER; the schema's own rules still hold there, and
// an array passes the names below its path on to its elements (hostile
// review finding 05).
func TestKeepNumberTextUnloaded(t *testing.T) {
	const big = "123456789012345678901234567890123456789012345"
	sch := mustCompile(t, `{"type":"object","properties":{"n":{"type":"number"},"skip":{"type":"number"},"capped":{"type":"number","maximum":5},`+
		`"j":{"type":"object","properties":{"m":{"type":"number"}}},"a":{"type":"array","items":{"type":"object"}},"f":{"type":"object","properties":{"k":{"type":"number"}}}}}`)
	sch.KeepNumberText(NumberPaths{
		Unloaded: [][]string{{"skip"}, {"capped"}, {"j", "m"}, {"a", "x"}},
		Open:     [][]string{nil, {"f"}},
		Loaded:   [][]string{{"n"}, {"j"}, {"a"}, {"f", "k"}},
	})
	for _, c := range []struct{ record, want string }{
		{`{"skip":` + big + `}`, ""},
		{`{"extra":1e200,"more":{"x":[1e-200]}}`, ""},
		{`{"j":{"m":1e200}}`, ""},
		{`{"a":[{"x":1e200},{"x":[{"y":1e200}]}]}`, ""},
		{`{"a":[[{"x":1e200}]]}`, `property "a.0": an array is not of type object`},
		{`{"f":{"k":1,"z":1e200}}`, ""},
		// loaded: bounded
		{`{"n":1e200}`, `property "n": 1e200 is not a valid number: magnitude 1e126 or more, less expected`},
		{`{"j":{"o":1e200}}`, `property "j.o": 1e200 is not a valid number: magnitude 1e126 or more, less expected`},
		{`{"a":[{"y":1e200}]}`, `property "a.0.y": 1e200 is not a valid number: magnitude 1e126 or more, less expected`},
		{`{"f":{"k":1e200}}`, `property "f.k": 1e200 is not a valid number: magnitude 1e126 or more, less expected`},
		// the schema's rules, and the validator's limits, still hold
		{`{"capped":1e200}`, `property "capped": 1e200 is greater than the maximum 5`},
		{`{"extra":1e10000}`, `property "extra": 1e10000 has an exponent of more than 4 digits`},
	} {
		checkErr(t, sch.ValidateRaw([]byte(c.record)), c.want)
	}
}
