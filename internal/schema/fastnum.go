package schema

import (
	"encoding/json"
	"math/bits"

	"github.com/target-oracle/target-oracle/internal/value"
)

// decimal is a number in canonical form, 0.d1d2…dn × 10^point with no
// leading or trailing zero digits, for exact comparisons without math/big.
// It holds only numbers that pass value.CheckNumber: at most 38 significant
// digits and a bounded point, which every record number must satisfy anyway.
type decimal struct {
	neg   bool
	n     int // significant digits; 0 for zero
	point int
	d     [value.MaxSignificantDigits]byte
}

// parseDecimal converts JSON number text to canonical form. It reports false
// when the text is not a number value.CheckNumber accepts.
func parseDecimal[T ~string | ~[]byte](s T) (decimal, bool) {
	var c decimal
	if len(s) > MaxNumberText {
		return c, false
	}
	if _, err := value.CheckNumber(s); err != nil {
		return c, false
	}
	i := 0
	if s[0] == '-' {
		c.neg = true
		i++
	}
	// Collect significant digits; digits counts every mantissa digit seen so
	// far, lead the leading zeros among them.
	digits, lead, pointAt := 0, 0, -1
	for ; i < len(s); i++ {
		ch := s[i]
		if ch == '.' {
			pointAt = digits
			continue
		}
		if ch < '0' || ch > '9' {
			break
		}
		if c.n == 0 && ch == '0' {
			lead++
		} else {
			// CheckNumber bounds the significant digits, but zeros between
			// them and trailing zeros are stored before being trimmed.
			if c.n < len(c.d) {
				c.d[c.n] = ch
			}
			c.n++
		}
		digits++
	}
	if pointAt < 0 {
		pointAt = digits
	}
	exp := 0
	if i < len(s) { // exponent; CheckNumber bounds its effect on the value
		i++
		neg := false
		if s[i] == '+' || s[i] == '-' {
			neg = s[i] == '-'
			i++
		}
		for ; i < len(s); i++ {
			if exp < 1<<30 {
				exp = exp*10 + int(s[i]-'0')
			}
		}
		if neg {
			exp = -exp
		}
	}
	for c.n > 0 && (c.n > len(c.d) || c.d[c.n-1] == '0') {
		c.n--
	}
	if c.n == 0 {
		return decimal{}, true // zero, whatever its sign
	}
	c.point = pointAt - lead + exp
	return c, true
}

// cmpDecimal returns -1, 0 or +1 as a < b, a == b, a > b.
func cmpDecimal(a, b *decimal) int {
	switch {
	case a.n == 0 && b.n == 0:
		return 0
	case a.n == 0:
		return b.sign(-1)
	case b.n == 0:
		return a.sign(1)
	case a.neg != b.neg:
		return a.sign(1)
	}
	m := cmpMagnitude(a, b)
	if a.neg {
		return -m
	}
	return m
}

// sign returns s for a positive c and -s for a negative one.
func (c *decimal) sign(s int) int {
	if c.neg {
		return -s
	}
	return s
}

func cmpMagnitude(a, b *decimal) int {
	if a.point != b.point {
		if a.point < b.point {
			return -1
		}
		return 1
	}
	for i := 0; i < min(a.n, b.n); i++ {
		if a.d[i] != b.d[i] {
			if a.d[i] < b.d[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case a.n < b.n:
		return -1
	case a.n > b.n:
		return 1
	}
	return 0
}

// divisor is a compiled multipleOf.
type divisor struct {
	text string  // the schema's number text, for value.IsMultipleOf
	dec  decimal // canonical form
	// pow10 is set when the divisor is a power of ten, 10^exp10: then a
	// number is a multiple exactly when its last significant digit is at or
	// above that position (0.07 for 0.01, not 0.075).
	pow10  bool
	exp10  int
	small  uint64 // the digits as an integer when they fit in 18 digits
	fitsU6 bool
}

func newDivisor(n json.Number) (*divisor, bool) {
	d, ok := parseDecimal(string(n))
	if !ok || d.n == 0 || d.neg {
		return nil, false
	}
	v := &divisor{text: string(n), dec: d}
	if d.n == 1 && d.d[0] == '1' {
		v.pow10, v.exp10 = true, d.point-1
	}
	if d.n <= 18 {
		v.fitsU6 = true
		for i := 0; i < d.n; i++ {
			v.small = v.small*10 + uint64(d.d[i]-'0')
		}
	}
	return v, true
}

// multipleByScale answers for a power-of-ten divisor 10^e with e <= 0 from
// the scale of the number alone, without parsing it again.
func (v *divisor) multipleByScale(info value.NumberInfo) (answer, known bool) {
	if v.pow10 && v.exp10 <= 0 {
		return info.Scale <= -v.exp10, true
	}
	return false, false
}

// multiple reports whether n (text) is an integer multiple of v, exactly as
// big.Rat division would.
func (v *divisor) multiple(text []byte, n *decimal) bool {
	if n.n == 0 {
		return true
	}
	en, em := n.point-n.n, v.dec.point-v.dec.n // exponents of the last digits
	if v.pow10 {
		return en >= em
	}
	if en < em {
		// n = dn×10^en, m = dm×10^em: dn would need 10^(em-en) as a factor,
		// but its last digit is not zero.
		return false
	}
	if !v.fitsU6 {
		ok, err := value.IsMultipleOf(string(text), v.text)
		return err == nil && ok
	}
	// dn × 10^(en-em) mod dm, by Horner's rule in 128-bit steps.
	var r uint64
	step := func(digit uint64) {
		hi, lo := bits.Mul64(r, 10)
		var carry uint64
		lo, carry = bits.Add64(lo, digit, 0)
		_, r = bits.Div64(hi+carry, lo, v.small)
	}
	for i := 0; i < n.n; i++ {
		step(uint64(n.d[i] - '0'))
	}
	for k := 0; k < en-em && r != 0; k++ {
		step(0)
	}
	return r == 0
}
