package streammap

import (
	"errors"
	"runtime"
	"testing"
)

// Cancel stops an evaluation in the middle (starlark.Thread.Cancel, seen
// at the next step), from another goroutine, and every Apply after it
// returns ErrCancelled without evaluating. The expression would take
// 680,000 steps; the test waits (without a clock) until the evaluation is
// running, cancels, and checks it stopped short of them.
func TestCancelStopsARunningEvaluation(t *testing.T) {
	m, err := Compile(map[string]any{"b": map[string]any{"n": "len([i for i in range(40000) if i % 7 == 3])"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sms, err := m.Schema("b", []byte(`{"type":"object","properties":{"id":{"type":"integer"}}}`), []string{"id"})
	if err != nil {
		t.Fatal(err)
	}
	sm := sms[0]
	done := make(chan error, 1)
	go func() {
		_, _, err := sm.Apply([]byte(`{"id":1}`))
		done <- err
	}()
	for m.stop.running.Load() == nil {
		runtime.Gosched()
	}
	m.Cancel()
	err = <-done
	if !errors.Is(err, ErrCancelled) {
		t.Fatalf("err %v, want ErrCancelled", err)
	}
	if sm.thread.Steps >= 680000 {
		t.Errorf("the evaluation ran to its end (%d steps) after Cancel", sm.thread.Steps)
	}
	if _, _, err := sm.Apply([]byte(`{"id":2}`)); !errors.Is(err, ErrCancelled) {
		t.Fatalf("Apply after Cancel: %v, want ErrCancelled", err)
	}
	var ee *EvalError
	if errors.As(err, &ee) {
		t.Errorf("a cancellation is reported as the record's fault: %v", err)
	}
}
