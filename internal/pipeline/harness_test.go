package pipeline_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/conformance"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/pipeline"
)

// fixedNow is the clock of every test run, so that metadata columns are
// reproducible.
var fixedNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func needConformance(t testing.TB) string { return conformance.Dir(t) }

// loadConfig builds a Config from JSON settings (defaults for the rest).
func loadConfig(t testing.TB, settings string) *config.Config {
	t.Helper()
	args := []string{}
	if settings != "" {
		p := filepath.Join(t.TempDir(), "config.json")
		if err := os.WriteFile(p, []byte(settings), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	cfg, _, err := config.Load(config.Sources{ConfigArgs: args})
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	return cfg
}

// testServer is the server of every test run: the facts the embedded
// engine's --dry-run assumes.
var testServer = pipeline.Server{DefaultSchema: "DRY_RUN", IdentifierMaxBytes: 128, VarcharMaxBytes: 4000}

// runOptions are the options of a test run of input on eng: testServer,
// the fixed clock, the state lines written to out. Callers add the rest
// (Log, Stop, ...).
func runOptions(cfg *config.Config, eng *memory.Engine, input string, out io.Writer) pipeline.Options {
	return pipeline.Options{
		Config:   cfg,
		Engine:   eng,
		Server:   testServer,
		Input:    strings.NewReader(input),
		StateOut: out,
		Now:      func() time.Time { return fixedNow },
	}
}

// run runs input through the pipeline on eng and returns the state lines.
func run(t testing.TB, eng *memory.Engine, cfg *config.Config, input string) ([]string, error) {
	t.Helper()
	var out strings.Builder
	err := pipeline.Run(context.Background(), runOptions(cfg, eng, input, &out))
	return lines(out.String()), err
}

func lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func newEngine() *memory.Engine {
	return memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }})
}

// TestWorkersEndWithTheRun: the worker goroutines that run jobs live for
// the run (flush.go, worker) and are reused from job to job, not made
// one a job, and are all gone once Run returns.
func TestWorkersEndWithTheRun(t *testing.T) {
	var in strings.Builder
	for s := range 20 {
		fmt.Fprintf(&in, `{"type":"SCHEMA","stream":"s%d","schema":{"type":"object","properties":{"id":{"type":"integer"}}},"key_properties":["id"]}`+"\n", s)
	}
	for i := range 400 {
		fmt.Fprintf(&in, `{"type":"RECORD","stream":"s%d","record":{"id":%d}}`+"\n", i%20, i)
	}
	created := func() uint64 {
		m := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
		metrics.Read(m)
		return m[0].Value.Uint64()
	}
	before, made := runtime.NumGoroutine(), created()
	eng := newEngine()
	cfg := loadConfig(t, `{"batch_size_rows":3,"max_parallelism":2}`)
	if _, err := run(t, eng, cfg, in.String()); err != nil {
		t.Fatal(err)
	}
	made = created() - made
	if got := len(eng.Rows("DRY_RUN.S0")); got != 20 {
		t.Fatalf("S0 has %d rows, want 20", got)
	}
	// 140 batches ran: a goroutine each would be 140 made.
	if made > 30 {
		t.Errorf("%d goroutines made during the run of 140 batches: workers are not reused", made)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the run, %d before: workers outlive it", n, before)
	}
}
