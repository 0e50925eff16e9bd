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
