package sim

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"testing/synctest"
)

// Attack (h-atk2) on the incremental frontier (pipeline/frontier.go) and
// the flushLargest heap (pipeline/largest.go): the seeded simulation's
// trial, crash and resume machinery on inputs with many interleaved
// streams, small max_buffered_bytes (flushes chosen by the heap),
// batch_size_rows and batch_size_bytes, flush_all_streams, and up to 4
// sessions. Generate makes at most 3 streams and never sets the byte
// limits.

// generateWide is Generate with many streams, long inputs and memory
// limits that make flushLargest choose what flushes.
func generateWide(seed uint64) *Scenario {
	r := rand.New(rand.NewPCG(seed^0xa77ac2, seed))
	sc := &Scenario{Seed: seed, Fail: -1}
	sc.Truncate = r.IntN(15) == 0
	failKind := ""
	switch x := r.IntN(12); {
	case x == 0:
		failKind = "evolution"
	case x == 1:
		failKind = "key"
	}
	n := 3 + r.IntN(25)
	for i := 0; i < n; i++ {
		st := StreamSpec{Name: fmt.Sprintf("s%d", i)}
		switch x := r.IntN(10); {
		case x < 6:
			st.Method = Upsert
		case x < 8:
			st.Method = Append
		case x < 9:
			st.Method = Overwrite
		default:
			st.Method, st.Keyless = Upsert, true
		}
		st.Hard = r.IntN(3) == 0
		st.Versioned = !sc.Truncate && st.Method != Overwrite && r.IntN(3) == 0
		sc.Streams = append(sc.Streams, st)
	}
	historyStreams(seed, sc)
	overrides := map[string]any{}
	for _, st := range sc.Streams {
		overrides[st.Name] = map[string]any{"load_method": string(st.Method), "hard_delete": st.Hard}
	}
	maxBuf := []int{1, 150, 400, 1000, 3000, 20000}[r.IntN(6)]
	sc.Settings = map[string]any{
		"batch_size_rows":          1 + r.IntN(30),
		"max_parallelism":          1 + r.IntN(4),
		"batch_wait_limit_seconds": 86400,
		"truncate_before_load":     sc.Truncate,
		"stream_overrides":         overrides,
		"max_buffered_bytes":       maxBuf,
		"flush_all_streams":        r.IntN(5) == 0,
	}
	if r.IntN(3) == 0 {
		sc.Settings["batch_size_bytes"] = 200 + r.IntN(2000)
	}
	if failKind == "evolution" {
		sc.Settings["schema_evolution"] = "fail"
	}
	addPrune(sc, overrides)
	g := &gen{r: r, sc: sc, cur: map[string]*Schema{}, version: map[string]int64{}, records: map[string]int{}}
	steps := 60 + r.IntN(200)
	failAt := -1
	if failKind != "" {
		failAt = steps/3 + r.IntN(steps/3+1)
	}
	for i := 0; i < steps; i++ {
		if i == failAt && g.failure(failKind) {
			failAt = -1
		}
		st := sc.Streams[r.IntN(len(sc.Streams))]
		switch x := r.IntN(100); {
		case x < 62:
			g.record(st)
		case x < 80:
			g.state()
		case x < 88:
			g.widen(st.Name)
		case x < 95 && st.Versioned:
			g.activate(st.Name, r.IntN(2) == 0)
		default:
			g.record(st)
		}
	}
	if r.IntN(2) == 0 || sc.anyReset() {
		g.state()
	}
	markRefused(sc)
	return sc
}

// runScenario is Run for a scenario made elsewhere.
func runScenario(sc *Scenario, opts Options) *Result {
	seed := sc.Seed
	res := &Result{Seed: seed, Scenario: sc}
	t := &trial{res: res, sc: sc, opts: opts, sent: map[int]int{},
		r: rand.New(rand.NewPCG(seed^0x5151, seed))}
	if err := t.setup(); err != nil {
		res.failf("setup: %v", err)
		return res
	}
	res.FakeOracle = opts.FakeOracle && !sc.rejecting()
	t.probe()
	t.inProcess()
	return res
}

// TestAttackWideSimulation runs generateWide's seeds in process (embedded
// engine; every fifth on the fake Oracle), scheduled as TestSimulation's.
//
//	TARGET_ORACLE_ATTACK_WIDE_SEEDS=2000 go test ./internal/sim -run TestAttackWideSimulation -v
func TestAttackWideSimulation(t *testing.T) {
	n := 40
	if v := os.Getenv("TARGET_ORACLE_ATTACK_WIDE_SEEDS"); v != "" {
		fmt.Sscan(v, &n)
	}
	first := uint64(1)
	if v := os.Getenv("TARGET_ORACLE_ATTACK_WIDE_FIRST"); v != "" {
		fmt.Sscan(v, &first)
	}
	failed := 0
	for s := first; s < first+uint64(n); s++ {
		sc := generateWide(s)
		dir := trialDir(t)
		var res *Result
		synctest.Test(t, func(*testing.T) {
			res = runScenario(sc, Options{Dir: dir, Scheduled: true, FakeOracle: s%5 == 2})
		})
		os.RemoveAll(dir)
		if len(res.Failures) > 0 {
			failed++
			if failed <= 2 {
				t.Errorf("wide seed %d:\n%s", s, res.Report())
			} else {
				t.Errorf("wide seed %d fails", s)
			}
		}
	}
}
