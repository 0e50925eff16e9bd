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
// SPEC §10's bound). States behind one buffer are coalesced to the last
// (pendstate_test.go); with a record of another stream between each two,
// each may be written on its own, and past 16 MB of pending states the
// buffered streams flush, so intermediate states are written (each after
// the records before it commit) and the rest are forgotten.
func TestLargePendingStatesFlushBufferedRecords(t *testing.T) {
	pad := strings.Repeat("x", 1<<20)
	var lines []string
	for i := 1; i <= 40; i++ {
		lines = append(lines, strings.Replace(schemaLine, `"stream":"s"`, fmt.Sprintf(`"stream":"s%d"`, i), 1))
	}
	for i := 1; i <= 40; i++ {
		lines = append(lines, strings.Replace(rec(i, "a"), `"stream":"s"`, fmt.Sprintf(`"stream":"s%d"`, i), 1),
			fmt.Sprintf(`{"type":"STATE","value":{"n":%d,"pad":"%s"}}`, i, pad))
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
	for i := 1; i <= 40; i++ {
		if n := len(eng.Rows(fmt.Sprintf("DRY_RUN.S%d", i))); n != 1 {
			t.Fatalf("stream s%d: %d rows, want 1", i, n)
		}
	}
}

// A STATE line over 16 MiB is read into a buffer of its own; its value
// was compacted into a buffer the reader reuses, so the next STATE,
// read while the pipeline still copied this one, overwrote it: the line
// written began {"b":1}"xxx… (SPEC §7 rule 2: the value as received).
func TestLongStateFollowedByAnotherIsWrittenIntact(t *testing.T) {
	pad := strings.Repeat("x", 20<<20)
	want := `{"big":"` + pad + `"}`
	states, err := run(t, newEngine(), loadConfig(t, ``), input(`{"type":"STATE","value":`+want+`}`, `{"type":"STATE","value":{"b":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(states) != 2 || states[0] != want || states[1] != `{"b":1}` {
		t.Fatalf("%d states, first %.20q", len(states), states[0])
	}
}
