package pipeline

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestStateTrackerWritesNewestQualifying(t *testing.T) {
	var out strings.Builder
	tr := &stateTracker{out: &out}
	tr.add(10, []byte(`{"a":1}`))
	tr.add(20, []byte(`{"a":2}`))
	tr.add(30, []byte(`{"a":3}`))

	steps := []struct {
		frontier int64
		want     string
	}{
		{5, ""},                            // record at line 5 still open: nothing qualifies
		{25, "{\"a\":2}\n"},                // states at 10 and 20 qualify: only the newest is written
		{25, "{\"a\":2}\n"},                // no move, nothing new
		{noLine, "{\"a\":2}\n{\"a\":3}\n"}, // everything committed
		{noLine, "{\"a\":2}\n{\"a\":3}\n"}, // idempotent
	}
	for i, s := range steps {
		if err := tr.advance(s.frontier); err != nil {
			t.Fatal(err)
		}
		if got := out.String(); got != s.want {
			t.Fatalf("step %d: got %q, want %q", i, got, s.want)
		}
	}
}

func TestStateTrackerSkipsRepeatedText(t *testing.T) {
	var out strings.Builder
	tr := &stateTracker{out: &out}
	tr.add(1, []byte(`{"x":1}`))
	_ = tr.advance(noLine)
	tr.add(2, []byte(`{"x":1}`))
	_ = tr.advance(noLine)
	if got := strings.Count(out.String(), "\n"); got != 1 {
		t.Fatalf("wrote %d lines, want 1: %q", got, out.String())
	}
}

func TestStateTrackerRunsBeforeWrite(t *testing.T) {
	var out strings.Builder
	synced := 0
	tr := &stateTracker{out: &out, beforeWrite: func() error { synced++; return nil }}
	tr.add(1, []byte(`1`))
	_ = tr.advance(noLine)
	if synced != 1 {
		t.Fatalf("beforeWrite ran %d times, want 1", synced)
	}
}

// A STATE of tens of MB was copied once more to append its "\n" when it
// was written (a third copy beside the reader's line and the kept value):
// now the kept copy is the only one the tracker makes.
func TestStateTrackerCopiesAStateOnce(t *testing.T) {
	value := []byte(`{"pad":"` + strings.Repeat("x", 1<<20) + `"}`)
	tr := &stateTracker{out: io.Discard}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range 10 {
		tr.add(int64(i+1), value)
		if err := tr.advance(noLine); err != nil {
			t.Fatal(err)
		}
		value[len(value)-3] = byte('a' + i) // not the text written last
	}
	runtime.ReadMemStats(&after)
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(10*len(value)+len(value)/2); got > limit {
		t.Fatalf("writing 10 states of %d bytes allocated %d bytes, want at most %d", len(value), got, limit)
	}
}

// coalesce keeps a pending state only when some point lies between it and
// the next one (or it is the last); a point equal to a state's line counts
// for the state before (advance writes states before the frontier only).
func TestStateTrackerCoalesce(t *testing.T) {
	for _, tc := range []struct {
		points []int64
		want   []int64 // lines kept
	}{
		{nil, []int64{40}},
		{[]int64{5}, []int64{40}},                      // before every state: only the last can be written
		{[]int64{15}, []int64{10, 40}},                 // 10 is written while 15 is open
		{[]int64{25, 21, 50}, []int64{20, 40}},         // any order, repeats, after the last
		{[]int64{30}, []int64{20, 40}},                 // at 30: the frontier at 30 writes 20
		{[]int64{11, 21, 31}, []int64{10, 20, 30, 40}}, // one point in each gap
	} {
		tr := &stateTracker{out: io.Discard}
		for _, l := range []int64{10, 20, 30, 40} {
			tr.add(l, []byte(fmt.Sprintf(`{"l":%d}`, l)))
		}
		tr.coalesce(tc.points)
		var got []int64
		size := 0
		for _, s := range tr.pending {
			got = append(got, s.line)
			size += len(s.value)
		}
		if !slices.Equal(got, tc.want) || size != tr.bytes {
			t.Errorf("points %v: kept %v (%d bytes, counted %d), want %v", tc.points, got, size, tr.bytes, tc.want)
		}
	}
}
