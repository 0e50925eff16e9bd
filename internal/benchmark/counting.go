package benchmark

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

// counting counts the batches (Session.Load calls) of an engine, and
// carries what a case's setup run paid for into its timed run: the
// sessions it logged in (kept open instead of closed) and the tables as
// created (read once at the end of the setup). So the timed run's round
// trips are its batches', which SPEC §10 says are a constant per batch,
// and logins and catalog reads are counted with the setup.
type counting struct {
	engine.Engine
	loads atomic.Int64

	mu     sync.Mutex
	keep   bool                    // setup run: sessions closed by the pipeline stay open
	idle   []engine.Session        // kept sessions, handed out again
	tables map[string]*table.Table // SCHEMA.TABLE as the setup created it
}

// remember reads the tables the setup run created, opens sessions until
// there is one per table (one per stream of the timed run, which loads
// them in parallel), and stops keeping sessions: the timed run closes what
// it opens.
func (c *counting) remember(ctx context.Context, schema string, names []string) error {
	for {
		c.mu.Lock()
		enough := len(c.idle) >= len(names)
		c.mu.Unlock()
		if enough {
			break
		}
		s, err := c.Engine.Session(ctx, "target_oracle_bench")
		if err != nil {
			return err
		}
		c.mu.Lock()
		c.idle = append(c.idle, s)
		c.mu.Unlock()
	}
	tables := map[string]*table.Table{}
	for _, n := range names {
		t, err := c.Engine.Describe(ctx, schema, n)
		if err != nil {
			return err
		}
		if t == nil {
			return errors.New("table " + schema + "." + n + " was not created")
		}
		tables[schema+"."+n] = t
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tables, c.keep = tables, false
	return nil
}

func (c *counting) Describe(ctx context.Context, schema, name string) (*table.Table, error) {
	c.mu.Lock()
	t := c.tables[schema+"."+name]
	c.mu.Unlock()
	if t != nil {
		return t.Clone(), nil // the pipeline keeps its copy up to date itself
	}
	return c.Engine.Describe(ctx, schema, name)
}

func (c *counting) Session(ctx context.Context, name string) (engine.Session, error) {
	c.mu.Lock()
	if n := len(c.idle); n > 0 {
		s := c.idle[n-1]
		c.idle = c.idle[:n-1]
		c.mu.Unlock()
		return &countingSession{Session: s, c: c}, nil
	}
	c.mu.Unlock()
	s, err := c.Engine.Session(ctx, name)
	if err != nil {
		return nil, err
	}
	return &countingSession{Session: s, c: c}, nil
}

// Close closes the sessions still kept and leaves the production engine
// open for the next case.
func (c *counting) Close() error {
	c.mu.Lock()
	idle := c.idle
	c.idle, c.keep = nil, false
	c.mu.Unlock()
	var errs []error
	for _, s := range idle {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}

type countingSession struct {
	engine.Session
	c *counting
}

func (s *countingSession) Load(ctx context.Context, steps []engine.Step) (engine.Result, error) {
	s.c.loads.Add(1)
	return s.Session.Load(ctx, steps)
}

func (s *countingSession) Close() error {
	s.c.mu.Lock()
	if s.c.keep {
		s.c.idle = append(s.c.idle, s.Session)
		s.c.mu.Unlock()
		return nil
	}
	s.c.mu.Unlock()
	return s.Session.Close()
}
