package value

import (
	"strings"
	"testing"
)

// TestGregorianGap: days Oracle's calendar lacks are refused, in UTC (a
// date as written); the days around them are kept.
func TestGregorianGap(t *testing.T) {
	for _, s := range []string{"1582-10-05T00:00:00Z", "1582-10-14T23:59:59.9Z", "1582-10-10 12:00", "1582-10-10T12:00:00+00:00", "1582-10-10T12:00:00",
		"1582-10-15T00:30:00+01:00", "1582-10-04T23:00:00-01:00"} {
		if _, err := ParseDateTime(s); err == nil || !strings.Contains(err.Error(), "calendar") {
			t.Errorf("%s: %v, want the Gregorian gap refused", s, err)
		}
	}
	for _, s := range []string{"1582-10-04T23:59:59Z", "1582-10-15T00:00:00Z", "1582-10-15T00:30:00-01:00", "1582-10-14T23:30:00-01:00"} {
		if _, err := ParseDateTime(s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	if err := CheckDate("1582-10-10"); err == nil {
		t.Error("date 1582-10-10 accepted")
	}
	if err := CheckDate("1582-10-15"); err != nil {
		t.Error(err)
	}
}
