package sim

import (
	"testing"
	"testing/synctest"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

// Every step kind a load can carry names its table in the load's gate:
// two history loads of different tables once both waited at "load ", and
// the order they arrived in (the Go scheduler's) chose which one ran.
func TestStepsTableNamesEveryStep(t *testing.T) {
	tbl := &table.Table{Schema: "DRY_RUN", Name: "S0"}
	for _, st := range []engine.Step{
		&engine.Write{Table: tbl},
		&engine.Replace{Table: tbl},
		&engine.DeleteVersions{Table: tbl},
		&engine.History{Table: tbl},
		&engine.CloseVersions{Table: tbl},
		&engine.KeepKeys{Table: tbl},
		&engine.DeleteMissing{Table: tbl},
	} {
		if got := stepsTable([]engine.Step{st}); got != "DRY_RUN.S0" {
			t.Errorf("stepsTable(%T) = %q, want DRY_RUN.S0", st, got)
		}
	}
}

// Two goroutines waiting at one gate name are ordered by their arrival,
// not by the seed: the scheduler reports it, so the trial fails instead of
// replaying differently.
func TestSchedulerReportsSharedGate(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"load DRY_RUN.S0", "load DRY_RUN.S2"}, ""},
		{[]string{"load ", "load "}, "load "},
	} {
		synctest.Test(t, func(t *testing.T) {
			s := newScheduler(1, 0)
			stop, exited := make(chan struct{}), make(chan struct{})
			go s.loop(stop, exited)
			done := make(chan struct{})
			for _, n := range tc.names {
				go func() { s.pass(n); done <- struct{}{} }()
			}
			for range tc.names {
				<-done
			}
			close(stop)
			<-exited
			if got := s.clashed(); got != tc.want {
				t.Errorf("gates %q: clash %q, want %q", tc.names, got, tc.want)
			}
		})
	}
}
