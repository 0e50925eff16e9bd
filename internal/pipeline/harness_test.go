package pipeline_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
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
