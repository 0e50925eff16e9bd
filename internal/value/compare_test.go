package value

import (
	"math/big"
	"testing"
)

func TestCompareCanonical(t *testing.T) {
	nums := []string{"-1000", "-99.5", "-1", "-0.5", "-0.05", "0", "0.001", "0.5", "1", "1.5", "9", "10", "99999999999999999999.1"}
	for i, a := range nums {
		for j, b := range nums {
			want := 0
			switch {
			case i < j:
				want = -1
			case i > j:
				want = 1
			}
			if got := CompareCanonical(a, b); got != want {
				t.Errorf("CompareCanonical(%s, %s) = %d, want %d", a, b, got, want)
			}
			ra, _ := new(big.Rat).SetString(a)
			rb, _ := new(big.Rat).SetString(b)
			if ra.Cmp(rb) != want {
				t.Fatalf("test table out of order at %s, %s", a, b)
			}
		}
	}
}
