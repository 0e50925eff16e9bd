package benchmark

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/connect"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/pipeline"
	"github.com/target-oracle/target-oracle/internal/testkit"
)

// fakeRun builds a benchmark on the fake Oracle as the CLI builds it; the
// round trips are the fake's calls (each one request and its reply).
func fakeRun(t *testing.T, settings string, rows int, quotas []connect.Quota) (*fake.DB, Options) {
	t.Helper()
	cfg := testkit.Config(t, settings)
	db := fake.New(fake.Options{Schema: "LOADER"})
	facts := testkit.Server19("LOADER").Resolve(cfg)
	eng := oracle.New(db.Dial, oraclesql.New(oraclesql.Options{}), oracle.Options{Sleep: func(context.Context, time.Duration) error { return nil }})
	calls := func() int64 {
		var n int64
		for op := fake.OpDial; op <= fake.OpLock; op++ {
			n += int64(db.Calls(op))
		}
		return n
	}
	return db, Options{
		Config: cfg, Facts: facts, Engine: eng, RoundTrips: calls, Dial: db.Dial, Rows: rows,
		Server: pipeline.Server{DefaultSchema: "LOADER", UserSchema: "LOADER", IdentifierMaxBytes: 128, VarcharMaxBytes: 4000},
		Check: func(context.Context) (connect.Report, error) {
			return connect.Evaluate(cfg, facts, connect.Access{User: "LOADER", Schema: "LOADER", SchemaExists: true,
				Privileges: []string{"CREATE SESSION", "CREATE TABLE"}, UserTablespace: "USERS", UserQuotas: quotas}), nil
		},
	}
}

var unlimited = []connect.Quota{{Tablespace: "USERS", MaxBytes: -1}}

// TestBenchmarkOnTheFake: every case of SPEC §2 runs with one stream and
// with max_parallelism streams, into prefixed scratch tables that are all
// dropped; the figures count the rows and the batches.
func TestBenchmarkOnTheFake(t *testing.T) {
	db, o := fakeRun(t, `{"max_parallelism": 2, "batch_size_rows": 500}`, 2000, unlimited)
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("report not OK: %+v", rep)
	}
	want := map[string]int{"append": 2000, "upsert": 2000, "text-10kb": 20, "lob-100kb": 2}
	if len(rep.Figures) != 8 {
		t.Fatalf("%d figures, want 4 shapes × (1 and 2 streams)", len(rep.Figures))
	}
	for _, f := range rep.Figures {
		if f.Rows != want[f.Case] || f.Batches == 0 || f.RoundTrips == 0 || f.Bytes == 0 || f.Error != "" {
			t.Errorf("figure %+v", f)
		}
		if f.Case == "append" && f.Streams == 1 && f.Batches != 4 {
			t.Errorf("append: %d batches of 500 rows for 2000 rows, want 4", f.Batches)
		}
	}
	if len(rep.Tables) != 12 || len(rep.Dropped) != 12 {
		t.Errorf("tables %d, dropped %d: want 12 and 12", len(rep.Tables), len(rep.Dropped))
	}
	for _, q := range db.Tables() {
		t.Errorf("table left: %s", q)
	}
	for _, n := range rep.Tables {
		if !scratchName.MatchString(n) {
			t.Errorf("table %s is not a benchmark scratch name", n)
		}
	}
	text, js := testkit.Reports(t, rep.Write)
	if !strings.Contains(text, "round trips") || !strings.Contains(text, "volume: ") {
		t.Errorf("text report:\n%s", text)
	}
	var decoded struct {
		OK      bool
		Figures []Figure
	}
	if err := json.Unmarshal(js, &decoded); err != nil || !decoded.OK || len(decoded.Figures) != 8 {
		t.Errorf("json report: %v %+v", err, decoded)
	}
}

// TestBenchmarkRoundTripsPerBatchAreConstant: twice the rows in twice the
// batches cost exactly a constant number of calls more per added batch
// (begin, one array INSERT, commit): no per-row statement (SPEC §10).
func TestBenchmarkRoundTripsPerBatchAreConstant(t *testing.T) {
	figure := func(rows int) Figure {
		_, o := fakeRun(t, `{"batch_size_rows": 500}`, rows, unlimited)
		rep, err := Run(context.Background(), o)
		if err != nil || !rep.OK() {
			t.Fatalf("rows %d: %v %+v", rows, err, rep)
		}
		return rep.Figures[0]
	}
	a, b := figure(2000), figure(4000)
	if a.Case != "append" || b.Batches != 2*a.Batches {
		t.Fatalf("batches %d and %d", a.Batches, b.Batches)
	}
	if per := float64(b.RoundTrips-a.RoundTrips) / float64(b.Batches-a.Batches); per != 3 {
		t.Errorf("%.2f calls per added batch of 500 rows, want 3 (begin, INSERT, commit)", per)
	}
}

// TestBenchmarkChecksQuotaFirst: a quota too small for the volume stops
// the run before anything is created.
func TestBenchmarkChecksQuotaFirst(t *testing.T) {
	db, o := fakeRun(t, `{}`, 200000, []connect.Quota{{Tablespace: "USERS", Bytes: 0, MaxBytes: 10 << 20}})
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || !strings.Contains(strings.Join(rep.Errors, " "), "quota on USERS") {
		t.Fatalf("report %+v", rep)
	}
	if n := len(db.Statements()); n != 0 {
		t.Errorf("%d statements ran before the quota was checked", n)
	}
}

// stopTx cancels the run's context at the first INSERT, as a signal in the
// middle of a load does (the CLI cancels the context on SIGTERM).
type stopConn struct {
	oracle.Conn
	cancel context.CancelFunc
}

func (c stopConn) Begin(ctx context.Context) (oracle.Tx, error) {
	tx, err := c.Conn.Begin(ctx)
	return stopTx{Tx: tx, cancel: c.cancel}, err
}

type stopTx struct {
	oracle.Tx
	cancel context.CancelFunc
}

func (t stopTx) Exec(ctx context.Context, st *oraclesql.Statement, args []any) (int64, error) {
	if strings.HasPrefix(st.SQL, "INSERT ") {
		t.cancel()
	}
	return t.Tx.Exec(ctx, st, args)
}

// TestBenchmarkCleansUpAfterSignal: stopped in the middle of the first
// case, the run drops the tables it created and says it stopped.
func TestBenchmarkCleansUpAfterSignal(t *testing.T) {
	db, o := fakeRun(t, `{}`, 1000, unlimited)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o.Engine = oracle.New(func(ctx context.Context) (oracle.Conn, error) {
		c, err := db.Dial(ctx)
		if err != nil {
			return nil, err
		}
		return stopConn{Conn: c, cancel: cancel}, nil
	}, oraclesql.New(oraclesql.Options{}), oracle.Options{Sleep: func(context.Context, time.Duration) error { return nil }})
	rep, err := Run(ctx, o)
	if err == nil || !rep.Stopped || rep.OK() {
		t.Fatalf("err %v, report %+v: want a stopped run", err, rep)
	}
	if len(rep.Tables) == 0 || len(rep.Dropped) != len(rep.Tables) {
		t.Errorf("tables %v, dropped %v", rep.Tables, rep.Dropped)
	}
	for _, q := range db.Tables() {
		t.Errorf("table left: %s", q)
	}
}
