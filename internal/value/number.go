// Package value canonicalises JSON scalar values exactly: numbers as plain
// decimal text in the form Oracle prints them, and date-times as UTC
// instants. It is the single source of truth for what a valid number or
// date-time is, shared by schema validation, the table model and the
// database binder, so that all three agree. Nothing here goes through
// float64 or time.Parse.
package value

import (
	"fmt"
	"math/big"
)

// Oracle NUMBER limits. A value outside them cannot be stored without
// changing it, so it is invalid input (SPEC §5.2).
const (
	// MaxSignificantDigits is the most significant decimal digits a NUMBER keeps.
	MaxSignificantDigits = 38
	// minPointPos and maxPointPos bound the decimal point position p of a
	// non-zero value written as 0.d1d2…dn × 10^p: the value is in
	// [10^(p-1), 10^p), so 1e-130 <= |v| < 1e126 means -129 <= p <= 126.
	minPointPos = -129
	maxPointPos = 126
	// expClamp saturates parsed exponents so that absurd ones ("1e99999999999")
	// cannot overflow; anything beyond it is out of range anyway.
	expClamp = 1 << 40
)

// NumberInfo describes the canonical form of a number.
type NumberInfo struct {
	// IntDigits is the number of significant digits before the decimal point:
	// 0 for "0" and for "0.x", 3 for "123.45", 5 for "12000".
	IntDigits int
	// Scale is the number of digits after the decimal point of the canonical
	// text (0.00001 has scale 5).
	Scale int
	// Integer reports Scale == 0.
	Integer bool
}

// Error is an invalid value. Reason says what was expected, without the
// value, so that callers can compose their own message around it.
type Error struct {
	What   string // "number", "date-time", "date", "time"
	Input  string // the offending text, cut to a readable length
	Reason string
	// Unstorable: the text is valid (RFC 3339: a leap second, a tenth
	// non-zero fraction digit) but Oracle cannot store it exactly.
	Unstorable bool
}

func (e *Error) Error() string {
	if e.Unstorable {
		return fmt.Sprintf("%s %q cannot be stored exactly: %s", e.What, e.Input, e.Reason)
	}
	return fmt.Sprintf("invalid %s %q: %s", e.What, e.Input, e.Reason)
}

// maxInputInError bounds how much of a (possibly megabytes long) input an
// error message repeats.
const maxInputInError = 64

func newError[T ~string | ~[]byte](what string, s T, reason string) *Error {
	in := string(s[:min(len(s), maxInputInError)])
	if len(s) > maxInputInError {
		in += "…"
	}
	return &Error{What: what, Input: in, Reason: reason}
}

// number is the result of scanning JSON number text: the digits of the
// integer and fraction parts are kept as index ranges into the text.
type number struct {
	neg                bool
	intStart, intEnd   int
	fracStart, fracEnd int
	exp                int64
}

// scanNumber checks text against the JSON number grammar
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? and returns its parts, or a
// reason when it does not match.
func scanNumber[T ~string | ~[]byte](s T) (number, string) {
	var n number
	i := 0
	if i < len(s) && s[i] == '-' {
		n.neg = true
		i++
	}
	n.intStart = i
	switch {
	case i >= len(s):
		return n, "expected a digit"
	case s[i] == '0':
		i++
	case s[i] >= '1' && s[i] <= '9':
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	default:
		return n, "expected a JSON number"
	}
	n.intEnd = i
	n.fracStart, n.fracEnd = i, i
	if i < len(s) && s[i] == '.' {
		i++
		n.fracStart = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == n.fracStart {
			return n, "expected a digit after the decimal point"
		}
		n.fracEnd = i
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		negExp := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			negExp = s[i] == '-'
			i++
		}
		start := i
		for i < len(s) && isDigit(s[i]) {
			if n.exp < expClamp {
				n.exp = n.exp*10 + int64(s[i]-'0')
			}
			i++
		}
		if i == start {
			return n, "expected a digit in the exponent"
		}
		if negExp {
			n.exp = -n.exp
		}
	}
	if i != len(s) {
		return n, "expected a JSON number"
	}
	return n, ""
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digitAt returns the i-th digit of the concatenated integer and fraction
// digits.
func digitAt[T ~string | ~[]byte](s T, n *number, i int) byte {
	if nInt := n.intEnd - n.intStart; i >= nInt {
		return s[n.fracStart+i-nInt]
	}
	return s[n.intStart+i]
}

// canonical is a validated number: its significant digits (no leading or
// trailing zeros) and the decimal point position p in 0.digits × 10^p.
type canonical struct {
	neg    bool
	digits [MaxSignificantDigits]byte
	n      int // number of significant digits; 0 for zero
	point  int
}

// analyse validates the magnitude and precision of text in one linear pass
// over its digits. It never materialises the exponent, so "1e400000" costs no
// more than "1".
func analyse[T ~string | ~[]byte](s T) (canonical, *Error) {
	var c canonical
	n, reason := scanNumber(s)
	if reason != "" {
		return c, newError("number", s, reason)
	}
	nInt := n.intEnd - n.intStart
	total := nInt + n.fracEnd - n.fracStart
	first := -1
	for i := 0; i < total; i++ {
		if digitAt(s, &n, i) != '0' {
			first = i
			break
		}
	}
	if first < 0 {
		return c, nil // zero, whatever its sign and exponent
	}
	last := total - 1
	for digitAt(s, &n, last) == '0' {
		last--
	}
	sig := last - first + 1
	if sig > MaxSignificantDigits {
		return c, newError("number", s, fmt.Sprintf("%d significant digits, at most %d expected", sig, MaxSignificantDigits))
	}
	point := int64(nInt) + n.exp - int64(first)
	if point > maxPointPos {
		return c, newError("number", s, "magnitude 1e126 or more, less expected")
	}
	if point < minPointPos {
		return c, newError("number", s, "non-zero magnitude below 1e-130, at least 1e-130 expected")
	}
	c.neg = n.neg
	c.n = sig
	c.point = int(point)
	for i := 0; i < sig; i++ {
		c.digits[i] = digitAt(s, &n, first+i)
	}
	return c, nil
}

func (c *canonical) info() NumberInfo {
	var in NumberInfo
	switch {
	case c.n == 0:
	case c.point <= 0:
		in.Scale = c.n - c.point
	case c.point >= c.n:
		in.IntDigits = c.point
	default:
		in.IntDigits = c.point
		in.Scale = c.n - c.point
	}
	in.Integer = in.Scale == 0
	return in
}

func (c *canonical) appendTo(dst []byte) []byte {
	if c.n == 0 {
		return append(dst, '0')
	}
	if c.neg {
		dst = append(dst, '-')
	}
	d := c.digits[:c.n]
	switch {
	case c.point <= 0:
		dst = append(dst, '0', '.')
		for i := c.point; i < 0; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, d...)
	case c.point >= c.n:
		dst = append(dst, d...)
		for i := c.n; i < c.point; i++ {
			dst = append(dst, '0')
		}
	default:
		dst = append(dst, d[:c.point]...)
		dst = append(dst, '.')
		dst = append(dst, d[c.point:]...)
	}
	return dst
}

// CanonicalNumber returns JSON number text in Oracle's canonical plain
// decimal form: no exponent, no leading '+', no leading zeros except "0.x",
// no trailing fractional zeros, "-0" → "0"; e.g. "1.50"→"1.5", "1e3"→"1000",
// "-0.0"→"0", "1E-5"→"0.00001".
//
// It fails with an *Error for text that is not a JSON number, has more than
// 38 significant digits, or has a non-zero magnitude below 1e-130 or one of
// 1e126 or more: such values cannot be stored in a NUMBER unchanged. It runs
// in time linear in len(text) and never goes through float64.
func CanonicalNumber(text string) (canon string, info NumberInfo, err error) {
	c, e := analyse(text)
	if e != nil {
		return "", NumberInfo{}, e
	}
	var buf [176]byte
	return string(c.appendTo(buf[:0])), c.info(), nil
}

// AppendCanonicalNumber is CanonicalNumber appending the canonical text to
// dst; it does not allocate when dst has room (at most 171 bytes are added).
// On error dst is returned unchanged.
func AppendCanonicalNumber(dst []byte, text []byte) ([]byte, NumberInfo, error) {
	if out, info, ok := appendPlain(dst, text); ok {
		return out, info, nil
	}
	c, e := analyse(text)
	if e != nil {
		return dst, NumberInfo{}, e
	}
	return c.appendTo(dst), c.info(), nil
}

// appendPlain is AppendCanonicalNumber for the text taps mostly send: the
// JSON grammar without an exponent, at most MaxSignificantDigits bytes (so
// within the digits and the range of a NUMBER). The canonical text is then
// the text itself minus trailing fractional zeros (and "-0" → "0"). It
// reports false, having appended nothing, for any other text.
func appendPlain(dst, text []byte) ([]byte, NumberInfo, bool) {
	if len(text) > MaxSignificantDigits {
		return dst, NumberInfo{}, false
	}
	i := 0
	if len(text) > 0 && text[0] == '-' {
		i = 1
	}
	intStart := i
	for i < len(text) && text[i]-'0' <= 9 {
		i++
	}
	intEnd := i
	if i == intStart || i-intStart > 1 && text[intStart] == '0' {
		return dst, NumberInfo{}, false
	}
	if i < len(text) {
		if text[i] != '.' {
			return dst, NumberInfo{}, false
		}
		for i++; i < len(text) && text[i]-'0' <= 9; i++ {
		}
		if i != len(text) || i == intEnd+1 {
			return dst, NumberInfo{}, false
		}
	}
	out, info := appendPlainDecimal(dst, text, intStart, intEnd)
	return out, info, true
}

// AppendPlainNumber is AppendCanonicalNumber for text a caller has already
// matched to the JSON number grammar, without an exponent and of at most
// MaxSignificantDigits bytes, with its '.' at dot (-1 when it has none):
// the validator's scan found both, so the text is not scanned again. Other
// text must go to AppendCanonicalNumber.
func AppendPlainNumber(dst, text []byte, dot int) ([]byte, NumberInfo) {
	intStart := 0
	if text[0] == '-' {
		intStart = 1
	}
	intEnd := dot
	if dot < 0 {
		intEnd = len(text)
	}
	return appendPlainDecimal(dst, text, intStart, intEnd)
}

// appendPlainDecimal appends the canonical form of text, a plain JSON
// decimal whose integer digits are text[intStart:intEnd] (then '.' and at
// least one digit, or the end): trailing fractional zeros and a bare '.'
// dropped, "-0" → "0". One rule for appendPlain and AppendPlainNumber.
func appendPlainDecimal(dst, text []byte, intStart, intEnd int) ([]byte, NumberInfo) {
	end := len(text)
	if end > intEnd {
		for text[end-1] == '0' {
			end--
		}
		if text[end-1] == '.' {
			end--
		}
	}
	zeroInt := intEnd-intStart == 1 && text[intStart] == '0'
	if zeroInt && end == intEnd {
		return append(dst, '0'), NumberInfo{Integer: true}
	}
	var info NumberInfo
	if !zeroInt {
		info.IntDigits = intEnd - intStart
	}
	if end > intEnd {
		info.Scale = end - intEnd - 1
	}
	info.Integer = info.Scale == 0
	return append(dst, text[:end]...), info
}

// CheckNumber validates number text like CanonicalNumber without producing
// the canonical text; it does not allocate unless it fails.
func CheckNumber[T ~string | ~[]byte](text T) (NumberInfo, error) {
	c, e := analyse(text)
	if e != nil {
		return NumberInfo{}, e
	}
	return c.info(), nil
}

// IsMultipleOf reports whether number n is an exact multiple of m, both
// given as JSON number text (canonical or not): 0.07 is a multiple of 0.01,
// 0.075 is not. m must be positive. It is exact: both are scaled to integers
// and compared by remainder, never through float64.
func IsMultipleOf(n, m string) (bool, error) {
	cn, e := analyse(n)
	if e != nil {
		return false, e
	}
	cm, e := analyse(m)
	if e != nil {
		return false, e
	}
	if cm.n == 0 || cm.neg {
		return false, newError("number", m, "a positive divisor expected")
	}
	if cn.n == 0 {
		return true, nil
	}
	// v = int(digits) × 10^(point-n); scale both to the smaller exponent.
	en, em := cn.point-cn.n, cm.point-cm.n
	a, b := cn.bigDigits(), cm.bigDigits()
	ten := big.NewInt(10)
	if en > em {
		a.Mul(a, new(big.Int).Exp(ten, big.NewInt(int64(en-em)), nil))
	} else if em > en {
		b.Mul(b, new(big.Int).Exp(ten, big.NewInt(int64(em-en)), nil))
	}
	return new(big.Int).Rem(a, b).Sign() == 0, nil
}

func (c *canonical) bigDigits() *big.Int {
	v, _ := new(big.Int).SetString(string(c.digits[:c.n]), 10)
	return v
}
