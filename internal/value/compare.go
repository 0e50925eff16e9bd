package value

import "strings"

// CompareCanonical compares two numbers in canonical form (CanonicalNumber's
// output) numerically, without parsing them: -1, 0 or +1.
func CompareCanonical(a, b string) int {
	na, nb := strings.HasPrefix(a, "-"), strings.HasPrefix(b, "-")
	switch {
	case na && !nb:
		return -1
	case !na && nb:
		return 1
	case na && nb:
		return -compareMagnitudes(a[1:], b[1:])
	}
	return compareMagnitudes(a, b)
}

func compareMagnitudes(a, b string) int {
	ai, af, _ := strings.Cut(a, ".")
	bi, bf, _ := strings.Cut(b, ".")
	if ai == "0" {
		ai = ""
	}
	if bi == "0" {
		bi = ""
	}
	if len(ai) != len(bi) {
		if len(ai) < len(bi) {
			return -1
		}
		return 1
	}
	if c := strings.Compare(ai, bi); c != 0 {
		return c
	}
	return strings.Compare(af, bf)
}
