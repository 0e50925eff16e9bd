package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
)

// on_database_error: reject in the simulation (SPEC §6.3). In one seed in
// RejectShare the database refuses some records: those whose v is
// RefusedValue, as a DBA's CHECK constraint would (ORA-02290). The model
// skips them, as applying the records one by one skipping refused ones
// does; every state write checks that the refused records it covers are
// in reject_path already, and the end that the file holds nothing else.
// Such seeds run in process on the embedded engine only (the binary and
// the fake server have no such constraint).

// RejectShare: one seed in this many runs with on_database_error: reject.
const RejectShare = 5

// RefusedValue is the v of a record the simulated database refuses.
const RefusedValue = "~"

// rejectFile is the reject_path of a trial, in its directory.
const rejectFile = "rejects.jsonl"

func refusedRec(r *Rec) bool { return r != nil && r.V != nil && *r.V == RefusedValue }

func (s *Scenario) rejecting() bool { return s.Settings["on_database_error"] == "reject" }

// markRefused picks the reject seeds and their refused records, from a
// random source of its own so that the other seeds' inputs stay as they
// were. Only records without _sdc_deleted_at are refused (a soft delete
// of an existing row changes no checked column), and none of the stream
// of a message that must fail (a key change fails only on a table with
// rows).
func markRefused(sc *Scenario) {
	r := rand.New(rand.NewPCG(sc.Seed^0x7e1ec7, sc.Seed))
	if r.IntN(RejectShare) != 0 || Avoid["reject"] || slices.ContainsFunc(sc.Streams, func(st StreamSpec) bool { return st.Method == History }) {
		return // on_database_error reject is refused with history streams (config/history.go)
	}
	sc.Settings["on_database_error"] = "reject"
	failing := "" // a key change must fail on a table with rows: its stream's rows stay
	if sc.Fail >= 0 {
		failing = sc.Msgs[sc.Fail].Stream
	}
	for i := range sc.Msgs {
		m := &sc.Msgs[i]
		if m.Kind != "RECORD" || m.Rec.Deleted != "" || m.Stream == failing || r.IntN(4) != 0 {
			continue
		}
		v := RefusedValue
		m.Rec.V = &v
		m.Text = recordText(m.Stream, m.Rec)
	}
}

// refuseRow is the simulated database's CHECK constraint.
func refuseRow(_ string, r engine.Row) error {
	if slices.Contains(r.Values, RefusedValue) {
		return &memory.OracleError{Code: 2290, Msg: `check constraint (DRY_RUN.V_CHECK) violated`}
	}
	return nil
}

// rejectSetup names the trial's reject_path in its settings.
func (t *trial) rejectSetup(dir string) {
	if t.sc.rejecting() {
		t.sc.Settings["reject_path"] = filepath.Join(dir, rejectFile)
	}
}

// TryLoad passes the pipeline's trials to the database (engine.Trier),
// as events of kind "try" that a plan may disturb.
func (s *simSession) TryLoad(ctx context.Context, steps []engine.Step) error {
	tr, ok := s.s.(engine.Trier)
	if !ok {
		return fmt.Errorf("sim: the database cannot try a batch")
	}
	return s.c.do(ctx, "try", stepsTable(steps), func() error { return tr.TryLoad(ctx, steps) })
}

// rejected reads the trial's reject_path: each line's record text.
func (t *trial) rejected() ([]string, error) {
	b, err := os.ReadFile(filepath.Join(t.opts.Dir, rejectFile))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		var r struct {
			Error  string          `json:"error"`
			Record json.RawMessage `json:"record"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			return nil, fmt.Errorf("reject line %q: %w", l, err)
		}
		if !strings.HasPrefix(r.Error, "ORA-02290") {
			return nil, fmt.Errorf("reject line %q: not the CHECK constraint's error", l)
		}
		out = append(out, string(r.Record))
	}
	return out, nil
}

// recordOf is a RECORD message's record text, as the reject file holds it.
func recordOf(m Msg) string {
	var r struct {
		Record json.RawMessage `json:"record"`
	}
	_ = json.Unmarshal([]byte(m.Text), &r)
	return string(r.Record)
}

// checkRejects: when a state at pos is written, every refused record
// before it (that takes effect) is in reject_path, and nothing else is.
func (t *trial) checkRejects(pos int, where string) {
	if !t.sc.rejecting() {
		return
	}
	got, err := t.rejected()
	if err != nil {
		t.res.failf("%s: %v", where, err)
		return
	}
	have := map[string]bool{}
	for _, g := range got {
		have[g] = true
	}
	refused := map[string]bool{}
	for i, m := range t.sc.Msgs {
		if m.Kind != "RECORD" || !refusedRec(m.Rec) {
			continue
		}
		refused[recordOf(m)] = true
		if i < pos && !t.skip(i) && !have[recordOf(m)] {
			t.res.failf("%s: state %d written before the refused record of message %d is in reject_path", where, pos, i)
		}
	}
	for _, g := range got {
		if !refused[g] {
			t.res.failf("%s: reject_path holds %s, which the database does not refuse", where, g)
		}
	}
}
