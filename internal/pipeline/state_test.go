package pipeline

import (
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
