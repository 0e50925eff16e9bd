package tablemap

import (
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/target-oracle/target-oracle/internal/streammap"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/value"
)

// specDateTime is SPEC §4's date-time grammar written out as a regular
// expression, the reference the parsing paths are held to:
//
//	full-date ("T"|"t"|" ") HH ":" MM [":" SS ["." 1*9DIGIT]] [("Z"|"z") | ("+"|"-") HH ":" MM]
var specDateTime = regexp.MustCompile(`^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2})` +
	`(?::([0-9]{2})(?:\.([0-9]{1,9}))?)?([Zz]|([+-])([0-9]{2}):([0-9]{2}))?$`)

// referenceDateTime decides s with the regular expression and the time
// package: the canonical UTC text, or ok false. Ranges as the package
// documents them: years 0001–9999 before and after the shift to UTC, no
// hour 24, no leap second, offsets up to ±23:59.
func referenceDateTime(s string) (canon string, ok bool) {
	m := specDateTime.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	y, mo, d, h, mi, sec := n(1), n(2), n(3), n(4), n(5), n(6)
	ns := 0
	if m[7] != "" {
		ns, _ = strconv.Atoi((m[7] + "00000000")[:9])
	}
	if y < 1 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 59 {
		return "", false
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, ns, time.UTC)
	if t.Day() != d { // 2023-02-29 normalised to March
		return "", false
	}
	if m[9] != "" {
		oh, om := n(10), n(11)
		if oh > 23 || om > 59 {
			return "", false
		}
		off := time.Duration(oh)*time.Hour + time.Duration(om)*time.Minute
		if m[9] == "+" {
			off = -off
		}
		t = t.Add(off)
	}
	if t.Year() < 1 || t.Year() > 9999 {
		return "", false
	}
	return t.Format("2006-01-02T15:04:05.999999999Z"), true
}

// dateTimePaths holds every place a date-time is read: the general
// validator (the jsonschema library with the target's format), the
// one-pass decoder, the row conversion of a key, a nullable column and
// _sdc_deleted_at, and stream maps' datetime.datetime.fromisoformat.
// time_extracted is value.CanonicalDateTime itself.
type dateTimePaths struct {
	pair          *onePassPair
	key, col, del int
	sm            *streammap.StreamMap
}

func newDateTimePaths(t testing.TB) *dateTimePaths {
	pair, ok := newOnePassPair(t, `{"type":"object","properties":{"d":{"type":"string","format":"date-time"},`+
		`"n":{"type":["null","string"],"format":"date-time"},"_sdc_deleted_at":{"type":["null","string"],"format":"date-time"}},"required":["d"]}`,
		[]string{"d"}, table.Options{AddRecordMetadata: true, TimestampTZ: true})
	if !ok {
		t.Fatal("the date-time schema does not take the one pass")
	}
	p := &dateTimePaths{pair: pair, key: -1, col: -1, del: pair.g.MetaIndex(table.MetaDeletedAt)}
	for i, c := range pair.g.Table().Columns {
		switch c.Name {
		case "d":
			p.key = i
		case "n":
			p.col = i
		}
	}
	mapper, err := streammap.Compile(map[string]any{"s": map[string]any{
		"__else__": nil, "x": "datetime.datetime.fromisoformat(d).strftime('%Y-%m-%dT%H:%M:%S.%f')"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sms, err := mapper.Schema("s", []byte(`{"type":"object","properties":{"d":{"type":"string"}}}`), nil)
	if err != nil || len(sms) != 1 {
		t.Fatalf("stream map: %v", err)
	}
	p.sm = sms[0]
	return p
}

// check runs s through every path and fails unless each one gives the
// reference's answer: accepted or refused, and the same instant.
func (p *dateTimePaths) check(t testing.TB, s string) {
	t.Helper()
	want, ok := referenceDateTime(s)
	canon, _, err := value.CanonicalDateTime([]byte(s))
	if (err == nil) != ok || ok && canon != want {
		t.Fatalf("%q: value.CanonicalDateTime = %q, %v; reference %q, %v", s, canon, err, want, ok)
	}
	q, _ := json.Marshal(s)
	record := []byte(`{"d":` + string(q) + `,"n":` + string(q) + `,"_sdc_deleted_at":` + string(q) + `}`)
	if verr := p.pair.sch.ValidateRaw(record); (verr == nil) != ok {
		t.Fatalf("%q: general validator says %v; reference accepts: %v", s, verr, ok)
	}
	row := make([]string, p.pair.g.Columns())
	if err := p.pair.g.Row(record, &Meta{}, row, nil, nil); (err == nil) != ok {
		t.Fatalf("%q: row conversion says %v; reference accepts: %v", s, err, ok)
	} else if ok && (row[p.key] != want || row[p.col] != want || row[p.del] != want) {
		t.Fatalf("%q: key %q, column %q, _sdc_deleted_at %q; reference %q", s, row[p.key], row[p.col], row[p.del], want)
	}
	if p.pair.compare(t, record) { // the one-pass decoder agrees with both, or declines
		if !ok {
			t.Fatalf("%q: the one-pass decoder accepted what the reference refuses", s)
		}
	} else if ok {
		t.Fatalf("%q: the one-pass decoder declined a valid date-time", s)
	}
	if len(s) == len("2006-01-02") {
		return // fromisoformat also takes a bare date, as Python does
	}
	out, _, err := p.sm.Apply([]byte(`{"d":` + string(q) + `}`))
	var eval *streammap.EvalError
	switch {
	case ok && err != nil, !ok && err == nil:
		t.Fatalf("%q: fromisoformat gives %s, %v; reference accepts: %v", s, out, err, ok)
	case err != nil && !errors.As(err, &eval):
		t.Fatalf("%q: fromisoformat fails with %T %v", s, err, err)
	case ok:
		// Python's datetime holds microseconds.
		micro := strings.TrimSuffix(want, "Z")
		if i := strings.IndexByte(micro, '.'); i >= 0 {
			micro = (micro + "00000")[:i+7]
		} else {
			micro += ".000000"
		}
		if string(out) != `{"x":"`+micro+`"}` {
			t.Fatalf("%q: fromisoformat gives %s; reference %s", s, out, micro)
		}
	}
}

// dateTimeEdges are the grammar's edges (SPEC §4), each with the
// reference's answer: "" refused, else the canonical instant.
var dateTimeEdges = []struct{ in, want string }{
	{"2018-05-15T11:30Z", "2018-05-15T11:30:00Z"},
	{"2018-05-15T11:30:00Z", "2018-05-15T11:30:00Z"},
	{"2018-05-15T11:30", "2018-05-15T11:30:00Z"}, // no zone: UTC
	{"2018-05-15 11:30:05", "2018-05-15T11:30:05Z"},
	{"2018-05-15t11:30z", "2018-05-15T11:30:00Z"},
	{"2018-05-15T11:30:05.123456789Z", "2018-05-15T11:30:05.123456789Z"},
	{"2018-05-15T11:30:05.1234567891Z", ""}, // 10 fraction digits
	{"2018-05-15T11:30:05.Z", ""},
	{"2018-05-15T11:30.5Z", ""}, // a fraction needs seconds
	{"2018-05-15T11:30+05:30", "2018-05-15T06:00:00Z"},
	{"2018-05-15T11:30-14:00", "2018-05-16T01:30:00Z"},
	{"2018-05-15T11:30:00-00:00", "2018-05-15T11:30:00Z"},
	{"2018-05-15T11:30+0000", ""},
	{"2018-05-15T11:30:00+00", ""},
	{"2018-05-15T11:30:00+24:00", ""},
	{"2016-12-31T23:59:60Z", ""}, // leap second: refused, as Oracle cannot hold it
	{"2018-05-15T24:00Z", ""},
	{"2018-05-15T11", ""},
	{"2018-05-15", ""},
	{"2018-02-29T00:00Z", ""},
	{"2020-02-29T00:00Z", "2020-02-29T00:00:00Z"},
	{"0001-01-01T00:30+01:00", ""},
	{"9999-12-31T23:30-01:00", ""},
	{"0001-01-01T00:00Z", "0001-01-01T00:00:00Z"},
	{"2018-05-15T11:30:00ZZ", ""},
	{"2018-05-15T11:30 UTC", ""},
	{"2018-05-15T11:30:00 ", ""},
}

func TestDateTimeEdges(t *testing.T) {
	p := newDateTimePaths(t)
	for _, tt := range dateTimeEdges {
		if got, ok := referenceDateTime(tt.in); got != tt.want || ok != (tt.want != "") {
			t.Errorf("reference(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
		p.check(t, tt.in)
	}
}

// FuzzDateTimePaths holds every path that reads a date-time to the
// reference's answers (see dateTimePaths.check).
func FuzzDateTimePaths(f *testing.F) {
	for _, tt := range dateTimeEdges {
		f.Add(tt.in)
	}
	var p *dateTimePaths
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // not a JSON string the reader would hand on
		}
		if p == nil {
			p = newDateTimePaths(t)
		}
		p.check(t, s)
	})
}
