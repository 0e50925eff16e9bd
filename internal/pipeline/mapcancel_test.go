package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/pipeline"
)

// slowMap is a stream map whose expression runs close to its step budget
// (SPEC §4.1 bounds it, not its time): 680,000 steps (some 60 ms) a record.
const slowMap = `{"batch_size_rows": 1, "max_parallelism": 1, "stream_maps": {"b": {"n": "len([i for i in range(40000) if i % 7 == 3])"}}}`

// onState calls f (on the writing goroutine, the coordinator) when the
// STATE line want is written.
type onState struct {
	mu    sync.Mutex
	lines []string
	want  string
	f     func()
}

func (w *onState) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		w.lines = append(w.lines, l)
		if l == w.want && w.f != nil {
			w.f()
			w.f = nil
		}
	}
	return len(b), nil
}

func (w *onState) states() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string{}, w.lines...)
}

// A first signal (Options.Stop) or the hard stop (the context) cancels a
// stream map's Starlark evaluation at once (starlark.Thread.Cancel):
// input is not read further, what was read before commits, the true
// state is written, and Run returns ErrStopped (exit 128+N) or the
// context's error. The signal comes when STATE 1 is written, which the
// coordinator does right before it maps the first record of b (with
// max_parallelism 1 it waits for a's batch at b's SCHEMA); the run must
// then not map, let alone load, any of b's records. Before the fix every
// record of the chunk was mapped (some seconds each, minutes for the
// input) and loaded. The signal is given on the coordinator itself, before
// the watchMaps goroutine can have cancelled the Mapper: the run must see
// it before the next evaluation (once, 1 run in 100, it did not, and b's
// first records were mapped and loaded; more often under GOGC=1 and
// GOMAXPROCS=1).
func TestSignalCancelsStreamMapEvaluation(t *testing.T) {
	schemaA := strings.Replace(schemaLine, `"stream":"s"`, `"stream":"a"`, 1)
	schemaB := strings.Replace(schemaLine, `"stream":"s"`, `"stream":"b"`, 1)
	lines := []string{schemaA, strings.Replace(rec(1, "x"), `"stream":"s"`, `"stream":"a"`, 1), state(1), schemaB}
	for i := 0; i < 400; i++ {
		lines = append(lines, strings.Replace(rec(i, "y"), `"stream":"s"`, `"stream":"b"`, 1))
	}
	lines = append(lines, state(2))
	for _, hard := range []bool{false, true} {
		t.Run(fmt.Sprintf("hard stop %v", hard), func(t *testing.T) {
			stop := make(chan struct{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			out := &onState{want: `{"n":1}`, f: func() {
				if hard {
					cancel()
				} else {
					close(stop)
				}
			}}
			eng := newEngine()
			done := make(chan error, 1)
			go func() {
				done <- pipeline.Run(ctx, pipeline.Options{Config: loadConfig(t, slowMap), Engine: eng,
					Server: testServer,
					Input:  strings.NewReader(input(lines...)), StateOut: out, Stop: stop})
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(60 * time.Second):
				t.Fatal("a signal did not stop a run inside a long stream-map evaluation")
			}
			switch {
			case hard && !errors.Is(err, context.Canceled):
				t.Fatalf("err %v, want the context's", err)
			case !hard && !errors.Is(err, pipeline.ErrStopped):
				t.Fatalf("err %v, want ErrStopped", err)
			}
			if got := strings.Join(out.states(), " "); got != `{"n":1}` {
				t.Errorf("states %q, want only {\"n\":1}", got)
			}
			if ids(eng, "A") != "1" || ids(eng, "B") != "" {
				t.Errorf("rows: a %q, b %q; want a 1 and nothing of b", ids(eng, "A"), ids(eng, "B"))
			}
		})
	}
}
