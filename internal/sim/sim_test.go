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
	seedFlag  = flag.Int64("seed", -1, "run only this seed")
	seedsFlag = flag.Int("seeds", 300, "number of seeds")
	firstFlag = flag.Uint64("first", 1, "first seed")
)

// TestSimulation runs the seeded simulation: go test ./internal/sim -run TestSimulation -seeds 10000.
func TestSimulation(t *testing.T) {
	testAvoid()
	first, n := *firstFlag, uint64(*seedsFlag)
	if *seedFlag >= 0 {
		first, n = uint64(*seedFlag), 1
	}
	var failed []uint64
	start := time.Now()
	for s := first; s < first+n; s++ {
		res := Run(s, Options{Dir: t.TempDir(), Binary: binary, Subprocess: *subFlag})
		if len(res.Failures) > 0 {
			failed = append(failed, s)
			if len(failed) <= 5 || *seedFlag >= 0 {
				t.Errorf("%s  reproduce: go test ./internal/sim -run TestSimulation -seed %d -v", res.Report(), s)
			}
		}
	}
	t.Logf("%d seeds in %v; failing: %v", n, time.Since(start), failed)
	if len(failed) > 0 {
		t.Errorf("%d of %d seeds failed: %v", len(failed), n, failed)
	}
	_ = fmt.Sprint
}

var dumpFlag = flag.String("dump", "", "with -seed: write the seed's input.singer and config.json to this directory")

// TestDumpSeed writes a seed's input and settings for a run of the binary.
func TestDumpSeed(t *testing.T) {
	if *dumpFlag == "" || *seedFlag < 0 {
		t.Skip("needs -seed and -dump")
	}
	testAvoid()
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

// TestSummary prints each failing seed's first failure (-summary).
func TestSummary(t *testing.T) {
	if !*summaryFlag {
		t.Skip("needs -summary")
	}
	testAvoid()
	for s := *firstFlag; s < *firstFlag+uint64(*seedsFlag); s++ {
		res := Run(s, Options{Dir: t.TempDir(), Binary: binary, Subprocess: *subFlag})
		if len(res.Failures) > 0 {
			var plans []string
			for _, r := range res.Runs {
				plans = append(plans, r.Plan.String())
			}
			t.Logf("seed %d [%s] subprocess=%v plans %v: %s", s, Classify(res), res.Subprocess, plans, res.Failures[0])
		}
	}
}

var summaryFlag = flag.Bool("summary", false, "TestSummary: list failing seeds")

var avoidFlag = flag.String("avoid", "", "comma-separated generator parts to leave out (see Avoid): append-hard,truncate,failing,parallel")

func init() {
	// Flags are parsed before tests run; Avoid is read by Generate.
	testAvoid = func() {
		for _, a := range strings.Split(*avoidFlag, ",") {
			if a != "" {
				Avoid[a] = true
			}
		}
	}
}

var testAvoid func()

var subFlag = flag.Bool("subprocess", false, "run every seed as a subprocess (default: one in SubprocessShare)")
