package oravalue

import "strings"

// Numbers in the JSON type. Oracle's JSON type (21c and later, OSON)
// holds a number of textual JSON as an Oracle NUMBER, not as its text:
// JSON_SERIALIZE gives the number back, not what was written, so `1.0` is
// 1, `1e2` 100, `-0` 0 and `1.50` 1.5. (JSON Developer's Guide: JSON text
// inserted into a JSON column is parsed by the JSON constructor; numbers
// become NUMBER unless marked otherwise in extended JSON.) The model keeps
// each number of a native JSON value in the NUMBER column's stored form
// (canonical plain decimal, as ToNumber gives), so the dry run, its dump
// and --verify's expectation show what the server keeps. A number NUMBER
// cannot hold exactly (more than 38 significant digits, a magnitude of
// 1e126 or more, or non-zero below 1e-130) is refused, where Oracle would
// round it: the loader refuses those as invalid input before (docs/types.md).
// A CLOB IS JSON column keeps the text as written. Verified on Oracle: not
// yet (the text JSON_SERIALIZE gives for a NUMBER is assumed to be its
// plain decimal).

// maxJSONNumberDigits is NUMBER's exact precision.
const maxJSONNumberDigits = 38

// jsonNumbersKept reports whether every number of JSON text v (outside
// strings) is already in the stored form: canonical, no exponent, within
// NUMBER. It is the cheap test of the embedded engine's hot path
// (Keeper): one pass, no allocation.
func jsonNumbersKept(v string) bool {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"':
			j, ok := stringEnd(v, i)
			if !ok {
				return false
			}
			i = j
		case c == '-' || c-'0' <= 9:
			j := numberEnd(v, i)
			if !storedNumber(v[i:j]) {
				return false
			}
			i = j - 1
		}
	}
	return true
}

// storedNumber reports whether number text s is in the stored form: a
// canonical decimal NUMBER holds exactly (at most 38 significant digits,
// 1e-130 <= |s| < 1e126, or 0).
func storedNumber(s string) bool {
	d, sc, ok := canonicalShape(s)
	switch {
	case !ok || d > maxIntDigits:
		return false
	case d > 0:
		return d+sc <= maxJSONNumberDigits
	case sc == 0:
		return true // 0
	}
	// 0.000ddd: the fraction's leading zeros are the magnitude, not digits.
	f := s[strings.IndexByte(s, '.')+1:]
	lead := len(f) - len(strings.TrimLeft(f, "0"))
	return lead <= 129 && len(f)-lead <= maxJSONNumberDigits
}

// jsonNumbers returns JSON text v with every number (outside strings) in
// the stored form (see above), or ORA-01426 for a number NUMBER cannot
// hold exactly. v itself when nothing changes. c names the column in
// messages (nil: none).
func jsonNumbers(v string, c *Column) (string, *Error) {
	if jsonNumbersKept(v) {
		return v, nil
	}
	column := ""
	if c != nil {
		column = " in column " + c.path()
	}
	var b strings.Builder
	b.Grow(len(v))
	last := 0
	for i := 0; i < len(v); i++ {
		switch ch := v[i]; {
		case ch == '"':
			j, ok := stringEnd(v, i)
			if !ok {
				return "", errorf(40441, "JSON syntax error%s", column)
			}
			i = j
		case ch == '-' || ch-'0' <= 9:
			j := numberEnd(v, i)
			n, err := jsonNumber(v[i:j])
			if err != "" {
				return "", errorf(1426, "numeric overflow: JSON number %.40s%s: %s (the JSON type holds numbers as Oracle NUMBER)", v[i:j], column, err)
			}
			b.WriteString(v[last:i])
			b.WriteString(n)
			last = j
			i = j - 1
		}
	}
	b.WriteString(v[last:])
	return b.String(), nil
}

// stringEnd returns the index of the '"' that closes the string opening
// at v[i].
func stringEnd(v string, i int) (int, bool) {
	for j := i + 1; j < len(v); j++ {
		switch v[j] {
		case '\\':
			j++
		case '"':
			return j, true
		}
	}
	return 0, false
}

// numberEnd returns the index after the number token starting at v[i].
func numberEnd(v string, i int) int {
	j := i + 1
	for j < len(v) {
		c := v[j]
		if c-'0' <= 9 || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-' {
			j++
			continue
		}
		break
	}
	return j
}

// jsonNumber is the stored form of one JSON number token (its NUMBER's
// canonical plain decimal), or why NUMBER cannot hold it exactly.
func jsonNumber(tok string) (string, string) {
	s := tok
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	mant, exps, hasExp := strings.Cut(strings.ToLower(s), "e")
	ip, fp, _ := strings.Cut(mant, ".")
	if ip == "" || !digits(ip) || !digits(fp) {
		return "", "not a number"
	}
	exp := 0
	if hasExp {
		es := strings.TrimPrefix(strings.TrimPrefix(exps, "+"), "-")
		if es == "" || !digits(es) {
			return "", "not a number"
		}
		for _, c := range es {
			if exp < 1_000_000_000 {
				exp = exp*10 + int(c-'0')
			}
		}
		if strings.HasPrefix(exps, "-") {
			exp = -exp
		}
	}
	ds := ip + fp
	point := len(ip) + exp // the decimal point's place in ds
	trimmed := strings.TrimLeft(ds, "0")
	point -= len(ds) - len(trimmed)
	ds = strings.TrimRight(trimmed, "0")
	switch {
	case ds == "":
		return "0", ""
	case len(ds) > maxJSONNumberDigits:
		return "", "more than 38 significant digits"
	case point > maxIntDigits:
		return "", "a magnitude of 1e126 or more"
	case point < -129:
		return "", "a magnitude below 1e-130"
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	switch {
	case point <= 0:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -point))
		b.WriteString(ds)
	case point >= len(ds):
		b.WriteString(ds)
		b.WriteString(strings.Repeat("0", point-len(ds)))
	default:
		b.WriteString(ds[:point])
		b.WriteByte('.')
		b.WriteString(ds[point:])
	}
	return b.String(), ""
}

// ToJSON is the JSON(:n) constructor of a JSON column: JSONText's errors
// for text that is not JSON or repeats a member name, ORA-01426 for a
// number NUMBER cannot hold exactly, and otherwise the value the JSON type
// keeps: its numbers as NUMBERs (jsonNumbers).
func ToJSON(s string) (string, *Error) {
	if err := JSONText(s); err != nil {
		return "", err
	}
	return jsonNumbers(s, nil)
}
