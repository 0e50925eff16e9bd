package oravalue

import "testing"

// TestNumberStarScale: NUMBER(*,2) and NUMBER(*,-2) (precision 38) refuse
// the values Oracle would round and keep those it stores as sent.
func TestNumberStarScale(t *testing.T) {
	for _, c := range []struct {
		scale int
		v     string
		ok    bool
	}{
		{2, "1.23", true},
		{2, "1.234", false},
		{2, "-12", true},
		{-2, "1200", true},
		{-2, "-1200", true},
		{-2, "0", true},
		{-2, "1234", false},
		{-2, "1210", false},
		{-2, "12.5", false},
	} {
		col := &Column{Name: "N", Kind: KindNumber, Precision: 38, Scale: c.scale, Nullable: true}
		_, err := col.Assign(c.v)
		if (err == nil) != c.ok {
			t.Errorf("NUMBER(*,%d) %s: %v, want ok=%v", c.scale, c.v, err, c.ok)
		}
	}
}
