package oravalue

// Kept reports, by a test cheaper than Assign, that Assign(v) would return
// v itself and no error: the loader's common values (a short text, a plain
// integer within the column's precision, a boolean, compact JSON, a
// canonical UTC date-time within the column's fractional digits). When it
// reports false, nothing is decided: the caller asks Assign, which also
// words the error. The embedded engine checks every value it loads, so
// this is its per-value hot path; TestKeptAgreesWithAssign holds it to
// Assign on generated values.
func (c *Column) Kept(v string) bool {
	if v == "" {
		return false // NULL: Assign decides (NOT NULL)
	}
	switch c.Kind {
	case KindVarchar:
		// Never more characters than bytes: a value within the length in
		// bytes fits whatever the length semantics.
		return len(v) <= c.Length
	case KindClob:
		return true
	case KindNumber:
		return c.keptNumber(v)
	case KindBoolean:
		return v == "true" || v == "false"
	case KindJSON:
		return jsonShape(v) && !c.scalarRefused(v)
	case KindTimestamp:
		return fastStored(v) && max(0, len(v)-21) <= c.Frac
	}
	return false
}

// keptNumber is Kept for NUMBER: a canonical decimal,
// -?(0|[1-9][0-9]*)(\.[0-9]*[1-9])? but not "-0", whose integer digits and
// scale the column holds (and 0 or 1 for a boolean NUMBER(1)), in one scan.
// Odd precisions and scales are left to Assign.
func (c *Column) keptNumber(v string) bool {
	limit, scale := maxIntDigits, len(v)
	if c.Precision > 0 {
		if c.Scale < 0 || c.Scale > c.Precision {
			return false
		}
		limit, scale = c.Precision-c.Scale, c.Scale
	}
	s := v
	if s[0] == '-' {
		s = s[1:]
	}
	i := 0
	for i < len(s) && s[i]-'0' <= 9 {
		i++
	}
	ip := i
	switch {
	case ip == 0:
		return false
	case s[0] == '0':
		if ip > 1 {
			return false
		}
		ip = 0
	}
	if ip > limit {
		return false
	}
	if i < len(s) {
		if s[i] != '.' || i == len(s)-1 || s[len(s)-1] == '0' || len(s)-i-1 > scale {
			return false
		}
		for j := i + 1; j < len(s); j++ {
			if s[j]-'0' > 9 {
				return false
			}
		}
	} else if ip == 0 && len(s) != len(v) {
		return false // "-0": Assign makes it "0"
	}
	return !c.BoolNumber || v == "0" || v == "1"
}
