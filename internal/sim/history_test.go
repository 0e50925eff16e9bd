package sim

import "testing"

// The simulation covers load_method history: among the seeds that run in
// every `go test ./...`, some load history streams, and TestSimulation's
// seeds do too.
func TestSeedsHaveHistoryStreams(t *testing.T) {
	defer setAvoid("append-hard,truncate,failing,parallel")()
	n := 0
	for s := uint64(1); s <= 60; s++ {
		for _, st := range Generate(s).Streams {
			if st.Method == History {
				n++
				break
			}
		}
	}
	if n < 5 {
		t.Errorf("%d of seeds 1-60 have a history stream, want at least 5", n)
	}
	t.Logf("%d of seeds 1-60 have a history stream", n)
}

// versionsHold is the check of a history table's versions per key.
func TestVersionsHold(t *testing.T) {
	v := func(from, to, hash string) map[string]string {
		r := map[string]string{"_SDC_VALID_FROM": from, "_SDC_ROW_HASH": hash, "_SDC_IS_CURRENT": "1"}
		if to != "" {
			r["_SDC_VALID_TO"], r["_SDC_IS_CURRENT"] = to, "0"
		}
		return r
	}
	const a, b, c = "2025-01-01T00:00:00Z", "2025-01-01T00:00:00.000001Z", "2025-01-02T00:00:00Z"
	for _, tc := range []struct {
		name string
		vs   []map[string]string
		ok   bool
	}{
		{"a change", []map[string]string{v(a, b, "h1"), v(b, "", "h2")}, true},
		{"a delete between equal versions", []map[string]string{v(a, b, "h1"), v(c, "", "h1")}, true},
		{"equal versions back to back", []map[string]string{v(a, b, "h1"), v(b, "", "h1")}, false},
		{"two current versions", []map[string]string{v(a, "", "h1"), v(b, "", "h2")}, false},
		{"ends before it starts", []map[string]string{v(c, a, "h1")}, false},
	} {
		if err := versionsHold(tc.vs); (err == nil) != tc.ok {
			t.Errorf("%s: versionsHold = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}
