package value

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestCanonicalDateTime(t *testing.T) {
	tests := []struct {
		in, want string
		frac     int
	}{
		{"2024-01-02T03:04:05Z", "2024-01-02T03:04:05Z", 0},
		{"2024-01-02t03:04:05z", "2024-01-02T03:04:05Z", 0},
		{"2024-01-02 03:04:05", "2024-01-02T03:04:05Z", 0},
		{"2024-01-02T03:04:05", "2024-01-02T03:04:05Z", 0},
		{"2024-01-02 03:04:05Z", "2024-01-02T03:04:05Z", 0},
		{"2024-01-02T03:04:05.0Z", "2024-01-02T03:04:05Z", 0},
		{"2024-01-02T03:04:05.000000000Z", "2024-01-02T03:04:05Z", 0},
		{"2024-01-02T03:04:05.5", "2024-01-02T03:04:05.5Z", 1},
		{"2024-01-02T03:04:05.120Z", "2024-01-02T03:04:05.12Z", 2},
		{"2024-01-02T03:04:05.123456Z", "2024-01-02T03:04:05.123456Z", 6},
		{"2024-01-02T03:04:05.1234567+00:00", "2024-01-02T03:04:05.1234567Z", 7},
		{"2024-01-02T03:04:05.123456789-00:00", "2024-01-02T03:04:05.123456789Z", 9},
		{"2024-01-02T03:04:05.000000001Z", "2024-01-02T03:04:05.000000001Z", 9},
		{"2024-01-02T02:00:00+05:30", "2024-01-01T20:30:00Z", 0},
		{"2024-01-02T22:15:00-03:45", "2024-01-03T02:00:00Z", 0},
		{"2024-03-01T01:00:00+02:00", "2024-02-29T23:00:00Z", 0},
		{"2023-03-01T01:00:00+02:00", "2023-02-28T23:00:00Z", 0},
		{"2023-12-31T23:30:00-01:00", "2024-01-01T00:30:00Z", 0},
		{"2024-01-01T00:00:00+23:59", "2023-12-31T00:01:00Z", 0},
		{"2000-02-29T12:00:00Z", "2000-02-29T12:00:00Z", 0},
		{"0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z", 0},
		{"9999-12-31T23:59:59.999999999Z", "9999-12-31T23:59:59.999999999Z", 9},
		{"0001-01-01T05:00:00+04:00", "0001-01-01T01:00:00Z", 0},
		// Without seconds (the Meltano tutorial's tap): seconds 00, so one
		// instant and one key with the form that has them.
		{"2018-05-15T11:30Z", "2018-05-15T11:30:00Z", 0},
		{"2018-05-15T11:30", "2018-05-15T11:30:00Z", 0},
		{"2018-05-15t11:30z", "2018-05-15T11:30:00Z", 0},
		{"2018-05-15 11:30", "2018-05-15T11:30:00Z", 0},
		{"2018-05-15T11:30+01:00", "2018-05-15T10:30:00Z", 0},
		{"2018-05-15T00:10+00:30", "2018-05-14T23:40:00Z", 0},
		{"2018-05-15T23:59-14:00", "2018-05-16T13:59:00Z", 0},
		{"2018-05-15T11:30-00:00", "2018-05-15T11:30:00Z", 0},
		{"9999-12-31T23:59Z", "9999-12-31T23:59:00Z", 0},
		{"0001-01-01T00:00Z", "0001-01-01T00:00:00Z", 0},
	}
	for _, tt := range tests {
		got, frac, err := CanonicalDateTime([]byte(tt.in))
		if err != nil || got != tt.want || frac != tt.frac {
			t.Errorf("CanonicalDateTime(%q) = %q, %d, %v; want %q, %d", tt.in, got, frac, err, tt.want, tt.frac)
			continue
		}
		// Cross-check the instant with the standard library where it can
		// parse the input (RFC 3339 with a zone).
		if ref, err := time.Parse(time.RFC3339Nano, strings.ToUpper(tt.in)); err == nil {
			if want := ref.UTC().Format("2006-01-02T15:04:05.999999999Z"); want != got {
				t.Errorf("CanonicalDateTime(%q) = %q; time package says %q", tt.in, got, want)
			}
		}
	}
}

func TestCanonicalDateTimeInvalid(t *testing.T) {
	tests := []struct{ in, reason string }{
		{"", "expected YYYY-MM-DDTHH:MM[:SS]"},
		{"2024-01-02", "expected YYYY-MM-DDTHH:MM[:SS]"},
		{"2024-13-45", "expected YYYY-MM-DDTHH:MM[:SS]"},
		{"2024-01-02T11", "expected YYYY-MM-DDTHH:MM[:SS]"},
		{"2024-01-02T11:3", "expected YYYY-MM-DDTHH:MM[:SS]"},
		{"2024-01-02T11:3Z", "expected HH:MM"},
		{"2024-01-02T1130Z", "expected HH:MM"},
		{"2024-01-02T11:30:", "expected :SS"},
		{"2024-01-02T11:30:5Z", "expected :SS"},
		{"2024-01-02T11:30:5", "expected :SS"},
		{"2024-01-02T11:30.5Z", "expected 'Z', a zone offset"},
		{"2024-01-02T11:30+0000", "expected 'Z', a zone offset"},
		{"2024-01-02T11:30+00", "expected 'Z', a zone offset"},
		{"2024-01-02T11:30 ", "expected 'Z', a zone offset"},
		{"2024-01-02T24:00Z", "hour out of range"},
		{"2024-01-02T23:60Z", "minute out of range"},
		{"9999-12-31T23:59-00:01", "year out of range"},
		{"2024-13-01T00:00:00Z", "month out of range"},
		{"2024-00-01T00:00:00Z", "month out of range"},
		{"2024-02-30T00:00:00Z", "day out of range"},
		{"2023-02-29T00:00:00Z", "day out of range"},
		{"1900-02-29T00:00:00Z", "day out of range"},
		{"2024-04-31T00:00:00Z", "day out of range"},
		{"2024-01-00T00:00:00Z", "day out of range"},
		{"0000-01-01T00:00:00Z", "year 0000"},
		{"2024-01-01T24:00:00Z", "hour out of range"},
		{"2024-01-01T23:60:00Z", "minute out of range"},
		{"2016-12-31T23:59:60Z", "second 60 (a leap second): Oracle's TIMESTAMP and DATE hold seconds 00-59"},
		{"2016-12-31T23:59:61Z", "second out of range 00-59"},
		{"2024-01-01X00:00:00Z", "expected 'T' or a space"},
		{"2024-01-01T00:00:00.Z", "digit after the decimal point"},
		{"2024-01-01T00:00:00.1234567891Z", "more than 9 fractional second digits"},
		{"2024-01-01T00:00:00.1234567890Z", "more than 9 fractional second digits"},
		{"2024-01-01T00:00:00.0000000000Z", "more than 9 fractional second digits"},
		{"2024-01-01T00:00:00+0530", "expected 'Z', a zone offset"},
		{"2024-01-01T00:00:00+0000", "expected 'Z', a zone offset"},
		{"2024-01-01T00:00:00+00:00:00", "expected 'Z', a zone offset"},
		{"2024-01-01T00:00:00.123456789012Z", "more than 9 fractional second digits: Oracle's TIMESTAMP keeps 9"},
		{"2024-01-01T00:00:00,5Z", "expected 'Z', a zone offset"},
		{"2024-01-01T00:00:00UTC", "expected 'Z', a zone offset"},
		{"2024-01-01T00:00:00.5.5Z", "expected 'Z', a zone offset"},
		{"2024-01-01T00:00:00+05:3x", "expected a zone offset"},
		{"2024-01-01T00:00:00+24:00", "zone offset out of range"},
		{"2024-01-01T00:00:00+05:60", "zone offset out of range"},
		{"2024-01-01T00:00:00ZZ", "expected 'Z', a zone offset"},
		{"2024-01-01T00:00:00 UTC", "expected 'Z', a zone offset"},
		{"2024/01/01T00:00:00Z", "expected YYYY-MM-DD"},
		{"+2024-01-01T00:00:00Z", "expected YYYY-MM-DD"},
		{"2024-1-01T00:00:00Z", "expected YYYY-MM-DD"},
		{"2024-01-01T0:00:00Z", "expected HH:MM"},
		{"9999-12-31T23:00:00-01:00", "year out of range"},
		{"0001-01-01T00:30:00+01:00", "year out of range"},
	}
	for _, tt := range tests {
		_, _, err := CanonicalDateTime([]byte(tt.in))
		var ve *Error
		if !errors.As(err, &ve) || !strings.Contains(ve.Reason, tt.reason) || ve.What != "date-time" {
			t.Errorf("CanonicalDateTime(%q) error = %v; want reason containing %q", tt.in, err, tt.reason)
		}
		if _, err := ParseDateTime(tt.in); err == nil {
			t.Errorf("ParseDateTime(%q): want error", tt.in)
		}
		// Only RFC 3339 text Oracle cannot hold is marked so.
		unstorable := strings.HasSuffix(tt.in, ":59:60Z") || strings.Contains(tt.reason, "more than 9 fractional")
		if ve != nil && ve.Unstorable != unstorable {
			t.Errorf("CanonicalDateTime(%q): Unstorable %v, want %v", tt.in, ve.Unstorable, unstorable)
		}
	}
	_, err := ParseDateTime("2016-12-31T23:59:60Z")
	if want := `date-time "2016-12-31T23:59:60Z" cannot be stored exactly: second 60 (a leap second): Oracle's TIMESTAMP and DATE hold seconds 00-59`; err == nil || err.Error() != want {
		t.Errorf("leap second: %v; want %s", err, want)
	}
}

func TestParseDateTimeFields(t *testing.T) {
	dt, err := ParseDateTime("2024-02-29 23:59:58.25-01:30")
	want := DateTime{Year: 2024, Month: 3, Day: 1, Hour: 1, Minute: 29, Second: 58, Nanosecond: 250000000, Frac: 2}
	if err != nil || dt != want {
		t.Fatalf("got %+v, %v; want %+v", dt, err, want)
	}
}

func TestCheckDate(t *testing.T) {
	for _, in := range []string{"2024-02-29", "2000-02-29", "0001-01-01", "9999-12-31", "2023-12-31"} {
		if err := CheckDate([]byte(in)); err != nil {
			t.Errorf("CheckDate(%q) = %v", in, err)
		}
	}
	for _, in := range []string{"", "2024-02-30", "2023-02-29", "2024-13-01", "0000-01-01", "2024-1-1",
		"2024-01-01T00:00:00Z", "2024-01-01 ", "20240101", "2024-01-32"} {
		if err := CheckDate([]byte(in)); err == nil {
			t.Errorf("CheckDate(%q): want error", in)
		}
		if err := CheckDate(in); err == nil {
			t.Errorf("CheckDate(%q) (string): want error", in)
		}
	}
}

func TestCheckTime(t *testing.T) {
	for _, in := range []string{"00:00:00", "23:59:59", "12:30:00Z", "12:30:00z", "12:30:00.5", "12:30:00.123456789+05:30", "01:02:03-00:00"} {
		if CheckTime([]byte(in)) != nil || CheckTime(in) != nil {
			t.Errorf("CheckTime(%q) = %v", in, CheckTime(in))
		}
	}
	for _, in := range []string{"", "24:00:00", "12:60:00", "12:00:60", "12:00", "12:00:00.", "12:00:00.1234567891", "12:00:00.1234567890",
		"12:00:00+5:30", "12:00:00 ", "1:00:00", "12:00:00+24:00", "T12:00:00"} {
		if CheckTime([]byte(in)) == nil {
			t.Errorf("CheckTime(%q) = nil, want error", in)
		}
	}
}

func FuzzCanonicalDateTime(f *testing.F) {
	for _, s := range []string{"2024-01-02T03:04:05Z", "2024-01-02 03:04:05", "2024-01-02T02:00:00+05:30",
		"2024-02-29T23:59:59.999999999-23:59", "0001-01-01T00:00:00+00:01", "2024-13-45", "2016-12-31T23:59:60Z",
		"2024-01-02T03:04:05.120Z", "2024-01-02T03:04:05.000Z", "2024-01-02t03:04:05.1z", "2024-01-02 03:04:05Z",
		"2018-05-15T11:30Z", "2018-05-15 11:30", "2018-05-15T11:30+05:30"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		canon, frac, err := CanonicalDateTime([]byte(s))
		if err != nil {
			return
		}
		if dt, _ := parseDateTime(s); string(dt.AppendText(nil)) != canon || dt.Frac != frac {
			t.Fatalf("%q → %q, %d; formatted from the parse: %q, %d", s, canon, frac, dt.AppendText(nil), dt.Frac)
		}
		again, frac2, err := CanonicalDateTime([]byte(canon))
		if err != nil || again != canon || frac2 != frac {
			t.Fatalf("%q → %q, re-parsed %q, %d vs %d, %v", s, canon, again, frac2, frac, err)
		}
		ref, err := time.Parse(time.RFC3339Nano, canon)
		if err != nil {
			t.Fatalf("%q → %q which time.Parse rejects: %v", s, canon, err)
		}
		if want := ref.Format("2006-01-02T15:04:05.999999999Z"); want != canon {
			t.Fatalf("%q → %q; time package formats %q", s, canon, want)
		}
	})
}

func BenchmarkCanonicalDateTime(b *testing.B) {
	for _, in := range []string{"2024-01-02T03:04:05Z", "2024-01-02 03:04:05.123456", "2024-01-02T02:00:00.5+05:30"} {
		b.Run(in, func(b *testing.B) {
			text := []byte(in)
			buf := make([]byte, 0, 64)
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := AppendCanonicalDateTime(buf[:0], text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzQuickDateTime checks that the straight path of parseDateTime gives
// what the general path gives wherever it decides.
func FuzzQuickDateTime(f *testing.F) {
	for _, s := range []string{"2024-01-02T03:04:05Z", "2024-01-02T02:00:00+05:30", "2024-02-29T23:59:59.999999999-23:59",
		"0001-01-01T00:00:00+00:01", "9999-12-31T23:59:59-00:01", "2023-02-29T00:00:00Z", "2024-01-02T03:04:05.1234567890Z",
		"2024-01-02T03:04:05.Z", "2024-01-02T03:04:05.120Z", "2024-01-02T03:04:05.000+00:00", "2024-01-02T24:00:00Z",
		"2024-01-02T03:04:05+24:00", "2024-01-02T03:04:05+23:60", "0000-01-01T00:00:00Z", "2024-04-31T00:00:00Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, ok := quickDateTime(s)
		if !ok {
			return
		}
		g, reason := parseDateTimeGeneral(s)
		if reason != "" || q != g {
			t.Fatalf("%q: quick %+v, general %+v %q", s, q, g, reason)
		}
	})
}

func TestQuickDateTimeDecides(t *testing.T) {
	// The straight path must take the benchmark's shapes, or it saves nothing.
	for _, s := range []string{"2024-01-02T03:04:05Z", "2024-01-02T03:04:05.123456Z", "2025-06-01T23:10:00+02:00", "2024-01-02T03:04:05.5-05:30"} {
		if _, ok := quickDateTime(s); !ok {
			t.Errorf("quickDateTime(%q) declined", s)
		}
	}
	for _, s := range []string{"2024-01-02 03:04:05Z", "2024-01-02T03:04Z", "2024-01-02T03:04:05", "2024-01-02t03:04:05z", "2024-01-02T03:04:05.1234567890Z", "2016-12-31T23:59:60Z"} {
		if _, ok := quickDateTime(s); ok {
			t.Errorf("quickDateTime(%q) decided; the general path should", s)
		}
	}
}
