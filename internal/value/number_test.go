package value

import (
	"errors"
	"math/big"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

func TestCanonicalNumber(t *testing.T) {
	d38 := strings.Repeat("9", 38)
	tests := []struct {
		in, want string
		info     NumberInfo
	}{
		{"0", "0", NumberInfo{0, 0, true}},
		{"-0", "0", NumberInfo{0, 0, true}},
		{"-0.0", "0", NumberInfo{0, 0, true}},
		{"0e999999999999", "0", NumberInfo{0, 0, true}},
		{"0.000e-999999", "0", NumberInfo{0, 0, true}},
		{"1", "1", NumberInfo{1, 0, true}},
		{"-17", "-17", NumberInfo{2, 0, true}},
		{"1.50", "1.5", NumberInfo{1, 1, false}},
		{"1.0", "1", NumberInfo{1, 0, true}},
		{"100", "100", NumberInfo{3, 0, true}},
		{"1e3", "1000", NumberInfo{4, 0, true}},
		{"1E+3", "1000", NumberInfo{4, 0, true}},
		{"1E-5", "0.00001", NumberInfo{0, 5, false}},
		{"-1.25e1", "-12.5", NumberInfo{2, 1, false}},
		{"0.5", "0.5", NumberInfo{0, 1, false}},
		{"0.07", "0.07", NumberInfo{0, 2, false}},
		{"123.456e-1", "12.3456", NumberInfo{2, 4, false}},
		{"12000.000", "12000", NumberInfo{5, 0, true}},
		{"0.00120", "0.0012", NumberInfo{0, 4, false}},
		{"1234567890.123456789012345678901234567", "1234567890.123456789012345678901234567", NumberInfo{10, 27, false}},
		{"123456789012345678.901234567890123456", "123456789012345678.901234567890123456", NumberInfo{18, 18, false}},
		{d38, d38, NumberInfo{38, 0, true}},
		{d38 + "000", d38 + "000", NumberInfo{41, 0, true}},
		{"0." + d38, "0." + d38, NumberInfo{0, 38, false}},
		{"1e-130", "0." + strings.Repeat("0", 129) + "1", NumberInfo{0, 130, false}},
		{"-1e-130", "-0." + strings.Repeat("0", 129) + "1", NumberInfo{0, 130, false}},
		{"9.9e125", "99" + strings.Repeat("0", 124), NumberInfo{126, 0, true}},
		{d38 + "e88", d38 + strings.Repeat("0", 88), NumberInfo{126, 0, true}},
		{"1" + strings.Repeat("0", 100000) + "e-99990", "1" + strings.Repeat("0", 10), NumberInfo{11, 0, true}},
	}
	for _, tt := range tests {
		got, info, err := CanonicalNumber(tt.in)
		if err != nil || got != tt.want || info != tt.info {
			t.Errorf("CanonicalNumber(%.40q) = %.40q, %+v, %v; want %.40q, %+v", tt.in, got, info, err, tt.want, tt.info)
		}
		b, info2, err := AppendCanonicalNumber([]byte("x"), []byte(tt.in))
		if err != nil || string(b) != "x"+tt.want || info2 != tt.info {
			t.Errorf("AppendCanonicalNumber(%.40q) = %.40q, %+v, %v", tt.in, b, info2, err)
		}
	}
}

func TestCanonicalNumberInvalid(t *testing.T) {
	tests := []struct{ in, reason string }{
		{"", "expected a digit"},
		{"-", "expected a digit"},
		{"+1", "expected a JSON number"},
		{"00", "expected a JSON number"},
		{"01", "expected a JSON number"},
		{"-01.5", "expected a JSON number"},
		{".5", "expected a JSON number"},
		{"5.", "expected a digit after the decimal point"},
		{"1e", "expected a digit in the exponent"},
		{"1e+", "expected a digit in the exponent"},
		{"1.5e3.2", "expected a JSON number"},
		{"0x10", "expected a JSON number"},
		{"NaN", "expected a JSON number"},
		{"Infinity", "expected a JSON number"},
		{" 1", "expected a JSON number"},
		{"1 ", "expected a JSON number"},
		{strings.Repeat("9", 39), "39 significant digits"},
		{"-" + strings.Repeat("1", 39) + "e-5", "39 significant digits"},
		{"1." + strings.Repeat("0", 37) + "1", "39 significant digits"},
		{"1" + strings.Repeat("0", 50) + "1", "52 significant digits"},
		{"9.99e-131", "below 1e-130"},
		{"1e-131", "below 1e-130"},
		{"1e126", "1e126 or more"},
		{"-1e126", "1e126 or more"},
		{"1e400", "1e126 or more"},
		{"1e-400", "below 1e-130"},
		{"1e99999999999999999999999999", "1e126 or more"},
		{"1e-99999999999999999999999999", "below 1e-130"},
		{"1" + strings.Repeat("0", 126), "1e126 or more"},
	}
	for _, tt := range tests {
		_, _, err := CanonicalNumber(tt.in)
		var ve *Error
		if !errors.As(err, &ve) || !strings.Contains(ve.Reason, tt.reason) || ve.What != "number" {
			t.Errorf("CanonicalNumber(%.40q) error = %v; want reason containing %q", tt.in, err, tt.reason)
		}
		dst := []byte("keep")
		b, _, err := AppendCanonicalNumber(dst, []byte(tt.in))
		if err == nil || string(b) != "keep" {
			t.Errorf("AppendCanonicalNumber(%.40q) = %q, %v; want error and dst unchanged", tt.in, b, err)
		}
	}
}

// TestCanonicalNumberHugeInputFast guards the linear-time promise: a
// megabytes-long number must be judged without building its expansion.
func TestCanonicalNumberHugeInputFast(t *testing.T) {
	in := "0." + strings.Repeat("0", 10<<20) + "1"
	// Bounded by the work done, not by time: judging it must not build
	// the number's expansion (a copy of the input at most).
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, _, err := CanonicalNumber(in); err == nil {
		t.Fatal("tiny number accepted")
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(len(in))+1<<20 {
		t.Fatalf("allocated %d bytes for an input of %d", got, len(in))
	}
}

func TestErrorMessageBounded(t *testing.T) {
	_, _, err := CanonicalNumber(strings.Repeat("7", 1000))
	if err == nil || len(err.Error()) > 200 {
		t.Fatalf("error %q: want a short message", err)
	}
	if !strings.Contains(err.Error(), "1000 significant digits, at most 38 expected") {
		t.Fatalf("error %q does not say what was expected", err)
	}
}

func TestIsMultipleOf(t *testing.T) {
	tests := []struct {
		n, m string
		want bool
	}{
		{"0.07", "0.01", true},
		{"0.075", "0.01", false},
		{"1187.85", "0.01", true},
		{"12.345", "0.01", false},
		{"0", "0.01", true},
		{"-3.3", "1.1", true},
		{"10", "2.5", true},
		{"10", "3", false},
		{"1e3", "1e2", true},
		{"1e2", "1e3", false},
		{"7.5", "0.5", true},
		{"0.3", "0.1", true},
		{"123456789012345678901234567890.12", "0.01", true},
		{"123456789012345678901234567890.123", "0.01", false},
	}
	for _, tt := range tests {
		got, err := IsMultipleOf(tt.n, tt.m)
		if err != nil || got != tt.want {
			t.Errorf("IsMultipleOf(%s, %s) = %v, %v; want %v", tt.n, tt.m, got, err, tt.want)
		}
	}
	for _, m := range []string{"0", "-0.01", "abc"} {
		if _, err := IsMultipleOf("1", m); err == nil {
			t.Errorf("IsMultipleOf(1, %s): want error", m)
		}
	}
	if _, err := IsMultipleOf("1e400", "1"); err == nil {
		t.Error("IsMultipleOf(1e400, 1): want error")
	}
}

func FuzzCanonicalNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "1.50", "1e3", "1E-5", "-0.0", "00", ".5", "5.", "1e400", "1e-400",
		"12345678901234567890123456789012345678", "123456789012345678901234567890123456789", "1e-130", "9.9e125", "0.07",
		"-0.000", "10.000", "-12.340", "0.05", "01.5", "1.", "-", "-.5", "1.5e3", "100"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		canon, info, err := CanonicalNumber(s)
		if fast, finfo, ok := appendPlain([]byte("x"), []byte(s)); ok && (err != nil || string(fast) != "x"+canon || finfo != info) {
			t.Fatalf("%q: appendPlain %q, %+v; CanonicalNumber %q, %+v, %v", s, fast, finfo, canon, info, err)
		}
		if dot, ok := plainGrammar(s); ok {
			// What the validator's scan hands the row builder.
			fast, finfo := AppendPlainNumber([]byte("x"), []byte(s), dot)
			if err != nil || string(fast) != "x"+canon || finfo != info {
				t.Fatalf("%q: AppendPlainNumber %q, %+v; CanonicalNumber %q, %+v, %v", s, fast, finfo, canon, info, err)
			}
		}
		if err != nil {
			return
		}
		again, info2, err := CanonicalNumber(canon)
		if err != nil || again != canon || info2 != info {
			t.Fatalf("%q → %q, re-canonicalised %q, %v, %+v vs %+v", s, canon, again, err, info2, info)
		}
		if strings.ContainsAny(canon, "eE+") {
			t.Fatalf("%q → %q has an exponent or '+'", s, canon)
		}
		if dot := strings.IndexByte(canon, '.'); dot >= 0 && (len(canon)-dot-1 != info.Scale || canon[len(canon)-1] == '0') {
			t.Fatalf("%q → %q: scale %d or trailing zero", s, canon, info.Scale)
		}
		// big.Rat works on exponents up to 1e6, which covers every
		// accepted value except ones with absurdly padded text.
		if len(s) > 2000 {
			return
		}
		a, ok1 := new(big.Rat).SetString(s)
		b, ok2 := new(big.Rat).SetString(canon)
		if ok1 && ok2 && a.Cmp(b) != 0 {
			t.Fatalf("%q → %q changes the value", s, canon)
		}
	})
}

func BenchmarkCanonicalNumber(b *testing.B) {
	for _, in := range []string{"12345", "-1187.85", "1.2345678901234567890123456789e-10", "123456789012345678901234567890.12345678"} {
		b.Run(in[:min(len(in), 12)], func(b *testing.B) {
			text := []byte(in)
			buf := make([]byte, 0, 256)
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := AppendCanonicalNumber(buf[:0], text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// plainGrammar is an independent check of AppendPlainNumber's
// precondition: s matches -?(0|[1-9][0-9]*)(\.[0-9]+)? in at most
// MaxSignificantDigits bytes; dot is the index of its '.', or -1.
func plainGrammar(s string) (dot int, ok bool) {
	if len(s) == 0 || len(s) > MaxSignificantDigits || !plainRE.MatchString(s) {
		return 0, false
	}
	return strings.IndexByte(s, '.'), true
}

var plainRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?$`)

func TestAppendPlainNumber(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		info     NumberInfo
	}{
		{"0", "0", NumberInfo{Integer: true}},
		{"-0", "0", NumberInfo{Integer: true}},
		{"-0.000", "0", NumberInfo{Integer: true}},
		{"0.050", "0.05", NumberInfo{Scale: 2}},
		{"-12.340", "-12.34", NumberInfo{IntDigits: 2, Scale: 2}},
		{"10.000", "10", NumberInfo{IntDigits: 2, Integer: true}},
		{"837186", "837186", NumberInfo{IntDigits: 6, Integer: true}},
		{"36177.24", "36177.24", NumberInfo{IntDigits: 5, Scale: 2}},
	} {
		dot, ok := plainGrammar(tc.in)
		if !ok {
			t.Fatalf("%q: not plain", tc.in)
		}
		got, info := AppendPlainNumber(nil, []byte(tc.in), dot)
		if string(got) != tc.want || info != tc.info {
			t.Errorf("AppendPlainNumber(%q) = %q, %+v; want %q, %+v", tc.in, got, info, tc.want, tc.info)
		}
	}
}
