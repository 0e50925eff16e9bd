package sim

import (
	"context"
	"fmt"
	"time"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// database is what a trial loads into and reads back: the embedded engine
// (in process, or its persistent store after a subprocess), or the Oracle
// engine in front of the fake Oracle server.
type database interface {
	// engine returns the engine a run writes through.
	engine() engine.Engine
	// rows returns a table's committed rows; exists whether it exists.
	rows(qualified string) []map[string]string
	exists(qualified string) bool
}

type memDB struct{ e *memory.Engine }

func (m memDB) engine() engine.Engine             { return m.e }
func (m memDB) rows(q string) []map[string]string { return m.e.Rows(q) }
func (m memDB) exists(q string) bool              { return m.e.Tables()[q] != nil }
func newMemDB(store string) (memDB, error) {
	e, err := memory.Open(memory.Options{KeepRows: true, StorePath: store, Now: func() time.Time { return Now },
		Hooks: memory.Hooks{Refuse: refuseRow}}) // reject.go
	return memDB{e}, err
}

// fakeDB is the Oracle engine on the fake server. Each run gets a fresh
// engine (a new process has no sessions); the server keeps the tables.
type fakeDB struct {
	srv    *fake.DB
	eng    *oracle.Engine
	faults []*fakeFault // every fault injected (the server keeps them)
	stop   func()       // ends the engine's route (wire.go)
}

// hits counts the injected faults whose call was made.
func (f *fakeDB) hits() int {
	n := 0
	for _, ff := range f.faults {
		if ff.hit() {
			n++
		}
	}
	return n
}

func newFakeDB() *fakeDB {
	return &fakeDB{srv: fake.New(fake.Options{Schema: "DRY_RUN", Now: func() time.Time { return Now }})}
}

func (f *fakeDB) engine() engine.Engine {
	if f.eng == nil {
		var dial oracle.Dialer
		dial, f.stop = fakeDial(f.srv)
		f.eng = oracle.New(dial, oraclesql.New(oraclesql.Options{}), oracle.Options{
			Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }, // retries without a clock
		})
	}
	return f.eng
}

// restart is a new process: a new engine on the same server.
func (f *fakeDB) restart() {
	if f.eng != nil {
		f.eng.Close()
		f.stop()
	}
	f.eng = nil
}

func (f *fakeDB) rows(q string) []map[string]string { return f.srv.Rows(q) }

func (f *fakeDB) exists(q string) bool {
	for _, t := range f.srv.Tables() {
		if t == q {
			return true
		}
	}
	return false
}

// fakeFault is a fault injected into the fake server for one run.
type fakeFault struct {
	srv  *fake.DB
	f    fake.Fault
	base int // calls of the op before the run
}

func (f *fakeFault) String() string {
	if f == nil {
		return "none"
	}
	return fmt.Sprintf("%s:%d:ORA-%d:applied=%v", f.f.Op, f.f.Nth, f.f.Code, f.f.Applied)
}

// hit reports whether the fault's call was made. A fault not reached in
// its run stays armed on the server for the next.
func (f *fakeFault) hit() bool {
	return f != nil && f.srv.Calls(f.f.Op)-f.base >= f.f.Nth
}

var fakeOps = []fake.Op{fake.OpDial, fake.OpSetup, fake.OpQuery, fake.OpDDL, fake.OpInsert, fake.OpMerge,
	fake.OpDelete, fake.OpUpdate, fake.OpBegin, fake.OpCommit}

// injectFake gives run i of a fake-Oracle trial a fault at one call of the
// server: a lost connection or a transient error (retried on a fresh
// session), or a permanent one (the run fails), the call applied or not.
func (t *trial) injectFake(db database, i int) *fakeFault {
	f, ok := db.(*fakeDB)
	if !ok {
		return nil
	}
	f.restart()
	if i >= MaxRuns-1 || t.sc.Fail >= 0 || t.r.IntN(3) == 0 {
		return nil
	}
	op := fakeOps[t.r.IntN(len(fakeOps))]
	codes := []int{0, 0, 60, 54, 3113, 1438}
	ff := fake.Fault{Op: op, Nth: 1 + t.r.IntN(8), Code: codes[t.r.IntN(len(codes))], Applied: t.r.IntN(2) == 0}
	// A call takes effect and then fails only when its reply is lost (the
	// connection breaks): a server that answers with an error did not
	// apply the call (a failed statement or COMMIT is rolled back). An
	// applied COMMIT reported as ORA-00054 would make a retried append
	// batch's rows twice, a fault no Oracle produces.
	ff.Applied = ff.Applied && (ff.Code == 0 || ff.Code == 3113)
	inj := &fakeFault{srv: f.srv, f: ff, base: f.srv.Calls(op)}
	f.srv.Inject(ff)
	f.faults = append(f.faults, inj)
	return inj
}

func fakeHits(db database) int {
	if f, ok := db.(*fakeDB); ok {
		return f.hits()
	}
	return 0
}

func fakeFaults(db database) int {
	if f, ok := db.(*fakeDB); ok {
		return len(f.faults)
	}
	return 0
}
