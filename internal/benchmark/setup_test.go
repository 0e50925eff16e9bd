package benchmark

import (
	"context"
	"testing"
)

// TestBenchmarkPerBatchLeavesOutTableSetup: the round trips per batch are
// the batches' (begin, one array INSERT or MERGE, commit on the fake:
// SPEC §10's constant), not the logins, DDL, comments and catalog reads of
// creating the case's tables, which are reported apart. Before, with 2
// streams of 2 batches each, the tables' setup tripled the figure.
func TestBenchmarkPerBatchLeavesOutTableSetup(t *testing.T) {
	_, o := fakeRun(t, `{"max_parallelism": 2, "batch_size_rows": 500}`, 2000, unlimited)
	rep, err := Run(context.Background(), o)
	if err != nil || !rep.OK() {
		t.Fatalf("%v %+v", err, rep)
	}
	for _, f := range rep.Figures {
		t.Logf("%+v", f)
		if f.SetupRoundTrips == 0 {
			t.Errorf("%s × %d: no setup round trips reported", f.Case, f.Streams)
		}
		if f.RoundTripsPerBatch != 3 {
			t.Errorf("%s × %d: %.2f round trips per batch (%d in %d batches, setup %d), want 3",
				f.Case, f.Streams, f.RoundTripsPerBatch, f.RoundTrips, f.Batches, f.SetupRoundTrips)
		}
	}
}
