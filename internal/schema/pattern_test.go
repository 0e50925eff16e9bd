package schema

import (
	"strings"
	"testing"
)

func TestEcmaToRE2(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`^[\u0020-\u007e]*$`, `^[\x{0020}-\x{007e}]*$`},
		{`\u00E9`, `\x{00E9}`},
		{`\\u0020`, `\\u0020`}, // an escaped backslash, then "u0020"
		{`\u12`, `\u12`},       // not an escape: left for RE2 to refuse
		{`a\.b`, `a\.b`},
		{`x\`, `x\`},
	} {
		if got := ecmaToRE2(c.in); got != c.want {
			t.Errorf("ecmaToRE2(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// ECMA-262 patterns: \uXXXX is checked exactly (both validators), a
// pattern RE2 cannot express is dropped with a note instead of refusing
// the schema, and in patternProperties it stays an invalid schema.
func TestEcmaPatterns(t *testing.T) {
	printable := `{"type":"object","properties":{"v":{"type":"string","pattern":"^[\\u0020-\\u007e]*$"}}}`
	s, err := Compile([]byte(printable))
	if err != nil {
		t.Fatalf("\\u pattern: %v", err)
	}
	if len(s.Unchecked) != 0 {
		t.Fatalf("\\u pattern noted as unchecked: %v", s.Unchecked)
	}
	for rec, ok := range map[string]bool{`{"v":"plain text"}`: true, `{"v":"caf\u00e9"}`: false, "{\"v\":\"tab\\t\"}": false} {
		if err := s.ValidateRaw([]byte(rec)); (err == nil) != ok {
			t.Errorf("ValidateRaw(%s) = %v, want ok=%v", rec, err, ok)
		}
		if err := s.Validate(decode(t, rec)); (err == nil) != ok {
			t.Errorf("Validate(%s) = %v, want ok=%v", rec, err, ok)
		}
	}
	for _, p := range []string{`^(?!test).*$`, `(?<=a)b`, `(a|b)\\1`, `\\cA`} {
		sch := `{"type":"object","properties":{"v":{"type":"string","pattern":"` + p + `"}}}`
		s, err := Compile([]byte(sch))
		if err != nil {
			t.Fatalf("pattern %s: %v, want it dropped with a note", p, err)
		}
		if len(s.Unchecked) != 1 || !strings.Contains(s.Unchecked[0], "/properties/v/pattern") {
			t.Fatalf("pattern %s: notes %q", p, s.Unchecked)
		}
		if err := s.ValidateRaw([]byte(`{"v":"test"}`)); err != nil {
			t.Errorf("pattern %s dropped, but the record is refused: %v", p, err)
		}
	}
	pp := `{"type":"object","properties":{"a":{"type":"string"}},"patternProperties":{"^(?!x)":{"type":"integer"}}}`
	if _, err := Compile([]byte(pp)); err == nil {
		t.Fatal("an untranslatable patternProperties pattern compiled: dropping it would change which subschema applies")
	}
}
