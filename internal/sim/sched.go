package sim

import (
	"math/rand/v2"
	"sort"
	"sync"
	"testing/synctest"
)

// A scheduler makes an in-process run replay identically, whatever else
// the machine runs: the run goes inside a synctest bubble (Options.Scheduled),
// so its timers follow a fake clock that moves only when every goroutine
// waits, and every engine call and state write passes a gate. Whenever
// every goroutine of the run waits (synctest.Wait), the scheduler opens one
// gate, chosen by the run's seeded source among the waiting ones in a
// fixed order, or delivers a signal that became due. One goroutine moves at
// a time between gates, so the order of engine calls across workers, of
// commits and state writes, and which select case the coordinator takes,
// are functions of the seed; and a seed explores its own interleaving of
// the workers (max_parallelism > 1).
type scheduler struct {
	r    *rand.Rand
	wake chan struct{} // a gate or a due step arrived

	mu      sync.Mutex
	pending []*gate
	due     []func()
	// clash names a gate two goroutines waited at together: their order
	// was then the Go scheduler's, not the seed's (the trial fails).
	clash string
}

type gate struct {
	name string // kind and table or stream: waiting gates never share one
	open chan struct{}
}

func newScheduler(seed uint64, run int) *scheduler {
	return &scheduler{r: rand.New(rand.NewPCG(seed, 0x5eed0000+uint64(run))), wake: make(chan struct{}, 1)}
}

// pass waits at the gate name until the scheduler opens it.
func (s *scheduler) pass(name string) {
	g := &gate{name: name, open: make(chan struct{})}
	s.mu.Lock()
	s.pending = append(s.pending, g)
	s.mu.Unlock()
	s.poke()
	<-g.open
}

// later runs f as a step of its own once every goroutine waits: a signal
// delivered there finds the coordinator in one select with one ready case.
func (s *scheduler) later(f func()) {
	s.mu.Lock()
	s.due = append(s.due, f)
	s.mu.Unlock()
	s.poke()
}

func (s *scheduler) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// clashed is the gate name two goroutines waited at together, if any.
func (s *scheduler) clashed() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clash
}

// loop schedules until stop is closed; it runs inside the run's bubble.
func (s *scheduler) loop(stop <-chan struct{}, exited chan<- struct{}) {
	defer close(exited)
	for {
		synctest.Wait()
		select {
		case <-stop:
			return
		default:
		}
		s.mu.Lock()
		if len(s.due) > 0 {
			f := s.due[0]
			s.due = s.due[1:]
			s.mu.Unlock()
			f()
			continue
		}
		if len(s.pending) == 0 {
			s.mu.Unlock()
			// Nothing to open: wait, so that the fake clock moves on to
			// the next timer (a held call, a ticker, a shutdown deadline).
			select {
			case <-s.wake:
			case <-stop:
				return
			}
			continue
		}
		sort.SliceStable(s.pending, func(i, j int) bool { return s.pending[i].name < s.pending[j].name })
		for k := 1; k < len(s.pending) && s.clash == ""; k++ {
			if s.pending[k].name == s.pending[k-1].name {
				s.clash = s.pending[k].name
			}
		}
		i := s.r.IntN(len(s.pending))
		g := s.pending[i]
		s.pending = append(s.pending[:i], s.pending[i+1:]...)
		s.mu.Unlock()
		close(g.open)
	}
}
