package metrics

import (
	"strings"
	"testing"
	"time"
)

// TestProgressSaysStatesAreHeld: once a stream holds states until the end
// of input (delete_missing, overwrite), every progress line says so; rows a
// prune removed count as deleted without counting a batch.
func TestProgressSaysStatesAreHeld(t *testing.T) {
	var out strings.Builder
	t0 := time.Unix(0, 0)
	r := New(&out, time.Second, t0)
	addRead(r, "users", 3)
	r.Tick(t0.Add(2*time.Second), 0)
	r.HoldStates("users", "delete_missing is soft")
	r.HoldStates("orders", "load_method is overwrite") // the first reason stays
	addRead(r, "users", 1)
	r.Tick(t0.Add(4*time.Second), 0)
	r.Pruned("users", 2, time.Millisecond)
	sum := r.Finish(t0.Add(5*time.Second), nil)
	lines := strings.Split(out.String(), "\n")
	var progress []string
	for _, l := range lines {
		if strings.HasPrefix(l, "progress: ") {
			progress = append(progress, l)
		}
	}
	if len(progress) < 2 {
		t.Fatalf("progress lines %q", progress)
	}
	const held = "; states held until end of input (users: delete_missing is soft)"
	if strings.Contains(progress[0], "held") {
		t.Errorf("progress line before any hold says states are held: %q", progress[0])
	}
	for _, l := range progress[1:] {
		if !strings.HasSuffix(l, held) {
			t.Errorf("progress line %q does not end with %q", l, held)
		}
	}
	if s := sum.Streams["users"]; s == nil || s.Deleted != 2 || s.Batches != 0 {
		t.Errorf("summary %+v: want 2 deleted, no batch", s)
	}
}
