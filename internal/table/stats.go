package table

// Stats summarises what one column's values of a batch need, so that the
// caller can widen the column before loading (see Fit and Reconcile).
// Only non-NULL values count.
type Stats struct {
	MaxBytes int // text and JSON: longest value in bytes
	// MaxChars is the longest text value in characters; for national
	// (NVARCHAR2/NCLOB) columns in UTF-16 code units, as Oracle counts them.
	MaxChars     int
	MaxIntDigits int // numbers: most digits before the point
	MaxScale     int // numbers: most digits after the point
	MaxFrac      int // date-times: most fractional second digits
}

// Merge widens s to hold what o holds too.
func (s *Stats) Merge(o Stats) {
	s.MaxBytes = max(s.MaxBytes, o.MaxBytes)
	s.MaxChars = max(s.MaxChars, o.MaxChars)
	s.MaxIntDigits = max(s.MaxIntDigits, o.MaxIntDigits)
	s.MaxScale = max(s.MaxScale, o.MaxScale)
	s.MaxFrac = max(s.MaxFrac, o.MaxFrac)
}
