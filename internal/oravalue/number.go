package oravalue

import "strings"

// maxIntDigits: NUMBER holds magnitudes below 1e126.
const maxIntDigits = 126

// ToNumber is TO_NUMBER of a plain decimal ([+-]digits[.digits], or
// .digits, or digits.): the canonical text of the number (no leading or
// trailing zeros, "0" for zero, no sign but '-'), or ORA-01722 for any
// other text (the model takes no exponent, spaces or group separators: the
// Oracle engine binds canonical decimals) and ORA-01426 for a magnitude of
// 1e126 or more. A canonical s is returned as is.
func ToNumber(s string) (string, *Error) {
	if d, _, ok := canonicalShape(s); ok {
		if d > maxIntDigits {
			return "", errorf(1426, "numeric overflow: %.40q… has more than %d integer digits", s, maxIntDigits)
		}
		return s, nil
	}
	body := s
	neg := false
	if body != "" && (body[0] == '-' || body[0] == '+') {
		neg, body = body[0] == '-', body[1:]
	}
	ip, fp, _ := strings.Cut(body, ".")
	if ip == "" && fp == "" || !digits(ip) || !digits(fp) {
		return "", errorf(1722, "invalid number %.40q", s)
	}
	ip = strings.TrimLeft(ip, "0")
	fp = strings.TrimRight(fp, "0")
	if len(ip) > maxIntDigits {
		return "", errorf(1426, "numeric overflow: %.40q… has more than %d integer digits", s, maxIntDigits)
	}
	if ip == "" {
		ip = "0"
	}
	out := ip
	if fp != "" {
		out += "." + fp
	}
	if neg && out != "0" {
		out = "-" + out
	}
	return out, nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// canonicalShape reports whether s is a number in canonical form,
// -?(0|[1-9][0-9]*)(\.[0-9]*[1-9])? and not "-0", with its integer
// digits (none for "0") and scale.
func canonicalShape(s string) (intDigits, scale int, ok bool) {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	start := i
	for i < len(s) && s[i]-'0' <= 9 {
		i++
	}
	intDigits = i - start
	switch {
	case intDigits == 0, s[start] == '0' && intDigits > 1:
		return 0, 0, false
	case s[start] == '0':
		intDigits = 0
	}
	if i == len(s) {
		return intDigits, 0, !(start == 1 && intDigits == 0)
	}
	if s[i] != '.' || i == len(s)-1 || s[len(s)-1] == '0' {
		return 0, 0, false
	}
	for j := i + 1; j < len(s); j++ {
		if s[j]-'0' > 9 {
			return 0, 0, false
		}
	}
	return intDigits, len(s) - i - 1, true
}

func canonicalNumber(s string) bool {
	_, _, ok := canonicalShape(s)
	return ok
}

// numberShape returns the integer digits and scale of a canonical number.
func numberShape(v string) (intDigits, scale int) {
	v = strings.TrimPrefix(v, "-")
	ip, fp, _ := strings.Cut(v, ".")
	if ip == "0" {
		ip = ""
	}
	return len(ip), len(fp)
}
