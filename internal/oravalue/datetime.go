package oravalue

import "time"

// Date-times. The Oracle engine binds dates as "YYYY-MM-DD" into
// TO_DATE(:n, 'YYYY-MM-DD') and date-times as
// "YYYY-MM-DDTHH:MM:SS.fffffffff" (with " +00:00" for WITH TIME ZONE) into
// TO_TIMESTAMP[_TZ](:n, 'YYYY-MM-DD"T"HH24:MI:SS.FF9[ TZH:TZM]'). A field
// out of range gets Oracle's code for that field (ORA-01841 year, 01843
// month, 01847 day, 01839 day of that month, 01850 hour, 01851 minute,
// 01852 second); text of any other shape is ORA-01861, where Oracle's
// format matching is more lenient (other separators, fewer digits) or
// names the mismatch more precisely (ORA-01858, 01840, 01830).

// stamp is a parsed date-time.
type stamp struct {
	y, mo, d, h, mi, s, ns int
	frac                   int // fraction digits as written
	offset                 int // minutes east of UTC
}

// ToDate is TO_DATE(s, 'YYYY-MM-DD'): the stored date (s itself).
func ToDate(s string) (string, *Error) {
	if len(s) != 10 {
		return "", mismatch(s)
	}
	var st stamp
	if err := st.date(s); err != nil {
		return "", err
	}
	return s, nil
}

// ToTimestamp is TO_TIMESTAMP(s, 'YYYY-MM-DD"T"HH24:MI:SS.FF9'), or with
// tz TO_TIMESTAMP_TZ(s, 'YYYY-MM-DD"T"HH24:MI:SS.FF9 TZH:TZM'): the stored
// UTC date-time "YYYY-MM-DDTHH:MM:SS[.f]Z" (fraction trimmed).
func ToTimestamp(s string, tz bool) (string, *Error) {
	var st stamp
	if err := st.date(s); err != nil {
		return "", err
	}
	i, err := st.clock(s, 10, true)
	if err != nil {
		return "", err
	}
	if tz {
		if i, err = st.zone(s, i); err != nil {
			return "", err
		}
	}
	if i != len(s) {
		return "", mismatch(s)
	}
	return st.utc(s)
}

// storedTimestamp converts a stored date-time ("…Z", or a bare date, which
// the Oracle engine binds as its midnight) as ToTimestamp converts its
// bind text.
func storedTimestamp(s string) (string, *Error) {
	if fastStored(s) {
		return s, nil
	}
	return parseStored(s)
}

// parseStored is storedTimestamp by the general parser.
func parseStored(s string) (string, *Error) {
	var st stamp
	if err := st.date(s); err != nil {
		return "", err
	}
	if len(s) == 10 {
		return s + "T00:00:00Z", nil
	}
	i, err := st.clock(s, 10, false)
	if err != nil {
		return "", err
	}
	if i != len(s)-1 || s[i] != 'Z' {
		return "", mismatch(s)
	}
	if st.frac > 0 && s[i-1] == '0' {
		// Fields are fixed-width: only a fraction's trailing zeros
		// make the text other than canonical.
		var buf [40]byte
		return string(st.appendText(buf[:0])), nil
	}
	return s, nil
}

func mismatch(s string) *Error {
	return errorf(1861, "literal does not match format string (%.40q)", s)
}

// num reads n digits of s at i.
func num(s string, i, n int) (int, bool) {
	if i+n > len(s) {
		return 0, false
	}
	v := 0
	for _, c := range []byte(s[i : i+n]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// date reads "YYYY-MM-DD" at the start of s.
func (st *stamp) date(s string) *Error {
	var ok [3]bool
	st.y, ok[0] = num(s, 0, 4)
	st.mo, ok[1] = num(s, 5, 2)
	st.d, ok[2] = num(s, 8, 2)
	if !ok[0] || !ok[1] || !ok[2] || s[4] != '-' || s[7] != '-' {
		return mismatch(s)
	}
	return st.checkDate(s)
}

func (st *stamp) checkDate(s string) *Error {
	switch {
	case st.y == 0 || st.y > 9999:
		return errorf(1841, "(full) year must be between -4713 and +9999, and not be 0 (%.40q)", s)
	case st.mo < 1 || st.mo > 12:
		return errorf(1843, "not a valid month (%.40q)", s)
	case st.d < 1 || st.d > 31:
		return errorf(1847, "day of month must be between 1 and last day of month (%.40q)", s)
	case st.d > daysIn(st.y, st.mo):
		return errorf(1839, "date not valid for month specified (%.40q)", s)
	}
	return nil
}

// clock reads "THH:MM:SS" at i, then ".f" (1–9 digits; required when
// needFrac), and returns the index after it.
func (st *stamp) clock(s string, i int, needFrac bool) (int, *Error) {
	var ok [3]bool
	st.h, ok[0] = num(s, i+1, 2)
	st.mi, ok[1] = num(s, i+4, 2)
	st.s, ok[2] = num(s, i+7, 2)
	if !ok[0] || !ok[1] || !ok[2] || s[i] != 'T' || s[i+3] != ':' || s[i+6] != ':' {
		return 0, mismatch(s)
	}
	switch {
	case st.h > 23:
		return 0, errorf(1850, "hour must be between 0 and 23 (%.40q)", s)
	case st.mi > 59:
		return 0, errorf(1851, "minutes must be between 0 and 59 (%.40q)", s)
	case st.s > 59:
		return 0, errorf(1852, "seconds must be between 0 and 59 (%.40q)", s)
	}
	i += 9
	if i == len(s) || s[i] != '.' {
		if needFrac {
			return 0, mismatch(s)
		}
		return i, nil
	}
	j := i + 1
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	st.frac = j - i - 1
	if st.frac < 1 || st.frac > 9 {
		return 0, mismatch(s)
	}
	st.ns, _ = num(s, i+1, st.frac)
	for k := st.frac; k < 9; k++ {
		st.ns *= 10
	}
	return j, nil
}

// zone reads " +HH:MM" (or -) at i.
func (st *stamp) zone(s string, i int) (int, *Error) {
	h, okH := num(s, i+2, 2)
	m, okM := num(s, i+5, 2)
	if !okH || !okM || s[i] != ' ' || s[i+1] != '+' && s[i+1] != '-' || s[i+4] != ':' || h > 23 || m > 59 {
		return 0, mismatch(s)
	}
	st.offset = h*60 + m
	if s[i+1] == '-' {
		st.offset = -st.offset
	}
	return i + 7, nil
}

// utc converts the parsed date-time to UTC and writes its stored form.
func (st *stamp) utc(s string) (string, *Error) {
	if st.offset != 0 {
		t := time.Date(st.y, time.Month(st.mo), st.d, st.h, st.mi, st.s, st.ns, time.FixedZone("", st.offset*60)).UTC()
		st.y, st.mo, st.d, st.h, st.mi, st.s = t.Year(), int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second()
		if err := st.checkDate(s); err != nil {
			return "", err
		}
	}
	var buf [40]byte
	return string(st.appendText(buf[:0])), nil
}

// appendText writes the stored form: "YYYY-MM-DDTHH:MM:SS[.f]Z".
func (st *stamp) appendText(b []byte) []byte {
	b = append4(b, st.y)
	b = append(b, '-')
	b = append2(b, st.mo)
	b = append(b, '-')
	b = append2(b, st.d)
	b = append(b, 'T')
	b = append2(b, st.h)
	b = append(b, ':')
	b = append2(b, st.mi)
	b = append(b, ':')
	b = append2(b, st.s)
	if st.ns != 0 {
		var f [9]byte
		ns := st.ns
		for k := 8; k >= 0; k-- {
			f[k] = byte('0' + ns%10)
			ns /= 10
		}
		n := 9
		for f[n-1] == '0' {
			n--
		}
		b = append(b, '.')
		b = append(b, f[:n]...)
	}
	return append(b, 'Z')
}

func append2(b []byte, v int) []byte { return append(b, byte('0'+v/10), byte('0'+v%10)) }

func append4(b []byte, v int) []byte {
	return append(b, byte('0'+v/1000), byte('0'+v/100%10), byte('0'+v/10%10), byte('0'+v%10))
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// fastStored reports whether s is a canonical stored date-time whose
// fields are all in range: the embedded engine's common case, decided
// without the general parser (which then words any error).
func fastStored(s string) bool {
	n := len(s)
	if n < 20 || n == 21 || n > 30 {
		return false
	}
	_ = s[19]
	if s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[n-1] != 'Z' {
		return false
	}
	y0, y1, y2, y3 := s[0]-'0', s[1]-'0', s[2]-'0', s[3]-'0'
	m0, m1, d0, d1 := s[5]-'0', s[6]-'0', s[8]-'0', s[9]-'0'
	h0, h1, i0, i1, s0, s1 := s[11]-'0', s[12]-'0', s[14]-'0', s[15]-'0', s[17]-'0', s[18]-'0'
	if y0 > 9 || y1 > 9 || y2 > 9 || y3 > 9 || m0 > 1 || m1 > 9 || d0 > 3 || d1 > 9 ||
		h0 > 2 || h1 > 9 || i0 > 5 || i1 > 9 || s0 > 5 || s1 > 9 {
		return false
	}
	if n > 20 {
		if s[19] != '.' || s[n-2] == '0' {
			return false
		}
		for i := 20; i < n-1; i++ {
			if s[i]-'0' > 9 {
				return false
			}
		}
	}
	y := int(y0)*1000 + int(y1)*100 + int(y2)*10 + int(y3)
	mo, day := int(m0*10+m1), int(d0*10+d1)
	return y > 0 && mo >= 1 && mo <= 12 && day >= 1 && (day <= 28 || day <= daysIn(y, mo)) && h0*10+h1 < 24
}
