package sim

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

// Action is what happens at a plan's point.
type Action string

const (
	// Crash kills the process before the call: neither it nor anything
	// after it takes effect (SIGKILL).
	Crash Action = "crash"
	// CrashAfter lets the call take effect, then kills the process before
	// the caller hears of it.
	CrashAfter Action = "crash-after"
	// Fault fails the call with an error; the call has no effect.
	Fault Action = "fault"
	// Term sends the first signal (SIGTERM: drain) at the call.
	Term Action = "sigterm"
	// Term2 sends the first signal at the call and the second (abort) at
	// the next event.
	Term2 Action = "sigterm2"
	// Hold makes the call wait until the next state write (or, when none
	// comes, until the run has nothing else to do): a slow DDL or load,
	// without a clock.
	Hold Action = "hold"
	// Block makes the state write block (a consumer that stops reading);
	// the orchestrator then signals twice and the write fails.
	Block Action = "block"
)

// Point is where and how a run is disturbed: at the K-th event of Kind.
type Point struct {
	Kind   string // ddl, load, truncate, session, describe, state
	K      int
	Action Action
}

func (p *Point) String() string {
	if p == nil {
		return "none"
	}
	return fmt.Sprintf("%s:%d:%s", p.Kind, p.K, p.Action)
}

// trace prints engine calls and states (SIM_TRACE=1), for a failing seed.
var trace = os.Getenv("SIM_TRACE") != ""

var errKilled = errors.New("sim: process killed")

// control counts a run's events and applies its plan.
type control struct {
	plan   *Point
	cancel context.CancelFunc
	stop   chan struct{}

	mu       sync.Mutex
	counts   map[string]int
	dead     bool
	fired    bool
	stopped  bool
	second   bool // the second signal is due at the next event
	holds    []chan struct{}
	holdWait time.Duration

	// sched, when set, orders the run's events (sched.go); signals are
	// then delivered as steps of their own.
	sched *scheduler
}

func newControl(plan *Point, cancel context.CancelFunc) *control {
	return &control{plan: plan, cancel: cancel, stop: make(chan struct{}), counts: map[string]int{}, holdWait: 2 * time.Millisecond}
}

func (c *control) signal() {
	if !c.stopped {
		c.stopped = true
		close(c.stop)
	}
}

// deliver sends a signal (f, run under c.mu) now or, scheduled, as a step
// of its own. The caller holds c.mu.
func (c *control) deliver(f func()) {
	if c.sched == nil {
		f()
		return
	}
	c.sched.later(func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		f()
	})
}

// before is called before an event (name: its table or stream); it returns
// the action due now, or errKilled when the process is already dead.
func (c *control) before(kind, name string) (Action, error) {
	if c.sched != nil {
		c.sched.pass(kind + " " + name)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead {
		return "", errKilled
	}
	if c.second {
		c.second = false
		c.deliver(c.cancel)
	}
	c.counts[kind]++
	if c.plan == nil || c.fired || c.plan.Kind != kind || c.plan.K != c.counts[kind] {
		return "", nil
	}
	c.fired = true
	switch c.plan.Action {
	case Crash:
		c.kill()
		return Crash, errKilled
	case Term:
		c.deliver(c.signal)
	case Term2:
		c.deliver(c.signal)
		c.second = true
	}
	return c.plan.Action, nil
}

// kill: nothing after this takes effect. The caller holds c.mu.
func (c *control) kill() {
	c.dead = true
	c.cancel()
	for _, h := range c.holds {
		close(h)
	}
	c.holds = nil
}

func (c *control) killNow() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dead {
		c.kill()
	}
}

func (c *control) isDead() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dead
}

// hold waits until the next state write releases the holds, or, so that
// a run whose frontier waits on this very call still ends, a short while.
func (c *control) hold(ctx context.Context) {
	ch := make(chan struct{})
	c.mu.Lock()
	c.holds = append(c.holds, ch)
	c.mu.Unlock()
	t := time.NewTimer(c.holdWait)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	case <-ctx.Done():
	}
}

func (c *control) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, h := range c.holds {
		close(h)
	}
	c.holds = nil
}

// do runs one engine call of kind under the plan.
func (c *control) do(ctx context.Context, kind, name string, call func() error) error {
	act, err := c.before(kind, name)
	if err != nil {
		return err
	}
	switch act {
	case Fault:
		return fmt.Errorf("sim: injected fault at %s", c.plan)
	case Hold:
		c.hold(ctx)
		if c.isDead() {
			return errKilled
		}
	}
	err = call()
	if act == CrashAfter {
		c.killNow()
		return errKilled
	}
	if c.isDead() {
		// Killed while the call ran: the caller never hears back.
		return errKilled
	}
	return err
}

// simEngine wraps the embedded engine (the database, kept across runs)
// with a run's control.
type simEngine struct {
	db engine.Engine
	c  *control
}

var (
	_ engine.Engine     = (*simEngine)(nil)
	_ engine.RowChecker = (*simEngine)(nil)
)

func (e *simEngine) Describe(ctx context.Context, schema, name string) (*table.Table, error) {
	var t *table.Table
	err := e.c.do(ctx, "describe", schema+"."+name, func() (err error) {
		t, err = e.db.Describe(ctx, schema, name)
		return err
	})
	return t, err
}

// Indexes forwards engine.IndexReader; without it in the engine under
// test, Describe's tables say IndexesUnread and nothing is compared.
func (e *simEngine) Indexes(ctx context.Context, t *table.Table) ([]table.Index, error) {
	var out []table.Index
	err := e.c.do(ctx, "describe", t.QualifiedName(), func() (err error) {
		if ir, ok := e.db.(engine.IndexReader); ok {
			out, err = ir.Indexes(ctx, t)
		}
		return err
	})
	return out, err
}

func (e *simEngine) HasRows(ctx context.Context, t *table.Table) (bool, error) {
	var has bool
	err := e.c.do(ctx, "describe", t.QualifiedName(), func() (err error) {
		rc, ok := e.db.(engine.RowChecker)
		if !ok {
			has = true // as the pipeline assumes of an engine that cannot tell
			return nil
		}
		has, err = rc.HasRows(ctx, t)
		return err
	})
	return has, err
}

func (e *simEngine) Session(ctx context.Context, name string) (engine.Session, error) {
	var s engine.Session
	err := e.c.do(ctx, "session", name, func() (err error) {
		s, err = e.db.Session(ctx, name)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &simSession{s: s, c: e.c}, nil
}

func (e *simEngine) Close() error { return nil }

type simSession struct {
	s engine.Session
	c *control
}

func (s *simSession) Apply(ctx context.Context, ch engine.Change) error {
	return s.c.do(ctx, "ddl", ch.Table.QualifiedName(), func() error {
		err := s.s.Apply(ctx, ch)
		if trace {
			fmt.Fprintf(os.Stderr, "trace: ddl %s %T: %v\n", ch.Table.Name, ch.Change, err)
		}
		return err
	})
}

func (s *simSession) Load(ctx context.Context, steps []engine.Step) (engine.Result, error) {
	var res engine.Result
	err := s.c.do(ctx, "load", stepsTable(steps), func() (err error) {
		res, err = s.s.Load(ctx, steps)
		if trace {
			for _, st := range steps {
				if w, ok := st.(*engine.Write); ok {
					var lines []int64
					for _, r := range w.Rows {
						lines = append(lines, r.Line)
					}
					fmt.Fprintf(os.Stderr, "trace: load %s lines %v: %v\n", w.Table.Name, lines, err)
				}
			}
		}
		return err
	})
	return res, err
}

func (s *simSession) Truncate(ctx context.Context, t *table.Table) error {
	return s.c.do(ctx, "truncate", t.QualifiedName(), func() error { return s.s.Truncate(ctx, t) })
}

func (s *simSession) Close() error { return s.s.Close() }

// stepsTable names the table of a batch's steps, for its gate. Every step
// kind must be named: two loads waiting at one gate name ("load ") would be
// opened in the order they arrived, which is the Go scheduler's.
func stepsTable(steps []engine.Step) string {
	for _, st := range steps {
		switch st := st.(type) {
		case *engine.Write:
			return st.Table.QualifiedName()
		case *engine.Replace:
			return st.Table.QualifiedName()
		case *engine.DeleteVersions:
			return st.Table.QualifiedName()
		case *engine.History:
			return st.Table.QualifiedName()
		case *engine.CloseVersions:
			return st.Table.QualifiedName()
		case *engine.KeepKeys:
			return st.Table.QualifiedName()
		case *engine.DeleteMissing:
			return st.Table.QualifiedName()
		}
	}
	return ""
}
