package schema

import (
	"bytes"
	"testing"

	"github.com/target-oracle/target-oracle/internal/value"
)

// FuzzValidateRawDifferential mutates records (and schemas, seeded with
// the schemas of the differential cases) and checks that ValidateRaw and
// decode+Validate agree, and that the fast plan's own verdict agrees with
// Validate (see differential).
func FuzzValidateRawDifferential(f *testing.F) {
	for _, c := range fastCases {
		for record := range c.records {
			f.Add(c.schema, []byte(record))
		}
	}
	for _, r := range benchRecords(8) {
		f.Add(benchSchema, r)
	}
	compiled := map[string]*Schema{} // compiling is slow; schemas repeat
	f.Fuzz(func(t *testing.T, schema string, record []byte) {
		sch, ok := compiled[schema]
		if !ok {
			sch, _ = Compile([]byte(schema))
			if len(compiled) < 1000 {
				compiled[schema] = sch
			}
		}
		if sch == nil {
			return
		}
		differential(t, sch, record)
	})
}

// FuzzNumberInfo checks the walker's number shortcut against the value
// package.
func FuzzNumberInfo(f *testing.F) {
	for _, s := range []string{"0", "-0", "1.50", "-0.000", "12345678901234567890123456789012345678", "1e5", "0.1e-2", "007", "1.", "-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		end, dot, exp := numberScan(b, 0)
		if end != numberEnd(b, 0) {
			t.Fatalf("numberScan(%q) ends at %d, numberEnd at %d", s, end, numberEnd(b, 0))
		}
		if end != len(b) {
			return // the walker only asks about grammatical numbers
		}
		if wdot := bytes.IndexByte(b, '.'); dot != wdot || exp != bytes.ContainsAny(b, "eE") {
			t.Fatalf("numberScan(%q): dot %d, exponent %v", s, dot, exp)
		}
		got, ok, sure := numberInfo(b)
		if !sure {
			return
		}
		want, err := value.CheckNumber(b)
		valid := err == nil && len(b) <= MaxNumberText // as Validate
		if ok != valid || ok && (got.Scale != want.Scale || got.Integer != want.Integer) {
			t.Errorf("numberInfo(%q) = %+v, %v; CheckNumber = %+v, %v (length %d)", s, got, ok, want, err, len(s))
		}
		if ok {
			d, dok := parseDecimal(b)
			if !dok || (d.point >= d.n) != want.Integer {
				t.Errorf("parseDecimal(%q) = %+v, %v; integer %v", s, d, dok, want.Integer)
			}
		}
	})
}
