package oracle_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/pipeline"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/testkit"
)

// fixedNow is the clock of every run (pipeline, embedded engine and fake
// server), so that metadata columns compare exactly.
var fixedNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func clock() time.Time { return fixedNow }

const schemaName = "DRY_RUN"

// rig is a fake server with the Oracle engine in front of it.
type rig struct {
	db  *fake.DB
	eng *oracle.Engine
}

func instant(context.Context, time.Duration) error { return nil }

func newRig(t testing.TB, o oracle.Options, ro oraclesql.Options) *rig {
	t.Helper()
	db := fake.New(fake.Options{Schema: schemaName, Now: clock, MaxStringBytes: o.MaxStringBytes})
	return &rig{db: db, eng: newEngine(t, db, o, ro)}
}

// newEngine is an engine on db: through its Conn seam, or through go-ora
// and the wire peer when the tests run on the wire (route_test.go).
func newEngine(t testing.TB, db *fake.DB, o oracle.Options, ro oraclesql.Options) *oracle.Engine {
	t.Helper()
	if o.Sleep == nil {
		o.Sleep = instant
	}
	ro.ColumnComments = true
	dial := oracle.Dialer(db.Dial)
	if onWire() {
		dial = wireDialer(t, db, o)
	}
	return oracle.New(dial, oraclesql.New(ro), o)
}

func defaultRig(t testing.TB) *rig { return newRig(t, oracle.Options{}, oraclesql.Options{}) }

// loadConfig builds a Config from JSON settings (defaults for the rest).
func loadConfig(t testing.TB, settings string) *config.Config {
	t.Helper()
	return testkit.Config(t, settings)
}

// run runs input through the pipeline on eng and returns the state lines.
func run(t testing.TB, eng engine.Engine, settings, input string) ([]string, error) {
	t.Helper()
	var out strings.Builder
	err := pipeline.Run(context.Background(), pipeline.Options{
		Config:   loadConfig(t, settings),
		Engine:   eng,
		Server:   pipeline.Server{DefaultSchema: schemaName, IdentifierMaxBytes: 128, VarcharMaxBytes: 4000},
		Input:    strings.NewReader(input),
		StateOut: &out,
		Now:      clock,
	})
	s := strings.TrimSuffix(out.String(), "\n")
	if s == "" {
		return nil, err
	}
	return strings.Split(s, "\n"), err
}

func newMemory() *memory.Engine {
	return memory.New(memory.Options{KeepRows: true, Now: clock})
}

// runMemory runs each input in turn on a fresh embedded engine and
// returns it with the states and error of the last input.
func runMemory(t testing.TB, settings string, inputs ...string) (*memory.Engine, []string, error) {
	t.Helper()
	m := newMemory()
	var states []string
	var err error
	for _, in := range inputs {
		states, err = run(t, m, settings, in)
	}
	return m, states, err
}

// runMetadata are the run-dependent metadata columns (SPEC §7.6).
var runMetadata = []string{"_SDC_RECEIVED_AT", "_SDC_BATCHED_AT", "_SDC_LOADED_AT", "_SDC_SEQUENCE", "_SDC_SYNC_STARTED_AT"}

// snapshot is a comparable text of tables: shape and rows.
type snapshot map[string]string

// memorySnapshot reads the embedded engine's tables.
func memorySnapshot(m *memory.Engine, mask []string) snapshot {
	out := snapshot{}
	for q, t := range m.Tables() {
		out[q] = render(t, m.Rows(q), mask)
	}
	return out
}

// oracleSnapshot reads the fake server's tables through the engine's
// Describe (so the catalog mapping is compared too).
func oracleSnapshot(t testing.TB, r *rig, mask []string) snapshot {
	t.Helper()
	out := snapshot{}
	for _, q := range r.db.Tables() {
		schema, name, _ := strings.Cut(q, ".")
		tt, err := r.eng.Describe(context.Background(), schema, name)
		if err != nil {
			t.Fatalf("describe %s: %v", q, err)
		}
		out[q] = render(tt, r.db.Rows(q), mask)
	}
	return out
}

func render(t *table.Table, rows []map[string]string, mask []string) string {
	var b strings.Builder
	for _, c := range t.Columns {
		fmt.Fprintf(&b, "%s %s nullable=%v\n", c.Name, c.Type, c.Nullable)
	}
	fmt.Fprintf(&b, "PK %v\n", t.PrimaryKey)
	lines := make([]string, 0, len(rows))
	for _, r := range rows {
		keys := make([]string, 0, len(r))
		for k := range r {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var l strings.Builder
		for _, k := range keys {
			v := r[k]
			if contains(mask, k) {
				v = "*"
			}
			if v != "" {
				fmt.Fprintf(&l, "%s=%q ", k, v)
			}
		}
		lines = append(lines, l.String())
	}
	sort.Strings(lines)
	b.WriteString(strings.Join(lines, "\n"))
	return b.String()
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// compare reports every difference between two snapshots.
func compare(t testing.TB, got, want snapshot) {
	t.Helper()
	for q, w := range want {
		g, ok := got[q]
		switch {
		case !ok:
			t.Errorf("table %s missing on the Oracle engine", q)
		case g != w:
			t.Errorf("table %s differs:\n--- oracle\n%s\n--- embedded\n%s", q, g, w)
		}
	}
	for q := range got {
		if _, ok := want[q]; !ok {
			t.Errorf("table %s only on the Oracle engine", q)
		}
	}
}
