package value

// Date-times (SPEC §4) match exactly
//
//	full-date ("T"|"t"|" ") HH ":" MM [":" SS ["." 1*9DIGIT]] [("Z"|"z") | ("+"|"-") HH ":" MM]
//
// that is RFC 3339 date-time, also with a space instead of 'T', without
// seconds (the Meltano tutorial's tap writes "2018-05-15T11:30Z"; the
// seconds are then 00, so "11:30Z" and "11:30:00Z" are one instant and one
// key) and with no zone at all (taken as UTC). 't' and 'z' are accepted as
// RFC 3339 allows. Years are 0001–9999, before and after converting to UTC.
//
// Decisions:
//   - A '.' must follow seconds and be followed by 1 to 9 digits
//     ("12:00:00." and "12:00.5" are invalid), the grammar of SPEC §4.
//     RFC 3339 allows more; Oracle's TIMESTAMP keeps 9, so a tenth digit
//     (even a zero: SPEC §4 does not accept it) is refused as text Oracle
//     cannot store exactly.
//   - Hour 24 and second 60 (leap seconds) are refused: neither Oracle nor
//     Go's time package can represent them without changing the value. The
//     reasons say so: the text is RFC 3339, the database cannot hold it.
//   - Offsets are ±HH:MM with HH <= 23 and MM <= 59; "-00:00" is UTC.
//   - The days 1582-10-05 … 1582-10-14 (of a date-time in UTC) are invalid:
//     Oracle's calendar goes from the Julian 1582-10-04 to the Gregorian
//     1582-10-15, and its TO_DATE/TO_TIMESTAMP[_TZ] silently store such a
//     day as 1582-10-15 (the value would not load as sent).

// DateTime is a parsed date-time, normalised to UTC.
type DateTime struct {
	Year, Month, Day     int
	Hour, Minute, Second int
	Nanosecond           int
	// Frac is the number of fractional digits needed to write Nanosecond
	// exactly (trailing zeros trimmed): 0 for whole seconds, at most 9.
	Frac int
}

// ParseDateTime parses a date-time (see the package rules above) and
// converts it to UTC exactly: "2024-01-02T02:00:00+05:30" is 2024-01-01
// 20:30:00 UTC. It does not allocate unless it fails.
func ParseDateTime[T ~string | ~[]byte](s T) (DateTime, error) {
	dt, reason := parseDateTime(s)
	if reason != "" {
		return DateTime{}, dateTimeError(s, reason)
	}
	return dt, nil
}

// HasZone reports whether a date-time that ParseDateTime accepts names its
// zone ('Z', 'z' or an offset) rather than being taken as UTC.
func HasZone[T ~string | ~[]byte](s T) bool {
	n := len(s)
	if n == 0 {
		return false
	}
	// The date's '-' are at 4 and 7; after the minutes only a zone has
	// one.
	return s[n-1] == 'Z' || s[n-1] == 'z' || n-6 >= 16 && (s[n-6] == '+' || s[n-6] == '-')
}

// CanonicalDateTime returns the canonical UTC text of a date-time,
// "YYYY-MM-DDTHH:MM:SS[.fffffffff]Z" with trailing fractional zeros trimmed
// (no '.' when the fraction is zero), and the number of fractional digits
// kept.
func CanonicalDateTime(s []byte) (canon string, frac int, err error) {
	var buf [32]byte
	b, frac, err := AppendCanonicalDateTime(buf[:0], s)
	if err != nil {
		return "", 0, err
	}
	return string(b), frac, nil
}

// AppendCanonicalDateTime is CanonicalDateTime appending to dst; it does not
// allocate when dst has room for 30 more bytes. On error dst is returned
// unchanged.
func AppendCanonicalDateTime(dst, s []byte) ([]byte, int, error) {
	dt, ok := quickDateTime(s) // parseDateTime, one call less
	if !ok {
		var reason string
		if dt, reason = parseDateTimeGeneral(s); reason != "" {
			return dst, 0, dateTimeError(s, reason)
		}
	}
	if s[10] == 'T' && s[len(s)-1] == 'Z' && s[16] == ':' {
		// Already UTC and written as the canonical text is (seconds
		// included): copy it, minus the fraction's trailing zeros.
		if dt.Frac == 0 {
			return append(append(dst, s[:19]...), 'Z'), 0, nil
		}
		return append(append(dst, s[:20+dt.Frac]...), 'Z'), dt.Frac, nil
	}
	return dt.AppendText(dst), dt.Frac, nil
}

// AppendText appends the canonical UTC text of dt.
func (dt DateTime) AppendText(dst []byte) []byte {
	// Written into a fixed buffer and appended once.
	var b [30]byte
	y := dt.Year
	b[0], b[1], b[2], b[3] = byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10)
	b[4], b[7], b[10], b[13], b[16] = '-', '-', 'T', ':', ':'
	put2(b[5:7], dt.Month)
	put2(b[8:10], dt.Day)
	put2(b[11:13], dt.Hour)
	put2(b[14:16], dt.Minute)
	put2(b[17:19], dt.Second)
	n := 19
	if dt.Frac > 0 {
		b[19] = '.'
		ns := dt.Nanosecond
		for i := 28; i >= 20; i-- {
			b[i] = byte('0' + ns%10)
			ns /= 10
		}
		n = 20 + dt.Frac
	}
	b[n] = 'Z'
	return append(dst, b[:n+1]...)
}

func put2(b []byte, v int) {
	b[0], b[1] = byte('0'+v/10), byte('0'+v%10)
}

// CheckDate validates an RFC 3339 full-date "YYYY-MM-DD" (calendar-valid,
// year 0001–9999); it does not allocate unless it fails.
func CheckDate[T ~string | ~[]byte](s T) error {
	if reason := checkDate(s); reason != "" {
		return newError("date", s, reason)
	}
	return nil
}

// CheckTime validates an RFC 3339 partial-time or full-time: HH:MM:SS,
// optionally .f with 1–9 digits, optionally Z/z or ±HH:MM; the error is an
// *Error saying why.
func CheckTime[T ~string | ~[]byte](s T) error {
	if reason := checkTime(s); reason != "" {
		return newError("time", s, reason)
	}
	return nil
}

func checkDate[T ~string | ~[]byte](s T) string {
	if len(s) != 10 {
		return "expected YYYY-MM-DD"
	}
	y, m, d, reason := parseDate(s)
	if reason == "" && inGregorianGap(y, m, d) {
		return gapReason
	}
	return reason
}

func checkTime[T ~string | ~[]byte](s T) string {
	if len(s) < 8 {
		return "expected HH:MM:SS"
	}
	_, _, _, reason := parseClock(s, 0)
	if reason != "" {
		return reason
	}
	_, next, reason := parseFraction(s, 8)
	if reason != "" {
		return reason
	}
	_, reason = parseZone(s, next)
	return reason
}

func parseDateTime[T ~string | ~[]byte](s T) (DateTime, string) {
	if dt, ok := quickDateTime(s); ok {
		return dt, ""
	}
	return parseDateTimeGeneral(s)
}

// quickDateTime parses the date-times taps mostly write,
// "YYYY-MM-DDTHH:MM:SS", an optional fraction and 'Z' or ±HH:MM, in one
// straight pass. It reports false for anything else, valid or not, and then
// parseDateTimeGeneral decides and words the reason; where it reports true
// its result is parseDateTimeGeneral's (FuzzQuickDateTime).
func quickDateTime[T ~string | ~[]byte](s T) (dt DateTime, ok bool) {
	n := len(s)
	if n < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return dt, false
	}
	y0, y1, y2, y3 := s[0]-'0', s[1]-'0', s[2]-'0', s[3]-'0'
	m0, m1, d0, d1 := s[5]-'0', s[6]-'0', s[8]-'0', s[9]-'0'
	h0, h1, i0, i1, s0, s1 := s[11]-'0', s[12]-'0', s[14]-'0', s[15]-'0', s[17]-'0', s[18]-'0'
	if y0 > 9 || y1 > 9 || y2 > 9 || y3 > 9 || m0 > 1 || m1 > 9 || d0 > 3 || d1 > 9 ||
		h0 > 2 || h1 > 9 || i0 > 5 || i1 > 9 || s0 > 5 || s1 > 9 {
		return dt, false
	}
	dt.Year = int(y0)*1000 + int(y1)*100 + int(y2)*10 + int(y3)
	dt.Month, dt.Day = int(m0*10+m1), int(d0*10+d1)
	dt.Hour, dt.Minute, dt.Second = int(h0*10+h1), int(i0*10+i1), int(s0*10+s1)
	if dt.Year == 0 || dt.Month < 1 || dt.Month > 12 || dt.Day < 1 || dt.Hour > 23 ||
		dt.Day > 28 && dt.Day > daysIn(dt.Year, dt.Month) {
		return dt, false
	}
	i := 19
	if s[i] == '.' {
		ns := 0
		for i = 20; i < n && i < 29; i++ {
			d := s[i] - '0'
			if d > 9 {
				break
			}
			ns = ns*10 + int(d)
		}
		digits := i - 20
		if digits == 0 || i < n && s[i]-'0' <= 9 { // none, or more than 9
			return dt, false
		}
		for k := digits; k < 9; k++ {
			ns *= 10
		}
		dt.Nanosecond = ns
		for digits > 0 && s[19+digits] == '0' {
			digits--
		}
		dt.Frac = digits
	}
	switch {
	case i == n-1 && s[i] == 'Z':
		return dt, !inGregorianGap(dt.Year, dt.Month, dt.Day)
	case i == n-6 && (s[i] == '+' || s[i] == '-') && s[i+3] == ':':
		oh0, oh1, om0, om1 := s[i+1]-'0', s[i+2]-'0', s[i+4]-'0', s[i+5]-'0'
		if oh0 > 2 || oh1 > 9 || om0 > 5 || om1 > 9 {
			return dt, false
		}
		offset := int(oh0*10+oh1)*60 + int(om0*10+om1)
		if offset >= 24*60 {
			return dt, false
		}
		if s[i] == '-' {
			offset = -offset
		}
		if offset != 0 && !dt.shift(-offset) {
			return dt, false
		}
		return dt, !inGregorianGap(dt.Year, dt.Month, dt.Day)
	}
	return dt, false
}

// parseDateTimeGeneral is parseDateTime for any text.
func parseDateTimeGeneral[T ~string | ~[]byte](s T) (DateTime, string) {
	var dt DateTime
	if len(s) < 16 {
		return dt, "expected YYYY-MM-DDTHH:MM[:SS]"
	}
	var reason string
	if dt.Year, dt.Month, dt.Day, reason = parseDate(s[:10]); reason != "" {
		return dt, reason
	}
	if c := s[10]; c != 'T' && c != 't' && c != ' ' {
		return dt, "expected 'T' or a space between date and time"
	}
	if dt.Hour, dt.Minute, reason = parseHourMinute(s, 11); reason != "" {
		return dt, reason
	}
	next := 16
	if next < len(s) && s[next] == ':' {
		// Seconds are optional, and only with them a fraction.
		if dt.Second, reason = parseSecond(s, next); reason != "" {
			return dt, reason
		}
		ns, after, reason := parseFraction(s, 19)
		if reason != "" {
			return dt, reason
		}
		dt.Nanosecond = ns
		dt.Frac = max(after-20, 0)
		for dt.Frac > 0 && s[19+dt.Frac] == '0' {
			dt.Frac--
		}
		next = after
	}
	offset, reason := parseZone(s, next)
	if reason != "" {
		return dt, reason
	}
	if offset != 0 && !dt.shift(-offset) {
		return dt, "year out of range 0001-9999 in UTC"
	}
	if inGregorianGap(dt.Year, dt.Month, dt.Day) {
		if offset == 0 {
			return dt, gapReason
		}
		return dt, "in UTC the day is " + gapDay(dt.Day) + ", " + gapReason
	}
	return dt, ""
}

// gapReason words the Gregorian gap rule (see the package rules).
const gapReason = "a day Oracle's calendar does not have (Julian until 1582-10-04, Gregorian from 1582-10-15; " +
	"Oracle would store 1582-10-15 instead)"

// inGregorianGap reports a day of 1582-10-05 … 1582-10-14.
func inGregorianGap(y, m, d int) bool { return y == 1582 && m == 10 && d >= 5 && d <= 14 }

func gapDay(d int) string { return "1582-10-" + string(rune('0'+d/10)) + string(rune('0'+d%10)) }

// parseDate parses "YYYY-MM-DD" in s[0:10] (len(s) >= 10).
func parseDate[T ~string | ~[]byte](s T) (y, m, d int, reason string) {
	y = num4(s[0:4])
	m = num2(s[5:7])
	d = num2(s[8:10])
	if y < 0 || m < 0 || d < 0 || s[4] != '-' || s[7] != '-' {
		return 0, 0, 0, "expected YYYY-MM-DD"
	}
	switch {
	case y == 0:
		return 0, 0, 0, "year 0000 out of range 0001-9999"
	case m < 1 || m > 12:
		return 0, 0, 0, "month out of range 01-12"
	case d < 1 || d > daysIn(y, m):
		return 0, 0, 0, "day out of range for the month"
	}
	return y, m, d, ""
}

// parseClock parses "HH:MM:SS" at s[i:i+8] (len(s) >= i+8).
func parseClock[T ~string | ~[]byte](s T, i int) (h, m, sec int, reason string) {
	if h, m, reason = parseHourMinute(s, i); reason != "" {
		return 0, 0, 0, reason
	}
	if sec, reason = parseSecond(s, i+5); reason != "" {
		return 0, 0, 0, reason
	}
	return h, m, sec, ""
}

// parseHourMinute parses "HH:MM" at s[i:i+5] (len(s) >= i+5).
func parseHourMinute[T ~string | ~[]byte](s T, i int) (h, m int, reason string) {
	h = num2(s[i : i+2])
	m = num2(s[i+3 : i+5])
	if h < 0 || m < 0 || s[i+2] != ':' {
		return 0, 0, "expected HH:MM"
	}
	switch {
	case h > 23:
		return 0, 0, "hour out of range 00-23"
	case m > 59:
		return 0, 0, "minute out of range 00-59"
	}
	return h, m, ""
}

// parseSecond parses ":SS" at s[i:i+3].
func parseSecond[T ~string | ~[]byte](s T, i int) (sec int, reason string) {
	if i+3 > len(s) || s[i] != ':' {
		return 0, "expected :SS after HH:MM"
	}
	if sec = num2(s[i+1 : i+3]); sec < 0 {
		return 0, "expected :SS after HH:MM"
	}
	if sec == 60 {
		return 0, leapReason
	}
	if sec > 59 {
		return 0, "second out of range 00-59"
	}
	return sec, ""
}

// Reasons of text RFC 3339 allows that Oracle cannot store exactly.
const (
	leapReason = "second 60 (a leap second): Oracle's TIMESTAMP and DATE hold seconds 00-59"
	fracReason = "more than 9 fractional second digits: Oracle's TIMESTAMP keeps 9 (SPEC §4 accepts 1 to 9)"
)

// dateTimeError is the error of date-time text s, marked Unstorable when
// the text is RFC 3339 that Oracle cannot hold.
func dateTimeError[T ~string | ~[]byte](s T, reason string) *Error {
	e := newError("date-time", s, reason)
	e.Unstorable = reason == leapReason || reason == fracReason
	return e
}

// parseFraction parses an optional ".f" (1 or more digits, none non-zero
// past the ninth) at s[i:] and returns the nanoseconds and the index after
// it.
func parseFraction[T ~string | ~[]byte](s T, i int) (ns, next int, reason string) {
	if i >= len(s) || s[i] != '.' {
		return 0, i, ""
	}
	j := i + 1
	for j < len(s) && isDigit(s[j]) {
		if j-i > 9 {
			return 0, 0, fracReason
		}
		ns = ns*10 + int(s[j]-'0')
		j++
	}
	if j == i+1 {
		return 0, 0, "expected a digit after the decimal point"
	}
	for k := min(j-i-1, 9); k < 9; k++ {
		ns *= 10
	}
	return ns, j, ""
}

// parseZone parses an optional zone at s[i:] that must end the text and
// returns its offset east of UTC in minutes.
func parseZone[T ~string | ~[]byte](s T, i int) (offset int, reason string) {
	switch {
	case i == len(s):
		return 0, ""
	case (s[i] == 'Z' || s[i] == 'z') && i+1 == len(s):
		return 0, ""
	case (s[i] == '+' || s[i] == '-') && i+6 == len(s):
		h, m := num2(s[i+1:i+3]), num2(s[i+4:i+6])
		if h < 0 || m < 0 || s[i+3] != ':' {
			return 0, "expected a zone offset ±HH:MM"
		}
		if h > 23 || m > 59 {
			return 0, "zone offset out of range"
		}
		offset = h*60 + m
		if s[i] == '-' {
			offset = -offset
		}
		return offset, ""
	}
	return 0, "expected 'Z', a zone offset ±HH:MM or nothing after the time"
}

// shift moves dt by delta minutes (|delta| < 24h) and reports whether the
// result is still within years 0001–9999.
func (dt *DateTime) shift(delta int) bool {
	mins := dt.Hour*60 + dt.Minute + delta
	switch {
	case mins < 0:
		mins += 24 * 60
		dt.Day--
		if dt.Day == 0 {
			dt.Month--
			if dt.Month == 0 {
				dt.Month = 12
				dt.Year--
			}
			dt.Day = daysIn(dt.Year, dt.Month)
		}
	case mins >= 24*60:
		mins -= 24 * 60
		dt.Day++
		if dt.Day > daysIn(dt.Year, dt.Month) {
			dt.Day = 1
			dt.Month++
			if dt.Month == 13 {
				dt.Month = 1
				dt.Year++
			}
		}
	}
	dt.Hour, dt.Minute = mins/60, mins%60
	return dt.Year >= 1 && dt.Year <= 9999
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

// num2 and num4 return the value of exactly 2 or 4 ASCII digits, or -1.
func num2[T ~string | ~[]byte](s T) int {
	if !isDigit(s[0]) || !isDigit(s[1]) {
		return -1
	}
	return int(s[0]-'0')*10 + int(s[1]-'0')
}

func num4[T ~string | ~[]byte](s T) int {
	hi, lo := num2(s[0:2]), num2(s[2:4])
	if hi < 0 || lo < 0 {
		return -1
	}
	return hi*100 + lo
}
