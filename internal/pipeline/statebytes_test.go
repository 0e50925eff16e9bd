package pipeline_test

import (
	"fmt"
	"strings"
	"testing"
)

// A tap that sends a large STATE after every record must not make the
// target hold every one of them until the batch of those records commits:
// max_buffered_bytes counts record bytes only, so 40 states of 1 MB behind
// 40 buffered records were all kept (10,000 of them: 10 GB, far past
// SPEC §10's bound). Past 16 MB of pending states the buffered streams
// flush, so intermediate states are written (each after the records
// before it commit) and the rest are forgotten.
func TestLargePendingStatesFlushBufferedRecords(t *testing.T) {
	pad := strings.Repeat("x", 1<<20)
	lines := []string{schemaLine}
	for i := 1; i <= 40; i++ {
		lines = append(lines, rec(i, "a"), fmt.Sprintf(`{"type":"STATE","value":{"n":%d,"pad":"%s"}}`, i, pad))
	}
	eng := newEngine()
	states, err := run(t, eng, loadConfig(t, `{"max_parallelism": 1}`), input(lines...))
	if err != nil {
		t.Fatal(err)
	}
	if len(states) < 2 {
		t.Fatalf("%d state lines written: the 40 MB of states waited for the end of input", len(states))
	}
	if want := `{"n":40,`; !strings.HasPrefix(states[len(states)-1], want) {
		t.Fatalf("last state %.20q, want prefix %q", states[len(states)-1], want)
	}
	if n := len(eng.Rows("DRY_RUN.S")); n != 40 {
		t.Fatalf("%d rows, want 40", n)
	}
}
