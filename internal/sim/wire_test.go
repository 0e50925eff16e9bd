package sim

import (
	"database/sql"
	"flag"
	"fmt"
	"sync"
	"testing"

	go_ora "github.com/sijms/go-ora/v2"

	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/wirepeer"
	"github.com/target-oracle/target-oracle/internal/wirepeer/fakewire"
)

var wireFlag = flag.Bool("wire", false, "run the fake-Oracle trials through go-ora and the wire peer (with -sim or -fake)")

// wireRoute counts what the wire route served, and what the peers could
// not decode.
type wireRoute struct {
	mu    sync.Mutex
	peers int
	calls int
	errs  []error
}

// With -wire every fake-Oracle trial (TestSimulation -sim -fake, the one
// seed in FakeShare otherwise) goes through the wire peer; a peer that
// could not decode a call panics when its engine goes, naming the call.
func init() {
	wireDial = func(srv *fake.DB) (oracle.Dialer, func()) {
		if !*wireFlag {
			return srv.Dial, func() {}
		}
		w := &wireRoute{}
		dial, stop := w.route(srv)
		return dial, func() {
			stop()
			if len(w.errs) > 0 {
				panic(fmt.Sprintf("wire peer: %v", w.errs))
			}
		}
	}
}

// onTheWire makes fake-Oracle trials dial through the wire peer until the
// returned function restores the route -wire chooses.
func onTheWire(t testing.TB) (*wireRoute, func()) {
	t.Helper()
	w := &wireRoute{}
	old := wireDial
	wireDial = w.route
	return w, func() { wireDial = old }
}

// route starts a peer over srv and returns a dialer of pinned go-ora
// sessions to it (no idle pool: an engine session is one wire
// connection) and what stops it.
func (w *wireRoute) route(srv *fake.DB) (oracle.Dialer, func()) {
	{
		p, err := wirepeer.Start(wirepeer.Facts{Backend: fakewire.Backend(srv)})
		if err != nil {
			panic(err) // a loopback listener
		}
		db := sql.OpenDB(go_ora.NewConnector(p.URL()))
		db.SetMaxIdleConns(0)
		return oracle.DialDB(db), func() {
			db.Close()
			p.Close()
			w.mu.Lock()
			defer w.mu.Unlock()
			w.peers++
			w.calls += len(p.Calls())
			if err := p.Err(); err != nil {
				w.errs = append(w.errs, err)
			}
		}
	}
}

// TestSimulationOnTheWire runs fake-Oracle trials with the Oracle engine
// going through go-ora v2.9.0 and the wire peer: the fault points of
// each trial (a lost connection, ORA-00060/00054/03113/01438 at the N-th
// dial, setup, query, DDL, INSERT, MERGE, DELETE, UPDATE, begin or
// commit, applied or not) fire behind real driver calls, and the state
// contract holds as on the direct route. The seeds leave out the
// generator parts of the bugs known today (as
// TestSimulationWithoutKnownBugs). More seeds:
//
//	go test ./internal/sim -run TestSimulation -sim -fake -wire -avoid append-hard,truncate,failing,parallel
func TestSimulationOnTheWire(t *testing.T) {
	if *simFlag {
		t.Skip("TestSimulation runs instead (add -wire)")
	}
	w, restore := onTheWire(t)
	defer restore()
	defer setAvoid("append-hard,truncate,failing,parallel")()
	var faults int
	for s := uint64(1); s <= 12; s++ {
		res := Run(s, Options{Dir: t.TempDir(), FakeOracle: true})
		if !res.FakeOracle {
			continue
		}
		for _, r := range res.Runs {
			if r.Fake != "" && r.Fake != "none" {
				faults++
			}
		}
		if len(res.Failures) > 0 {
			t.Errorf("%s  reproduce: go test ./internal/sim -run TestSimulation -sim -fake -wire -seed %d -avoid append-hard,truncate,failing,parallel -v", res.Report(), s)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	t.Logf("%d engines, each on a peer of its own; %d wire calls; %d faults injected", w.peers, w.calls, faults)
	if w.peers == 0 || w.calls == 0 || faults == 0 {
		t.Errorf("the wire route was not exercised: %d peers, %d calls, %d faults", w.peers, w.calls, faults)
	}
	for _, err := range w.errs {
		t.Errorf("wire peer: %v", err)
	}
}
