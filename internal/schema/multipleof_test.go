package schema

import (
	"strings"
	"testing"
)

// A positive multipleOf outside Oracle NUMBER's range or digits is a
// valid schema: records are checked against it exactly (the library's
// math/big; the fast plan leaves such a schema to it), and one whose
// exponent the validator cannot compute with is left out with a note,
// never a refused stream (cli.TestAttackMultipleOfBelowNumberRangeRefusesStream).
func TestMultipleOfOutsideNumber(t *testing.T) {
	tests := []struct {
		divisor  string
		ok, bad  []string // record values of "a"
		badMsg   string   // in the error of each bad value
		note     bool     // left out with a note (Schema.Unchecked)
		noteText string
	}{
		{divisor: "1e-200", ok: []string{"0", "1.5", "3e-50", "1e-130", "-12345678901234567890123456789012345678"}},
		{divisor: "3e-200", ok: []string{"0", "3e-130", "6e-130", "0.3"}, bad: []string{"1e-130", "1"}, badMsg: "is not a multiple of"},
		{divisor: "0.0000000000000000000000000000000000000001", ok: []string{"2e-40", "1"}, bad: []string{"3e-50"}, badMsg: "is not a multiple of 0.0000000000000000000000000000000000000001"},
		{divisor: "0.123456789012345678901234567890123456789", ok: []string{"0"}, bad: []string{"1", "0.12345678901234567890123456789012345678"}, badMsg: "is not a multiple of"},
		{divisor: "1e200", ok: []string{"0"}, bad: []string{"1", "-99999999999999999999999999999999999999e87"}, badMsg: "is not a multiple of 1" + strings.Repeat("0", 200)},
		{divisor: "1e-99999", ok: []string{"0", "1.5"}, note: true, noteText: "/properties/a/multipleOf 1e-99999 is not checked"},
		{divisor: "1e999999999", ok: []string{"1"}, note: true, noteText: "/properties/a/multipleOf 1e999999999 is not checked"},
	}
	for _, tt := range tests {
		t.Run(tt.divisor, func(t *testing.T) {
			s, err := Compile([]byte(`{"type":"object","properties":{"a":{"type":"number","multipleOf":` + tt.divisor + `}}}`))
			if err != nil {
				t.Fatalf("Compile: %v; want a valid schema", err)
			}
			if got := len(s.Unchecked) == 1 && strings.Contains(s.Unchecked[0], tt.noteText); got != tt.note {
				t.Fatalf("notes %q; want a note %v (%q)", s.Unchecked, tt.note, tt.noteText)
			}
			for _, v := range tt.ok {
				rec := `{"a":` + v + `}`
				if err := s.Validate(decode(t, rec)); err != nil {
					t.Errorf("Validate %s: %v", rec, err)
				}
				if err := s.ValidateRaw([]byte(rec)); err != nil {
					t.Errorf("ValidateRaw %s: %v", rec, err)
				}
			}
			for _, v := range tt.bad {
				rec := `{"a":` + v + `}`
				if err := s.Validate(decode(t, rec)); err == nil || !strings.Contains(err.Error(), tt.badMsg) {
					t.Errorf("Validate %s: %v; want %q", rec, err, tt.badMsg)
				}
				if err := s.ValidateRaw([]byte(rec)); err == nil || !strings.Contains(err.Error(), tt.badMsg) {
					t.Errorf("ValidateRaw %s: %v; want %q", rec, err, tt.badMsg)
				}
			}
		})
	}
	// Zero and negative divisors stay invalid schemas, whatever their
	// exponent.
	for _, d := range []string{"0", "0e-99999", "-1e-999999999", "-3e-200"} {
		if _, err := Compile([]byte(`{"properties":{"a":{"multipleOf":` + d + `}}}`)); err == nil || !strings.Contains(err.Error(), "a positive number expected") {
			t.Errorf("multipleOf %s: %v; want an invalid schema (a positive number expected)", d, err)
		}
	}
}
