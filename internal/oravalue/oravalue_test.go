package oravalue

import (
	"strings"
	"testing"
)

func code(err *Error) int {
	if err == nil {
		return 0
	}
	return err.Code
}

func TestToNumber(t *testing.T) {
	for _, c := range []struct {
		in, want string
		code     int
	}{
		{"0", "0", 0}, {"-0.5", "-0.5", 0}, {"123", "123", 0}, {"-12.340", "-12.34", 0},
		{"1.", "1", 0}, {".5", "0.5", 0}, {"+1", "1", 0}, {"007", "7", 0}, {"-0", "0", 0}, {"-0.000", "0", 0},
		{"", "", 1722}, {"-", "", 1722}, {".", "", 1722}, {"1.2.3", "", 1722}, {"1e5", "", 1722}, {"12a", "", 1722}, {" 1", "", 1722},
		{"1" + strings.Repeat("0", 125), "1" + strings.Repeat("0", 125), 0},
		{"1" + strings.Repeat("0", 126), "", 1426}, {"-1" + strings.Repeat("0", 126) + ".5", "", 1426}, {"01" + strings.Repeat("0", 126), "", 1426},
	} {
		got, err := ToNumber(c.in)
		if code(err) != c.code || got != c.want {
			t.Errorf("ToNumber(%.20q) = %.20q, %v; want %.20q, ORA-%05d", c.in, got, err, c.want, c.code)
		}
	}
}

func TestCanonicalNumberFastPath(t *testing.T) {
	for _, s := range []string{"0", "1", "-1", "10", "0.5", "-0.05", "123.456"} {
		if !canonicalNumber(s) {
			t.Errorf("canonicalNumber(%q) = false", s)
		}
	}
	for _, s := range []string{"", "-", "-0", "00", "01", "1.", "1.50", ".5", "+1", "1e5", "1.2.3"} {
		if canonicalNumber(s) {
			t.Errorf("canonicalNumber(%q) = true", s)
		}
	}
}

func TestDateTimes(t *testing.T) {
	for _, c := range []struct {
		fn       string // date, ts, tstz, stored
		in, want string
		code     int
	}{
		{"date", "2024-02-29", "2024-02-29", 0},
		{"date", "2023-02-29", "", 1839},
		{"date", "2024-04-31", "", 1839},
		{"date", "2024-01-32", "", 1847},
		{"date", "2024-01-00", "", 1847},
		{"date", "2024-13-01", "", 1843},
		{"date", "0000-01-01", "", 1841},
		{"date", "2024/01/01", "", 1861},
		{"date", "2024-01-01T00:00:00Z", "", 1861},
		{"date", "yesterday", "", 1861},
		{"ts", "2024-01-02T03:04:05.500000000", "2024-01-02T03:04:05.5Z", 0},
		{"ts", "2024-01-02T03:04:05.000000000", "2024-01-02T03:04:05Z", 0},
		{"ts", "2024-01-02T24:00:00.000000000", "", 1850},
		{"ts", "2024-01-02T23:60:00.000000000", "", 1851},
		{"ts", "2024-01-02T23:59:60.000000000", "", 1852},
		{"ts", "2024-01-02T03:04:05", "", 1861},
		{"ts", "2024-01-02T03:04:05.1234567890", "", 1861},
		{"tstz", "2024-01-02T03:04:05.000000000 +00:00", "2024-01-02T03:04:05Z", 0},
		{"tstz", "2024-01-02T03:04:05.000000000 +05:30", "2024-01-01T21:34:05Z", 0},
		{"tstz", "9999-12-31T23:00:00.000000000 -05:00", "", 1841},
		{"tstz", "2024-01-02T03:04:05.000000000", "", 1861},
		{"stored", "2024-01-02T03:04:05Z", "2024-01-02T03:04:05Z", 0},
		{"stored", "2024-01-02T03:04:05.123456789Z", "2024-01-02T03:04:05.123456789Z", 0},
		{"stored", "2024-01-02T03:04:05.50Z", "2024-01-02T03:04:05.5Z", 0},
		{"stored", "2024-01-02", "2024-01-02T00:00:00Z", 0},
		{"stored", "2024-02-30T00:00:00Z", "", 1839},
		{"stored", "2024-01-02T03:04:05", "", 1861},
		{"stored", "2024-01-02T03:04:05.1234567890Z", "", 1861},
	} {
		var got string
		var err *Error
		switch c.fn {
		case "date":
			got, err = ToDate(c.in)
		case "ts":
			got, err = ToTimestamp(c.in, false)
		case "tstz":
			got, err = ToTimestamp(c.in, true)
		default:
			got, err = storedTimestamp(c.in)
		}
		if code(err) != c.code || got != c.want {
			t.Errorf("%s(%q) = %q, %v; want %q, ORA-%05d", c.fn, c.in, got, err, c.want, c.code)
		}
	}
}

func TestToBoolean(t *testing.T) {
	for in, want := range map[string]string{"true": "true", "false": "false", "YES": "true", "n": "false", "On": "true", "0": "false", "1": "true"} {
		if got, err := ToBoolean(in); err != nil || got != want {
			t.Errorf("ToBoolean(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"maybe", "2", "tru", " true"} {
		if _, err := ToBoolean(in); code(err) != 61800 {
			t.Errorf("ToBoolean(%q): %v, want ORA-61800", in, err)
		}
	}
}

func TestCheck(t *testing.T) {
	num := func(p, s int) Column { return Column{Name: "N", Kind: KindNumber, Precision: p, Scale: s} }
	for _, c := range []struct {
		name string
		col  Column
		v    string
		code int
	}{
		{"number fits", num(10, 2), "12345678.12", 0},
		{"number too many integer digits", num(10, 2), "123456789", 1438},
		{"number third decimal", num(10, 2), "1.234", 1438},
		{"unconstrained number", num(0, 0), "123456789012345678901234567890.123", 0},
		{"bool number 1", Column{Kind: KindNumber, Precision: 1, BoolNumber: true}, "1", 0},
		{"bool number 5", Column{Kind: KindNumber, Precision: 1, BoolNumber: true}, "5", 2290},
		{"bool number 10: precision before the check", Column{Kind: KindNumber, Precision: 1, BoolNumber: true}, "10", 1438},
		{"varchar bytes", Column{Kind: KindVarchar, Length: 4}, "ñandú", 12899},
		{"varchar chars", Column{Kind: KindVarchar, Length: 5, CharSemantics: true}, "ñandú", 0},
		{"nvarchar chars", Column{Kind: KindVarchar, Length: 4, National: true}, "ñandú", 12899},
		{"timestamp(6) seventh digit", Column{Kind: KindTimestamp, Frac: 6}, "2024-01-02T03:04:05.1234567Z", 1830},
		{"json", Column{Kind: KindJSON}, `{"a":}`, 40441},
		{"clob is json", Column{Kind: KindJSON, JSONAsClob: true}, `{"a":}`, 2290},
		{"raw length", Column{Kind: KindRaw, Length: 2}, "AQID", 12899},
		{"raw not base64", Column{Kind: KindRaw, Length: 2}, "!!", 1465},
		{"vector dimensions", Column{Kind: KindVector, Dim: 3, VectorFormat: VectorFloat32}, "[1,2]", 51803},
		{"vector int8 range", Column{Kind: KindVector, VectorFormat: VectorInt8}, "[1,300]", 51806},
		{"vector int8 fraction", Column{Kind: KindVector, VectorFormat: VectorInt8}, "[1.5]", 51806},
		{"vector float32 range", Column{Kind: KindVector, VectorFormat: VectorFloat32}, "[1e39]", 51806},
		{"vector float32 largest", Column{Kind: KindVector, VectorFormat: VectorFloat32}, "[3.4028235e38,-3.4028235e38]", 0},
		{"vector float64", Column{Kind: KindVector, VectorFormat: VectorFloat64}, "[1e39]", 0},
		{"vector syntax", Column{Kind: KindVector}, "[1,2", 51804},
		{"vector element", Column{Kind: KindVector}, `[1,"a"]`, 51805},
	} {
		if err := c.col.Check(c.v); code(err) != c.code {
			t.Errorf("%s: Check(%q) = %v, want ORA-%05d", c.name, c.v, err, c.code)
		}
	}
}

func TestAssign(t *testing.T) {
	c := Column{Schema: "S", Table: "T", Name: "C", Kind: KindBoolean}
	if _, err := c.Assign(""); err == nil || err.Code != 1400 || err.Msg != `cannot insert NULL into ("S"."T"."C")` {
		t.Errorf("Assign NULL to NOT NULL: %v", err)
	}
	c.Nullable = true
	if s, err := c.Assign("yes"); err != nil || s != "true" {
		t.Errorf(`Assign("yes") = %q, %v`, s, err)
	}
	j := Column{Kind: KindJSON, Nullable: true}
	for v, ok := range map[string]bool{`{"a":1}`: true, `[1]`: true, `"x"`: true, `-1.5`: true, `null`: true, `{`: false, `not json`: false, `1.`: false} {
		if _, err := j.Assign(v); (err == nil) != ok {
			t.Errorf("JSON Assign(%q): %v", v, err)
		}
	}
}

func TestAssignDoesNotAllocate(t *testing.T) {
	cols := []struct {
		c Column
		v string
	}{
		{Column{Kind: KindNumber, Precision: 38, Scale: 10}, "-123.45"},
		{Column{Kind: KindTimestamp, Frac: 6, TZ: true}, "2024-01-02T03:04:05.123456Z"},
		{Column{Kind: KindBoolean}, "false"},
		{Column{Kind: KindVarchar, Length: 10, CharSemantics: true}, "ñandú"},
		{Column{Kind: KindDate}, "2024-01-02"},
		{Column{Kind: KindJSON}, `{"a":1}`},
	}
	for _, c := range cols {
		if n := testing.AllocsPerRun(100, func() { c.c.Assign(c.v) }); n != 0 {
			t.Errorf("Assign(%q) allocates %v times", c.v, n)
		}
	}
}

// TestFastStoredAgrees holds the embedded engine's fast path for stored
// date-times to the general parser: whatever it accepts, the parser
// accepts unchanged.
func TestFastStoredAgrees(t *testing.T) {
	seeds := []string{"2024-01-02T03:04:05Z", "2024-02-29T23:59:59.999999999Z", "0001-01-01T00:00:00.1Z", "9999-12-31T23:59:59Z"}
	const alphabet = "0123456789-T:.Z x"
	seen := 0
	for _, s := range seeds {
		for i := 0; i < len(s); i++ {
			for _, c := range []byte(alphabet) {
				m := s[:i] + string(c) + s[i+1:]
				for _, v := range []string{m, s[:i], s[:i] + s[i+1:]} {
					if !fastStored(v) {
						continue
					}
					seen++
					if out, err := parseStored(v); err != nil || out != v {
						t.Errorf("fastStored(%q) = true; the parser: %q, %v", v, out, err)
					}
				}
			}
		}
	}
	if seen < 50 {
		t.Fatalf("only %d accepted variants: the test exercises nothing", seen)
	}
	for _, v := range []string{"2023-02-29T00:00:00Z", "2024-01-02T24:00:00Z", "0000-01-01T00:00:00Z", "2024-13-01T00:00:00Z", "2024-01-02T03:04:05.50Z", "2024-01-02T03:04:05.Z"} {
		if fastStored(v) {
			t.Errorf("fastStored(%q) = true", v)
		}
	}
}
