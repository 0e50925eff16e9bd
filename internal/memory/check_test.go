package memory

import "testing"

func TestNumberShape(t *testing.T) {
	for _, c := range []struct {
		v             string
		digits, scale int
		ok            bool
	}{
		{"0", 0, 0, true}, {"-0.5", 0, 1, true}, {"123", 3, 0, true}, {"-12.340", 2, 3, true},
		{"1.", 1, 0, true}, {".5", 0, 1, true}, {"", 0, 0, false}, {"-", 0, 0, false},
		{"1.2.3", 0, 0, false}, {"1e5", 0, 0, false}, {"+1", 0, 0, false}, {"12a", 0, 0, false},
	} {
		d, s, ok := numberShape(c.v)
		if ok != c.ok || ok && (d != c.digits || s != c.scale) {
			t.Errorf("numberShape(%q) = %d, %d, %v; want %d, %d, %v", c.v, d, s, ok, c.digits, c.scale, c.ok)
		}
	}
}
