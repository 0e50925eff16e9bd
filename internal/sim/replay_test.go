package sim

import (
	"regexp"
	"strings"
	"sync"
	"testing"
)

// fingerprint is what a trial did: its settings, each run's plan, fault,
// states and error, and the failures (the input is the seed's anyway).
func fingerprint(r *Result) string {
	s := r.Report()
	if i := strings.Index(s, "  input:\n"); i >= 0 {
		s = s[:i]
	}
	// The reject file lives in the trial's own temporary folder.
	return rejectPath.ReplaceAllString(s, `"reject_path":"…"`)
}

var rejectPath = regexp.MustCompile(`"reject_path":"[^"]*"`)

// A seed replays identically whether it runs alone or beside other seeds
// (the reproduction command a failing seed prints runs it alone): every
// in-process run is ordered by the seeded scheduler inside a synctest
// bubble, so neither the machine's load nor the Go scheduler changes which
// engine call is the K-th, which states are written, or what a run returns.
// Subprocess trials are left out: the process they start is not scheduled.
func TestReplayIsIdentical(t *testing.T) {
	const n = 40
	first := *firstFlag
	beside := make([]string, n)
	var wg sync.WaitGroup
	next := make(chan uint64)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range next {
				beside[s-first] = fingerprint(runSeed(t, s, Options{Dir: t.TempDir()}))
			}
		}()
	}
	for s := first; s < first+n; s++ {
		next <- s
	}
	close(next)
	wg.Wait()
	for s := first; s < first+n; s++ {
		alone := fingerprint(runSeed(t, s, Options{Dir: t.TempDir()}))
		if alone != beside[s-first] {
			t.Errorf("seed %d replayed differently alone:\n%s\nbeside other seeds:\n%s", s, alone, beside[s-first])
		}
	}
}
