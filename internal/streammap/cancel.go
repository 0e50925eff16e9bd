package streammap

import (
	"errors"
	"sync/atomic"

	"go.starlark.net/starlark"
)

// ErrCancelled is what StreamMap.Apply returns once its Mapper was
// cancelled (Mapper.Cancel): the evaluation running then stops at its
// next Starlark step, and no later one starts. It is not an *EvalError:
// the record is not at fault.
var ErrCancelled = errors.New("stream map evaluation cancelled: the run is stopping")

// stopper lets another goroutine stop the evaluation running on a
// Mapper's stream maps (SPEC §7.5: a signal stops input at once, also in
// the middle of a long expression). One coordinator runs the stream maps
// of a Mapper, so at most one thread is running at a time.
type stopper struct {
	done    atomic.Bool
	running atomic.Pointer[starlark.Thread]
}

// Cancel stops the evaluation running on m's stream maps, if any, and
// makes every later Apply return ErrCancelled. It is safe to call from any
// goroutine, more than once.
func (m *Mapper) Cancel() {
	if m == nil || m.stop == nil {
		return
	}
	m.stop.done.Store(true)
	if t := m.stop.running.Load(); t != nil {
		t.Cancel(ErrCancelled.Error())
	}
}

// CancelOn calls Cancel when any of the channels is closed; nil channels
// never are. It returns then, so the caller closes one at the end of
// the run to end the goroutine it runs on.
func (m *Mapper) CancelOn(a, b <-chan struct{}) {
	select {
	case <-a:
	case <-b:
	}
	m.Cancel()
}

// enter marks t as running, or reports that the Mapper was cancelled.
// Cancel sets done before it reads running, and enter stores running
// before it reads done: either Cancel sees t, or enter sees done.
func (s *stopper) enter(t *starlark.Thread) error {
	s.running.Store(t)
	if s.done.Load() {
		s.running.Store(nil)
		return ErrCancelled
	}
	return nil
}

// leave ends what enter began; err is the evaluation's, which a
// cancellation turns into ErrCancelled (the thread's own error says
// "cancelled" like the step limit's does).
func (s *stopper) leave(err error) error {
	s.running.Store(nil)
	if err != nil && s.done.Load() {
		return ErrCancelled
	}
	return err
}
