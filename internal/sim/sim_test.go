package sim

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var (
	simFlag     = flag.Bool("sim", false, "TestSimulation: run the seeds (-seeds N from -first F, or -seed S)")
	seedFlag    = flag.Int64("seed", -1, "run only this seed")
	seedsFlag   = flag.Int("seeds", 300, "number of seeds")
	firstFlag   = flag.Uint64("first", 1, "first seed")
	subFlag     = flag.Bool("subprocess", false, "run every seed as a subprocess (default: one seed in SubprocessShare)")
	avoidFlag   = flag.String("avoid", "", "comma-separated generator parts to leave out (see Avoid): append-hard,truncate,failing,parallel,prune")
	dumpFlag    = flag.String("dump", "", "TestDumpSeed: write the seed's input.singer and config.json to this directory")
	fakeFlag    = flag.Bool("fake", false, "run every in-process seed on the Oracle engine and internal/oracle/fake (default: one seed in FakeShare)")
	summaryFlag = flag.Bool("summary", false, "TestSummary: list failing seeds with their likely cause")
)

func setAvoid(list string) func() {
	old := Avoid
	Avoid = map[string]bool{}
	for _, a := range strings.Split(list, ",") {
		if a != "" {
			Avoid[a] = true
		}
	}
	return func() { Avoid = old }
}

// seeds runs seeds and reports each failing one with the command that
// reproduces it.
func seeds(t *testing.T, first, n uint64, avoid string, sub bool) {
	defer setAvoid(avoid)()
	var failed []uint64
	start := time.Now()
	var slowest time.Duration
	for s := first; s < first+n; s++ {
		t0 := time.Now()
		res := Run(s, Options{Dir: t.TempDir(), Binary: binaryFor(t), Subprocess: sub, FakeOracle: *fakeFlag})
		if d := time.Since(t0); d > slowest {
			slowest = d
		}
		if len(res.Failures) == 0 {
			continue
		}
		failed = append(failed, s)
		if len(failed) <= 3 || n == 1 {
			cmd := fmt.Sprintf("go test ./internal/sim -run TestSimulation -sim -seed %d -v", s)
			if avoid != "" {
				cmd += " -avoid " + avoid
			}
			if sub {
				cmd += " -subprocess"
			}
			t.Errorf("%s  reproduce: %s", res.Report(), cmd)
		}
	}
	t.Logf("%d seeds in %v (slowest trial %v); failing: %v", n, time.Since(start).Round(time.Millisecond), slowest.Round(time.Millisecond), failed)
	if len(failed) > 0 {
		t.Errorf("%d of %d seeds failed: %v", len(failed), n, failed)
	}
}

// TestSimulation is the seeded simulation of the state contract (SPEC
// §12). It runs with -sim (docs/guarantees.md has the commands):
//
//	go test ./internal/sim -run TestSimulation -sim                 # 300 seeds
//	go test ./internal/sim -run TestSimulation -sim -seeds 10000 -timeout 60m
//	go test ./internal/sim -run TestSimulation -sim -seed 25 -v     # one seed
func TestSimulation(t *testing.T) {
	if !*simFlag {
		t.Skip("run with -sim (issue 13: seeds fail until its items 1-3 are fixed; see docs/guarantees.md)")
	}
	first, n := *firstFlag, uint64(*seedsFlag)
	if *seedFlag >= 0 {
		first, n = uint64(*seedFlag), 1
	}
	seeds(t, first, n, *avoidFlag, *subFlag)
}

// TestSimulationWithoutKnownBugs runs in every `go test ./...`: seeds whose
// inputs leave out what triggers the bugs known today (issue 13 items 1-3:
// max_parallelism > 1, truncate_before_load, inputs that must fail; and
// append-only streams with hard_delete, whose batches drop all but a key's
// last record). Once those are fixed, TestSimulation (all of it) belongs in
// .ci/run and this test goes.
func TestSimulationWithoutKnownBugs(t *testing.T) {
	if *simFlag {
		t.Skip("TestSimulation runs instead")
	}
	seeds(t, 1, 60, "append-hard,truncate,failing,parallel", false)
}

// The generator is a function of the seed: a seed replays its input.
func TestGenerateIsDeterministic(t *testing.T) {
	for s := uint64(1); s < 50; s++ {
		a, b := Generate(s), Generate(s)
		if Input(a.Msgs) != Input(b.Msgs) || fmt.Sprint(a.Settings) != fmt.Sprint(b.Settings) {
			t.Fatalf("seed %d: two inputs", s)
		}
	}
	if Input(Generate(1).Msgs) == Input(Generate(2).Msgs) {
		t.Fatal("seeds 1 and 2 give the same input")
	}
}

// TestDumpSeed writes a seed's input and settings, to run the binary on:
// go test ./internal/sim -run TestDumpSeed -seed 25 -dump /tmp/seed25
// target-oracle --dry-run --config /tmp/seed25/config.json --input /tmp/seed25/input.singer
func TestDumpSeed(t *testing.T) {
	if *dumpFlag == "" || *seedFlag < 0 {
		t.Skip("needs -seed and -dump")
	}
	defer setAvoid(*avoidFlag)()
	sc := Generate(uint64(*seedFlag))
	if err := os.MkdirAll(*dumpFlag, 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(sc.Settings)
	if err := os.WriteFile(filepath.Join(*dumpFlag, "config.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*dumpFlag, "input.singer"), []byte(Input(sc.Msgs)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSummary lists each failing seed with its likely cause (Classify):
// go test ./internal/sim -run TestSummary -summary -seeds 300 -v
func TestSummary(t *testing.T) {
	if !*summaryFlag {
		t.Skip("needs -summary")
	}
	defer setAvoid(*avoidFlag)()
	counts := map[string][]uint64{}
	for s := *firstFlag; s < *firstFlag+uint64(*seedsFlag); s++ {
		res := Run(s, Options{Dir: t.TempDir(), Binary: binaryFor(t), Subprocess: *subFlag, FakeOracle: *fakeFlag})
		if len(res.Failures) == 0 {
			continue
		}
		c := Classify(res)
		counts[c] = append(counts[c], s)
		var plans []string
		for _, r := range res.Runs {
			plans = append(plans, r.Plan.String())
		}
		t.Logf("seed %d [%s] subprocess=%v plans %v: %s", s, c, res.Subprocess, plans, res.Failures[0])
	}
	for c, ss := range counts {
		t.Logf("%-60s %3d seeds: %v", c, len(ss), ss)
	}
}
