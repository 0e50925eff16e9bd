package pipeline_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/pipeline"
)

// signalOnLoad is the embedded engine whose first Load closes stop: the
// signal comes while a batch loads and the coordinator waits for it in the
// middle of a chunk of input.
type signalOnLoad struct {
	*memory.Engine
	once sync.Once
	stop chan struct{}
}

func (e *signalOnLoad) Session(ctx context.Context, name string) (engine.Session, error) {
	s, err := e.Engine.Session(ctx, name)
	if err != nil {
		return nil, err
	}
	return &signalSession{Session: s, e: e}, nil
}

type signalSession struct {
	engine.Session
	e *signalOnLoad
}

func (s *signalSession) Load(ctx context.Context, steps []engine.Step) (engine.Result, error) {
	s.e.once.Do(func() { close(s.e.stop) })
	return s.Session.Load(ctx, steps)
}

// shutdown_timeout_seconds counts from the signal, also when it comes while
// the coordinator waits for a batch in the middle of a chunk of input: no
// batch starts after the timeout (each message of the chunk could start
// one, so the drain was unbounded).
func TestShutdownTimeoutCountsFromSignalMidChunk(t *testing.T) {
	for _, tc := range []struct {
		name, settings string
		states, rows   string
	}{
		// The first batch loads for 1.5 s; the timeout (1 s) passes first:
		// no later batch starts.
		{"timeout", `{"batch_size_rows":1,"shutdown_timeout_seconds":1,"max_parallelism":1,"batch_wait_limit_seconds":3600}`, `{"n":1}`, "1"},
		// Without a timeout everything read is drained (0: drain all).
		{"no timeout", `{"batch_size_rows":1,"max_parallelism":1,"batch_wait_limit_seconds":3600}`, "{\"n\":1}\n{\"n\":2}\n{\"n\":3}", "1,2,3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := &signalOnLoad{Engine: memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }, LoadDelay: 1500 * time.Millisecond}),
				stop: make(chan struct{})}
			var out strings.Builder
			in := input(schemaLine, rec(1, "a"), state(1), rec(2, "b"), state(2), rec(3, "c"), state(3))
			start := time.Now()
			err := pipeline.Run(context.Background(), pipeline.Options{Config: loadConfig(t, tc.settings), Engine: eng,
				Server: pipeline.Server{DefaultSchema: "DRY_RUN", IdentifierMaxBytes: 128, VarcharMaxBytes: 4000},
				Input:  strings.NewReader(in), StateOut: &out, Stop: eng.stop})
			if !errors.Is(err, pipeline.ErrStopped) {
				t.Fatalf("err %v, want ErrStopped", err)
			}
			if got := strings.TrimSpace(out.String()); got != tc.states || ids(eng.Engine, "S") != tc.rows {
				t.Fatalf("states %q rows %s (after %v), want states %q rows %s", got, ids(eng.Engine, "S"), time.Since(start), tc.states, tc.rows)
			}
		})
	}
}
