package oracle_test

// The real-Oracle suite (SPEC §12, notes/oracle-and-go-ora.md §8). Every
// TestOracleLive… test needs TARGET_ORACLE_TEST_DSN (an oracle:// URL of a
// dedicated test user) and skips without it; with
// TARGET_ORACLE_TEST_REQUIRE_ORACLE=1 (set in CI) a missing DSN fails
// instead, so that a broken CI setup cannot pass by skipping.
//
// The loader's own SQL comes from oraclesql and runs through the engine.
// The SQL written in this file is test-only: listing and dropping the
// test's tables, and reading them back in the stored-value forms of
// docs/types.md (DUMP for NUMBER, TO_CHAR with explicit formats for
// dates and times, JSON_SERIALIZE for native JSON), so that the readback
// depends on no session or NLS setting and on no go-ora number or time
// conversion.
//
// Each test uses its own table prefix TO_<random>_ and drops its tables
// (DROP TABLE … PURGE) when it ends.

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/target-oracle/target-oracle/internal/value"
	"github.com/target-oracle/target-oracle/internal/verify"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/conformance"
	"github.com/target-oracle/target-oracle/internal/connect"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/pipeline"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/testkit"
)

const liveSkipMessage = "TARGET_ORACLE_TEST_DSN is not set: the real-Oracle suite needs a database (see docs/oracle.md)"

// liveGate decides whether the real-Oracle suite runs: it returns the DSN,
// or why the test skips, or why it fails.
func liveGate(getenv func(string) string) (dsn, skip, fail string) {
	dsn = getenv("TARGET_ORACLE_TEST_DSN")
	switch {
	case dsn != "":
		return dsn, "", ""
	case getenv("TARGET_ORACLE_TEST_REQUIRE_ORACLE") == "1":
		return "", "", "TARGET_ORACLE_TEST_REQUIRE_ORACLE=1 but " + liveSkipMessage
	}
	return "", liveSkipMessage, ""
}

// liveDSN returns TARGET_ORACLE_TEST_DSN, or skips (or fails) the test.
func liveDSN(t *testing.T) string {
	t.Helper()
	dsn, skip, fail := liveGate(os.Getenv)
	if fail != "" {
		t.Fatal(fail)
	}
	if skip != "" {
		t.Skip(skip)
	}
	return dsn
}

// liveDB is a connected test server with a table prefix of its own.
type liveDB struct {
	dsn    string
	db     *sql.DB
	info   connect.ServerInfo
	facts  connect.Facts // resolved for the settings of the environment alone
	cfg    *config.Config
	prefix string // TO_<random>_
	log    *testkit.SyncBuffer
}

// Bounds of every wait, so that a dead server fails a test instead of
// hanging it.
const (
	caseWait    = 4 * time.Minute
	cleanupWait = 2 * time.Minute
)

func connectWait(cfg *config.Config) time.Duration {
	return time.Duration(cfg.ConnectTimeoutSeconds+60) * time.Second
}

// newLive connects, probes and resolves the settings of the environment
// (as `--config ENV` does), logs what the server is, and drops the test's
// tables when the test ends. It skips without TARGET_ORACLE_TEST_DSN.
func newLive(t *testing.T) *liveDB {
	t.Helper()
	dsn := liveDSN(t)
	cfg := liveConfig(t, dsn, "")
	ctx, cancel := context.WithTimeout(context.Background(), connectWait(cfg))
	defer cancel()
	db, err := connect.OpenWrapped(ctx, cfg, slog.Default(), nil)
	if err != nil {
		t.Fatalf("connect.OpenWrapped: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatalf("pin a session: %v", err)
	}
	info, err := connect.Probe(ctx, conn)
	conn.Close()
	if err != nil {
		t.Fatalf("connect.Probe: %v", err)
	}
	facts := info.Resolve(cfg)
	if len(facts.Problems) > 0 {
		t.Fatalf("the server cannot honour the settings of the environment: %v", facts.Problems)
	}
	l := &liveDB{dsn: dsn, db: db, info: info, facts: facts, cfg: cfg, prefix: newPrefix(t), log: &testkit.SyncBuffer{}}
	t.Cleanup(func() {
		if t.Failed() && l.log.Len() > 0 {
			t.Logf("target log:\n%s", l.log.String())
		}
	})
	t.Cleanup(func() { l.dropTables(t, l.prefix) })
	t.Logf("server %s (%s), COMPATIBLE %s, MAX_STRING_SIZE %s, charset %s/%s, schema %s as %s; "+
		"identifiers %d bytes, varchar %d bytes, boolean native %v, json native %v, national %v; prefix %s",
		info.Version, info.Edition, info.Compatible, info.MaxStringSize, info.DBCharset, info.NCharset,
		facts.DefaultSchema, info.SessionUser, facts.IdentifierMaxBytes, facts.VarcharMaxBytes,
		facts.BooleanNative, facts.JSONNative, facts.National, l.prefix)
	for _, w := range info.Warnings {
		t.Logf("probe warning: %s", w)
	}
	return l
}

// newPrefix is TO_ and six random letters and digits, then _.
func newPrefix(t *testing.T) string {
	t.Helper()
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return "TO_" + string(b[:]) + "_"
}

// liveConfig loads the settings as `--config FILE --config ENV` would,
// with TARGET_ORACLE_DSN set to dsn. Settings in the JSON text win over
// the environment's TARGET_ORACLE_* variables for the same keys (the
// workflow sets boolean_type, json_type and varchar_max_bytes there; a
// scenario that sets one of them means it).
func liveConfig(t testing.TB, dsn, settings string) *config.Config {
	t.Helper()
	var args []string
	drop := map[string]bool{"TARGET_ORACLE_DSN": true}
	if settings != "" {
		var keys map[string]any
		if err := json.Unmarshal([]byte(settings), &keys); err != nil {
			t.Fatalf("settings %s: %v", settings, err)
		}
		for k := range keys {
			drop[config.EnvPrefix+strings.ToUpper(k)] = true
		}
		p := filepath.Join(t.TempDir(), "config.json")
		if err := os.WriteFile(p, []byte(settings), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	env := []string{"TARGET_ORACLE_DSN=" + dsn}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !drop[k] {
			env = append(env, kv)
		}
	}
	cfg, _, err := config.Load(config.Sources{ConfigArgs: append(args, "ENV"), Environ: env, WorkDir: t.TempDir()})
	if err != nil {
		t.Fatalf("settings: %v", err)
	}
	return cfg
}

// serverOf is what the pipeline needs of the resolved facts (as the CLI
// builds it).
func serverOf(f connect.Facts) pipeline.Server {
	return pipeline.Server{
		DefaultSchema:      f.DefaultSchema,
		IdentifierMaxBytes: f.IdentifierMaxBytes,
		VarcharMaxBytes:    f.VarcharMaxBytes,
		BooleanNative:      f.BooleanNative,
		JSONNative:         f.JSONNative,
		NationalNeeded:     f.National,
	}
}

// engineFor is the Oracle engine as the CLI builds it for cfg and f.
func (l *liveDB) engineFor(cfg *config.Config, f connect.Facts, dial oracle.Dialer) *oracle.Engine {
	if dial == nil {
		dial = oracle.DialDB(l.db)
	}
	r := oraclesql.New(oraclesql.Options{
		Tablespace:         cfg.Tablespace,
		IndexTablespace:    cfg.IndexTablespace,
		LOBTablespace:      cfg.LOBTablespace,
		GrantSelectTo:      cfg.GrantSelectTo,
		ColumnComments:     cfg.ColumnComments,
		IdentifierMaxBytes: f.IdentifierMaxBytes,
	})
	return oracle.New(dial, r, oracle.Options{
		MaxStringBytes:        f.VarcharMaxBytes,
		Charset:               f.Server.DBCharset,
		NationalCharsetID:     oracle.CharsetID(f.Server.NCharset),
		StatementTimeout:      time.Duration(cfg.StatementTimeoutSeconds) * time.Second,
		DDLLockTimeoutSeconds: cfg.DDLLockTimeoutSeconds,
		Log:                   l.logger(),
	})
}

func (l *liveDB) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l.log, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// tables lists the test's tables whose names start with prefix.
// Test-only SQL.
func (l *liveDB) tables(ctx context.Context, prefix string) ([]string, error) {
	like := strings.NewReplacer(`\`, `\\`, "_", `\_`, "%", `\%`).Replace(prefix) + "%"
	rows, err := l.db.QueryContext(ctx,
		`SELECT TABLE_NAME FROM ALL_TABLES WHERE OWNER = :1 AND TABLE_NAME LIKE :2 ESCAPE '\' ORDER BY TABLE_NAME`,
		l.facts.DefaultSchema, like)
	if err != nil {
		return nil, fmt.Errorf("list tables %s%%: %w", prefix, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		out = append(out, name)
	}
	return out, rows.Err()
}

// dropTables drops every table of the prefix. Test-only SQL.
func (l *liveDB) dropTables(t *testing.T, prefix string) {
	ctx, cancel := context.WithTimeout(context.Background(), cleanupWait)
	defer cancel()
	names, err := l.tables(ctx, prefix)
	if err != nil {
		t.Errorf("cleanup: %v", err)
		return
	}
	for _, n := range names {
		q := table.Quote(l.facts.DefaultSchema) + "." + table.Quote(n)
		if _, err := l.db.ExecContext(ctx, "DROP TABLE "+q+" CASCADE CONSTRAINTS PURGE"); err != nil {
			t.Errorf("cleanup: drop %s: %v", q, err)
		}
	}
}

// count is SELECT COUNT(expr) FROM the table. Test-only SQL.
func (l *liveDB) count(ctx context.Context, tbl *table.Table, expr string) (int64, error) {
	var n int64
	err := l.db.QueryRowContext(ctx, "SELECT COUNT("+expr+") FROM "+table.Quote(tbl.Schema)+"."+table.Quote(tbl.Name)).Scan(&n)
	return n, err
}

// Readback.

// readExpr is the test-only SQL that reads column c as its stored text
// (docs/types.md) or as text readFixup turns into it.
func readExpr(c *table.Column) (string, error) {
	q := table.Quote(c.Name)
	switch c.Type.Kind {
	case table.KindNumber:
		// DUMP gives the NUMBER's bytes, decoded exactly by
		// numberFromDump: no NLS setting, no 64-character TO_CHAR limit,
		// no float.
		return "NVL2(" + q + ", DUMP(" + q + "), NULL)", nil
	case table.KindBoolean:
		return "CASE WHEN " + q + " THEN 'true' WHEN NOT " + q + " THEN 'false' END", nil
	case table.KindVarchar, table.KindClob:
		return q, nil
	case table.KindJSON:
		if c.Type.JSONAsClob {
			return q, nil
		}
		return "JSON_SERIALIZE(" + q + " RETURNING CLOB)", nil
	case table.KindDate:
		return "CASE WHEN " + q + " = TRUNC(" + q + ") THEN TO_CHAR(" + q + ", 'YYYY-MM-DD') ELSE TO_CHAR(" + q + `, 'YYYY-MM-DD"T"HH24:MI:SS') END`, nil
	case table.KindTimestamp:
		if c.Type.TZ {
			return "TO_CHAR(SYS_EXTRACT_UTC(" + q + `), 'YYYY-MM-DD"T"HH24:MI:SS.FF9')`, nil
		}
		return "TO_CHAR(" + q + `, 'YYYY-MM-DD"T"HH24:MI:SS.FF9')`, nil
	}
	return "", fmt.Errorf("column %s: type %v cannot be read back", c.Name, c.Type)
}

// readFixup turns what readExpr selected into the stored text.
func readFixup(c *table.Column, v string) (string, error) {
	if v == "" {
		return "", nil
	}
	switch c.Type.Kind {
	case table.KindNumber:
		return verify.NumberFromDump(v)
	case table.KindTimestamp:
		return utcText(v)
	}
	return v, nil
}

// utcText turns "YYYY-MM-DDTHH:MM:SS.fffffffff" into the stored form:
// trailing fraction zeros trimmed, Z appended.
func utcText(v string) (string, error) {
	head, frac, ok := strings.Cut(v, ".")
	if !ok || len(head) != len("2006-01-02T15:04:05") || len(frac) != 9 {
		return "", fmt.Errorf("timestamp text %q", v)
	}
	frac = strings.TrimRight(frac, "0")
	if frac != "" {
		head += "." + frac
	}
	return head + "Z", nil
}

// readTable reads every row of tbl as column name → stored text, ""
// for NULL. Test-only SQL.
func (l *liveDB) readTable(ctx context.Context, tbl *table.Table) ([]map[string]string, error) {
	exprs := make([]string, len(tbl.Columns))
	for i := range tbl.Columns {
		e, err := readExpr(&tbl.Columns[i])
		if err != nil {
			return nil, err
		}
		exprs[i] = e
	}
	q := "SELECT " + strings.Join(exprs, ", ") + " FROM " + table.Quote(tbl.Schema) + "." + table.Quote(tbl.Name)
	rows, err := l.db.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("read back %s: %w", tbl.QualifiedName(), err)
	}
	defer rows.Close()
	var out []map[string]string
	vals := make([]sql.NullString, len(exprs))
	ptrs := make([]any, len(exprs))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("read back %s: %w", tbl.QualifiedName(), err)
		}
		r := make(map[string]string, len(vals))
		for i := range vals {
			v, err := readFixup(&tbl.Columns[i], vals[i].String)
			if err != nil {
				return nil, fmt.Errorf("read back %s.%s: %w", tbl.QualifiedName(), tbl.Columns[i].Name, err)
			}
			r[tbl.Columns[i].Name] = v
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read back %s: %w", tbl.QualifiedName(), err)
	}
	return out, nil
}

// Comparison.

// shapeText is a table's columns, types, nullability and key.
func shapeText(t *table.Table) string {
	var b strings.Builder
	for _, c := range t.Columns {
		fmt.Fprintf(&b, "%s %s nullable=%v\n", c.Name, c.Type, c.Nullable)
	}
	fmt.Fprintf(&b, "PK %v", t.PrimaryKey)
	return b.String()
}

// rowLines renders rows for comparison: non-NULL values by column name,
// masked columns as *, native JSON normalized, long values as their
// length and hash.
func rowLines(t *table.Table, rows []map[string]string, mask []string) []string {
	names := make([]string, 0, len(t.Columns))
	for _, c := range t.Columns {
		names = append(names, c.Name)
	}
	sort.Strings(names)
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		var b strings.Builder
		for _, n := range names {
			v := r[n]
			if v == "" {
				continue
			}
			c := t.Column(n)
			switch {
			case slices.Contains(mask, n):
				v = "*"
			case c.Type.Kind == table.KindJSON && !c.Type.JSONAsClob:
				v = verify.NormalJSON(v)
			}
			fmt.Fprintf(&b, "%s=%s ", n, short(v))
		}
		out = append(out, b.String())
	}
	sort.Strings(out)
	return out
}

// short quotes v, or names its length and hash when it is long.
func short(v string) string {
	if len(v) <= 96 {
		return strconv.Quote(v)
	}
	sum := sha256.Sum256([]byte(v))
	return fmt.Sprintf("<%d bytes %q… sha256 %x>", len(v), v[:24], sum[:6])
}

// diffLines returns the lines only in a and only in b (as multisets).
func diffLines(a, b []string) (onlyA, onlyB []string) {
	n := map[string]int{}
	for _, s := range b {
		n[s]++
	}
	for _, s := range a {
		if n[s] > 0 {
			n[s]--
			continue
		}
		onlyA = append(onlyA, s)
	}
	for _, s := range b {
		if n[s] > 0 {
			n[s]--
			onlyB = append(onlyB, s)
		}
	}
	return onlyA, onlyB
}

func firstLines(s []string, n int) string {
	if len(s) > n {
		return strings.Join(s[:n], "\n") + fmt.Sprintf("\n… and %d more", len(s)-n)
	}
	return strings.Join(s, "\n")
}

// compareRows reports the rows that differ between Oracle and want.
func compareRows(t *testing.T, what string, got, want *table.Table, gotRows, wantRows []map[string]string, mask []string) {
	t.Helper()
	onlyGot, onlyWant := diffLines(rowLines(got, gotRows, mask), rowLines(want, wantRows, mask))
	if len(onlyGot)+len(onlyWant) > 0 {
		t.Errorf("%s: %d rows on Oracle, %d expected; rows only on Oracle:\n%s\nrows only expected:\n%s",
			what, len(gotRows), len(wantRows), firstLines(onlyGot, 8), firstLines(onlyWant, 8))
	}
}

// Running the pipeline on both engines.

// dualRun is one scenario run through the pipeline on the real server
// and on the embedded engine, with the same settings and server facts.
type dualRun struct {
	cfg       *config.Config
	facts     connect.Facts
	eng       *oracle.Engine
	mem       *memory.Engine
	states    []string
	memStates []string
	err       error
	memErr    error
}

// runBoth runs inputs in turn (one pipeline run each) on a fresh Oracle
// engine (dial nil: plain sessions of l.db) and on the embedded engine.
// Tables get prefix. It skips when the settings ask for what the server
// lacks (boolean_type: boolean on 21c).
func (l *liveDB) runBoth(t *testing.T, ctx context.Context, settings, prefix string, dial oracle.Dialer, inputs ...string) *dualRun {
	t.Helper()
	settings = prefixed(settings, prefix)
	d := &dualRun{cfg: liveConfig(t, l.dsn, settings)}
	d.cfg.TablePrefix = prefix
	d.facts = l.info.Resolve(d.cfg)
	if len(d.facts.Problems) > 0 {
		t.Skipf("the server cannot run this scenario: %v", d.facts.Problems)
	}
	srv := serverOf(d.facts)
	d.eng = l.engineFor(d.cfg, d.facts, dial)
	t.Cleanup(func() { d.eng.Close() })
	d.mem = memory.New(memory.Options{KeepRows: true, Now: clock})
	memCfg := liveConfig(t, l.dsn, settings)
	memCfg.TablePrefix = prefix
	for _, in := range inputs {
		d.states, d.err = l.pipelineRun(ctx, d.eng, d.cfg, srv, in)
		d.memStates, d.memErr = l.pipelineRun(ctx, d.mem, memCfg, srv, in)
	}
	return d
}

// pipelineRun loads input with eng and returns the state lines.
func (l *liveDB) pipelineRun(ctx context.Context, eng engine.Engine, cfg *config.Config, srv pipeline.Server, input string) ([]string, error) {
	var out strings.Builder
	err := pipeline.Run(ctx, pipeline.Options{
		Config:   cfg,
		Engine:   eng,
		Server:   srv,
		Input:    strings.NewReader(input),
		StateOut: &out,
		Log:      l.logger(),
		Now:      clock,
	})
	s := strings.TrimSuffix(out.String(), "\n")
	if s == "" {
		return nil, err
	}
	return strings.Split(s, "\n"), err
}

// liveTable is one table of a scenario as Oracle has it (Describe) and
// its rows read back.
type liveTable struct {
	def  *table.Table
	rows []map[string]string
}

// oracleTables reads every table of prefix through the engine's Describe
// and the readback.
func (l *liveDB) oracleTables(t *testing.T, ctx context.Context, eng *oracle.Engine, prefix string) map[string]liveTable {
	t.Helper()
	names, err := l.tables(ctx, prefix)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]liveTable{}
	for _, n := range names {
		def, err := eng.Describe(ctx, l.facts.DefaultSchema, n)
		if err != nil || def == nil {
			t.Fatalf("describe %s: %v (table %v)", n, err, def)
		}
		rows, err := l.readTable(ctx, def)
		if err != nil {
			t.Fatal(err)
		}
		out[def.QualifiedName()] = liveTable{def: def, rows: rows}
	}
	return out
}

// compareWithEmbedded compares every table of prefix on Oracle with the
// embedded engine's: shape, and rows with the run-dependent metadata
// columns masked.
func (l *liveDB) compareWithEmbedded(t *testing.T, ctx context.Context, d *dualRun, prefix string) map[string]liveTable {
	t.Helper()
	got := l.oracleTables(t, ctx, d.eng, prefix)
	want := d.mem.Tables()
	for q, w := range want {
		g, ok := got[q]
		if !ok {
			t.Errorf("table %s is missing on Oracle", q)
			continue
		}
		if gs, ws := shapeText(g.def), shapeText(w); gs != ws {
			t.Errorf("table %s differs:\n--- Oracle\n%s\n--- embedded engine\n%s", q, gs, ws)
		}
		compareRows(t, q, g.def, w, g.rows, d.mem.Rows(q), runMetadata)
	}
	for q := range got {
		if _, ok := want[q]; !ok {
			t.Errorf("table %s is on Oracle only", q)
		}
	}
	return got
}

// Singer input.

func jsonString(s string) string {
	b, _ := json.Marshal(s) // a Go string always marshals
	return string(b)
}

func schemaLine(stream string, keys []string, properties string) string {
	k, _ := json.Marshal(keys)
	return fmt.Sprintf(`{"type":"SCHEMA","stream":%s,"key_properties":%s,"schema":{"type":"object","properties":{%s}}}`,
		jsonString(stream), k, properties)
}

func recordLine(stream, record string) string {
	return fmt.Sprintf(`{"type":"RECORD","stream":%s,"record":%s}`, jsonString(stream), record)
}

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// boolText is the stored text of a boolean in a column of type typ.
func boolText(b bool, typ table.Type) string {
	if typ.Kind == table.KindBoolean {
		return strconv.FormatBool(b)
	}
	if b {
		return "1"
	}
	return "0"
}

// byID indexes rows by their ID column.
func byID(rows []map[string]string) map[string][]map[string]string {
	out := map[string][]map[string]string{}
	for _, r := range rows {
		out[r["ID"]] = append(out[r["ID"]], r)
	}
	return out
}

// TestOracleLiveConnect: connect, probe and resolve the settings; the
// server is one the target supports.
func TestOracleLiveConnect(t *testing.T) {
	l := newLive(t)
	if l.info.Major < 19 || l.facts.DefaultSchema == "" || l.info.SessionUser == "" {
		t.Errorf("incomplete server facts %+v", l.info)
	}
	if l.facts.IdentifierMaxBytes != 128 && l.facts.IdentifierMaxBytes != 30 {
		t.Errorf("identifier limit %d", l.facts.IdentifierMaxBytes)
	}
	if v := l.facts.VarcharMaxBytes; v != 4000 && v != 32767 {
		t.Errorf("varchar limit %d", v)
	}
}

// TestOracleLiveCheck: --check (connect.Check) says loading can work for
// the test user.
func TestOracleLiveCheck(t *testing.T) {
	l := newLive(t)
	ctx, cancel := context.WithTimeout(context.Background(), caseWait)
	defer cancel()
	report, err := connect.Check(ctx, l.db, l.cfg, l.facts)
	if err != nil {
		t.Fatalf("connect.Check: %v", err)
	}
	var out bytes.Buffer
	if err := report.Write(&out); err != nil {
		t.Fatal(err)
	}
	t.Logf("--check:\n%s", out.String())
	if !report.OK() {
		t.Error("--check says loading cannot work for the test user")
	}
}

// TestOracleLiveConformance runs every stream of ../shared/conformance
// (the cases of TestConformanceMatchesEmbeddedEngine) through the
// pipeline on the server and on the embedded engine: the same outcome,
// the same state lines, and every table read back from Oracle equal to
// the embedded engine's (run-dependent metadata masked; native JSON
// compared by value, key order aside).
func TestOracleLiveConformance(t *testing.T) {
	l := newLive(t)
	dir := conformance.Dir(t)
	names := make([]string, 0, len(conformanceCases))
	for n := range conformanceCases {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, name := range names {
		c := conformanceCases[name]
		t.Run(name, func(t *testing.T) {
			var inputs []string
			for _, f := range c.files {
				b, err := os.ReadFile(filepath.Join(dir, f))
				if err != nil {
					t.Fatal(err)
				}
				inputs = append(inputs, string(b))
			}
			ctx, cancel := context.WithTimeout(context.Background(), caseWait)
			defer cancel()
			prefix := fmt.Sprintf("%sC%02d_", l.prefix, i)
			d := l.runBoth(t, ctx, c.settings, prefix, nil, inputs...)
			if (d.err == nil) != (d.memErr == nil) {
				t.Fatalf("error %v, embedded engine: %v", d.err, d.memErr)
			}
			if d.err != nil {
				t.Logf("both failed, as expected: %v", d.err)
			}
			got, want := strings.Join(d.states, "\n"), strings.Join(d.memStates, "\n")
			if !strings.Contains(c.settings, `"max_parallelism": 1`) {
				got, want = last(d.states), last(d.memStates)
			}
			if got != want {
				t.Errorf("states:\n%s\nembedded engine:\n%s", got, want)
			}
			l.compareWithEmbedded(t, ctx, d, prefix)
		})
	}
}

// Values of the type round trip.
var (
	specialText = "it's \"quoted\" \\ back\\\\slash\ttab\nnewline 漢字 😀 \u0001 <&>"
	clobText    = strings.Repeat("clob-漢字-😀-\"q\"-\\-", (1<<20)/24+1) // a little over 1 MiB
	// Compact JSON with number text Oracle's NUMBER would change, and a
	// string escape: SPEC §5.3 keeps both as received in a CLOB JSON
	// column; a native JSON column keeps what Oracle's JSON type keeps,
	// its numbers as NUMBERs (objNative, arrNative; oravalue jsonnumbers.go).
	objText    = `{"n":1.50,"big":123456789012345678901234567890.5,"e":1E-5,"neg":-0,"s":"q\"\\/\u00e9漢😀","a":[1,2.0,{"b":null,"t":true}],"z":{}}`
	objNative  = `{"n":1.5,"big":123456789012345678901234567890.5,"e":0.00001,"neg":0,"s":"q\"\\/\u00e9漢😀","a":[1,2,{"b":null,"t":true}],"z":{}}`
	objUpdated = `{"n":2.50}`
	arrText    = `[1,"x",null,{"k":[]},-0.0]`
	arrNative  = `[1,"x",null,{"k":[]},0]`
	tinyText   = "0." + strings.Repeat("0", 129) + "1"
	hugeText   = "999" + strings.Repeat("0", 123)
)

func typesSchema(stream string) string {
	return schemaLine(stream, []string{"id"}, `"id":{"type":"integer"},`+
		`"int38":{"type":["integer","null"]},`+
		`"dec36":{"type":["number","null"]},`+
		`"dec_fixed":{"type":["string","null"],"format":"x-singer.decimal","precision":38,"scale":18},`+
		`"tiny":{"type":["number","null"]},"huge":{"type":["number","null"]},"negzero":{"type":["number","null"]},`+
		`"ts":{"type":["string","null"],"format":"date-time"},"d":{"type":["string","null"],"format":"date"},`+
		`"s":{"type":["string","null"]},"s4000":{"type":["string","null"]},"s4001":{"type":["string","null"]},`+
		`"s32767":{"type":["string","null"]},"s32768":{"type":["string","null"]},"clob1m":{"type":["string","null"]},`+
		`"obj":{"type":["object","null"]},"arr":{"type":["array","null"]},"flag":{"type":["boolean","null"]}`)
}

// typesRecords are the rows of the type round trip; update replaces id 1
// with some values changed (in a later run for upserts, so that MERGE
// takes its update path).
func typesRecords(stream string) (first, update []string) {
	type field struct{ key, value string }
	rec := func(fields []field) string {
		parts := make([]string, len(fields))
		for i, f := range fields {
			parts[i] = jsonString(f.key) + ":" + f.value
		}
		return recordLine(stream, "{"+strings.Join(parts, ",")+"}")
	}
	row1 := []field{{"id", "1"}, {"int38", "12345678901234567890123456789012345678"}, {"dec36", "123456789012345678.901234567890123456"},
		{"dec_fixed", `"12345678901234567890.123456789012345678"`}, {"tiny", "1e-130"}, {"huge", "9.99e125"}, {"negzero", "-0"},
		{"ts", `"2024-01-02T02:00:00.123456789+05:30"`}, {"d", `"2024-02-29"`}, {"s", jsonString(specialText)},
		{"s4000", jsonString(strings.Repeat("a", 4000))}, {"s4001", jsonString(strings.Repeat("b", 4001))},
		{"s32767", jsonString(strings.Repeat("c", 32767))}, {"s32768", jsonString(strings.Repeat("d", 32768))},
		{"clob1m", jsonString(clobText)}, {"obj", objText}, {"arr", arrText}, {"flag", "true"}}
	changes := map[string]string{"int38": "null", "dec36": "0.5", "ts": `"2000-01-01T00:00:00.5-08:00"`, "d": `"2000-01-01"`,
		"s32768": jsonString(strings.Repeat("e", 32768)), "clob1m": jsonString(clobText[:len(clobText)-24] + "end"),
		"obj": objUpdated, "flag": "false"}
	upd := make([]field, len(row1))
	for i, f := range row1 {
		if v, ok := changes[f.key]; ok {
			f.value = v
		}
		upd[i] = f
	}
	first = []string{
		rec(row1),
		rec([]field{{"id", "2"}, {"int38", "-99999999999999999999999999999999999999"}, {"dec36", "-0.000000000000000000000000000000000001"},
			{"dec_fixed", `"-0.000000000000000001"`}, {"tiny", "-1e-130"}, {"huge", "-9.99e125"}, {"negzero", "-0.0"},
			{"ts", `"1970-01-01T00:00:00Z"`}, {"d", `"1900-01-01"`}, {"s", `"漢字😀"`},
			{"s4000", jsonString(strings.Repeat("é", 2000))}, {"s4001", jsonString(strings.Repeat("é", 2000) + "x")},
			{"s32767", jsonString(strings.Repeat("😀", 8191) + "abc")}, {"s32768", jsonString(strings.Repeat("😀", 8192))},
			{"clob1m", "null"}, {"obj", "{}"}, {"arr", "[]"}, {"flag", "false"}}),
		rec([]field{{"id", "3"}, {"ts", `"9999-12-31T23:59:59.999999999Z"`}, {"d", `"9999-12-31"`}, {"flag", "null"}}),
	}
	return first, []string{rec(upd)}
}

// liveScenario is a pipeline scenario of the live suite with exact
// expectations for one of its tables.
type liveScenario struct {
	name     string
	settings string
	inputs   []string // one pipeline run each
	table    string   // the table checked, without the prefix
	check    func(t *testing.T, tbl liveTable)
}

// typeScenarios load one table with every type through upsert (MERGE,
// insert and update paths, the update in a second run) and through
// append-only (INSERT, with timestamp_type: timestamp).
func typeScenarios() []liveScenario {
	first, update := typesRecords("types")
	return []liveScenario{{
		name:     "Upsert",
		settings: `{"load_method": "upsert"}`,
		inputs:   []string{lines(append([]string{typesSchema("types")}, first...)...), lines(typesSchema("types"), update[0])},
		table:    "TYPES",
		check: func(t *testing.T, tbl liveTable) {
			flag := tbl.def.Column("FLAG").Type
			checkExact(t, tbl, map[string]map[string]string{
				"1": {"INT38": "", "DEC36": "0.5", "DEC_FIXED": "12345678901234567890.123456789012345678", "TINY": tinyText,
					"HUGE": hugeText, "NEGZERO": "0", "TS": "2000-01-01T08:00:00.5Z", "D": "2000-01-01", "S": specialText,
					"S4000": strings.Repeat("a", 4000), "S4001": strings.Repeat("b", 4001), "S32767": strings.Repeat("c", 32767),
					"S32768": strings.Repeat("e", 32768), "CLOB1M": clobText[:len(clobText)-24] + "end",
					"OBJ": objUpdated, "ARR": arrText, "FLAG": boolText(false, flag)},
				"2": {"INT38": "-99999999999999999999999999999999999999", "DEC36": "-0.000000000000000000000000000000000001",
					"DEC_FIXED": "-0.000000000000000001", "TINY": "-" + tinyText, "HUGE": "-" + hugeText, "NEGZERO": "0",
					"TS": "1970-01-01T00:00:00Z", "D": "1900-01-01", "S": "漢字😀", "S4000": strings.Repeat("é", 2000),
					"S4001": strings.Repeat("é", 2000) + "x", "S32767": strings.Repeat("😀", 8191) + "abc",
					"S32768": strings.Repeat("😀", 8192), "CLOB1M": "", "OBJ": "{}", "ARR": "[]", "FLAG": boolText(false, flag)},
				"3": {"TS": "9999-12-31T23:59:59.999999999Z", "D": "9999-12-31", "FLAG": "", "S": "", "OBJ": ""},
			})
		},
	}, {
		name:     "AppendOnly",
		settings: `{"load_method": "append-only", "timestamp_type": "timestamp"}`,
		inputs:   []string{lines(append(append([]string{typesSchema("types")}, first...), update...)...)},
		table:    "TYPES",
		check: func(t *testing.T, tbl liveTable) {
			if n := len(tbl.rows); n != 4 {
				t.Errorf("%d rows, want 4 (append-only keeps both versions of id 1)", n)
			}
			for _, r := range byID(tbl.rows)["1"] {
				if r["DEC36"] != "123456789012345678.901234567890123456" {
					continue // the update
				}
				want := map[string]string{"INT38": "12345678901234567890123456789012345678", "TINY": tinyText, "HUGE": hugeText,
					"NEGZERO": "0", "TS": "2024-01-01T20:30:00.123456789Z", "D": "2024-02-29", "S": specialText,
					"S32768": strings.Repeat("d", 32768), "CLOB1M": clobText, "OBJ": objText, "ARR": arrText,
					"FLAG": boolText(true, tbl.def.Column("FLAG").Type)}
				checkExact(t, liveTable{def: tbl.def, rows: []map[string]string{r}}, map[string]map[string]string{"1": want})
				return
			}
			t.Errorf("the first version of id 1 is missing: %v", byID(tbl.rows)["1"])
		},
	}}
}

// tzScenarios load date-times with offsets, dates and numbers; run on
// sessions whose time zone and NLS formats were changed before the
// engine's setup, the stored values must not move.
func tzScenarios() []liveScenario {
	input := lines(
		schemaLine("tz", []string{"id"}, `"id":{"type":"integer"},"ts":{"type":["string","null"],"format":"date-time"},`+
			`"d":{"type":["string","null"],"format":"date"},"n":{"type":["number","null"]}`),
		recordLine("tz", `{"id":1,"ts":"2024-03-10T02:30:00.123456+05:30","d":"2024-03-10","n":1.5}`),
		recordLine("tz", `{"id":2,"ts":"2024-11-03T01:30:00-04:00","d":"2024-11-03","n":-1234.5678}`),
		recordLine("tz", `{"id":3,"ts":"2024-12-31T23:59:59.999999Z","d":"2024-12-31","n":1E-5}`),
	)
	check := func(t *testing.T, tbl liveTable) {
		checkExact(t, tbl, map[string]map[string]string{
			"1": {"TS": "2024-03-09T21:00:00.123456Z", "D": "2024-03-10", "N": "1.5"},
			"2": {"TS": "2024-11-03T05:30:00Z", "D": "2024-11-03", "N": "-1234.5678"},
			"3": {"TS": "2024-12-31T23:59:59.999999Z", "D": "2024-12-31", "N": "0.00001"},
		})
	}
	return []liveScenario{
		{name: "TimestampTZ", settings: `{"add_record_metadata": true}`, inputs: []string{input}, table: "TZ", check: check},
		{name: "Timestamp", settings: `{"add_record_metadata": true, "timestamp_type": "timestamp"}`, inputs: []string{input}, table: "TZ", check: check},
	}
}

// booleanScenarios write true, false and NULL with MERGE (and change
// each in a second run) and with INSERT.
func booleanScenarios() []liveScenario {
	schema := schemaLine("flags", []string{"id"}, `"id":{"type":"integer"},"flag":{"type":["boolean","null"]}`)
	rec := func(id int, v string) string { return recordLine("flags", fmt.Sprintf(`{"id":%d,"flag":%s}`, id, v)) }
	// want is id → "true", "false" or "" (NULL).
	checkFlags := func(want map[string]string) func(t *testing.T, tbl liveTable) {
		return func(t *testing.T, tbl liveTable) {
			typ := tbl.def.Column("FLAG").Type
			exact := map[string]map[string]string{}
			for id, v := range want {
				if v != "" {
					v = boolText(v == "true", typ)
				}
				exact[id] = map[string]string{"FLAG": v}
			}
			checkExact(t, tbl, exact)
		}
	}
	return []liveScenario{{
		name:     "Merge",
		settings: `{"load_method": "upsert"}`,
		inputs:   []string{lines(schema, rec(1, "true"), rec(2, "false"), rec(3, "null")), lines(schema, rec(1, "false"), rec(2, "null"), rec(3, "true"))},
		table:    "FLAGS",
		check:    checkFlags(map[string]string{"1": "false", "2": "", "3": "true"}),
	}, {
		name:     "Insert",
		settings: `{"load_method": "append-only"}`,
		inputs:   []string{lines(schema, rec(1, "true"), rec(2, "false"), rec(3, "null"))},
		table:    "FLAGS",
		check:    checkFlags(map[string]string{"1": "true", "2": "false", "3": ""}),
	}}
}

// booleanTextScenarios load booleans into a text column (hostile review
// finding 01): a column two streams share (table_name_mappings), one
// declaring flag boolean, the other string, is text, the join; and a
// boolean column a later SCHEMA widens to text (a migration, in a second
// run). A boolean there is the text "true" or "false", as a migrated one
// is (SPEC §5.5), never 1/0, and false stays apart from NULL. On the
// server with BOOLEAN (23ai) and with NUMBER(1) (19c).
func booleanTextScenarios() []liveScenario {
	const settings = `{"load_method": "upsert", "table_name_mappings": {"flags_a": "{prefix}FLAGS_TEXT", "flags_b": "{prefix}FLAGS_TEXT"}}`
	flagSchema := func(stream, typ string) string {
		return schemaLine(stream, []string{"id"}, `"id":{"type":"integer"},"flag":{"type":`+typ+`}`)
	}
	rec := func(stream string, id int, v string) string {
		return recordLine(stream, fmt.Sprintf(`{"id":%d,"flag":%s}`, id, v))
	}
	boolA, textB := flagSchema("flags_a", `["boolean","null"]`), flagSchema("flags_b", `["string","null"]`)
	recsA := []string{rec("flags_a", 1, "true"), rec("flags_a", 2, "false"), rec("flags_a", 3, "null")}
	check := func(t *testing.T, tbl liveTable) {
		if typ := tbl.def.Column("FLAG").Type; !typ.IsText() {
			t.Errorf("FLAG is %s, want text", typ)
		}
		checkExact(t, tbl, map[string]map[string]string{
			"1": {"FLAG": "true"}, "2": {"FLAG": "false"}, "3": {"FLAG": ""}, "4": {"FLAG": "x"},
		})
	}
	return []liveScenario{{
		name:     "SharedBooleanSchemaFirst",
		settings: settings,
		inputs:   []string{lines(append([]string{boolA, textB}, append(recsA, rec("flags_b", 4, `"x"`))...)...)},
		table:    "FLAGS_TEXT",
		check:    check,
	}, {
		name:     "SharedTextSchemaFirst",
		settings: settings,
		inputs:   []string{lines(append([]string{textB, boolA}, append(recsA, rec("flags_b", 4, `"x"`))...)...)},
		table:    "FLAGS_TEXT",
		check:    check,
	}, {
		name:     "WidenedToText",
		settings: settings,
		inputs: []string{lines(append([]string{boolA}, recsA...)...),
			lines(flagSchema("flags_a", `["string","null"]`), rec("flags_a", 4, `"x"`))},
		table: "FLAGS_TEXT",
		check: check,
	}}
}

// prefixed puts a scenario's table prefix into its settings where they
// name a table verbatim ("{prefix}" in table_name_mappings): table_prefix
// does not apply to a mapped name.
func prefixed(settings, prefix string) string {
	return strings.ReplaceAll(settings, "{prefix}", prefix)
}

// TestOracleLiveBooleanText runs booleanTextScenarios on the server and
// the embedded engine.
func TestOracleLiveBooleanText(t *testing.T) {
	l := newLive(t)
	for i, sc := range booleanTextScenarios() {
		t.Run(sc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), caseWait)
			defer cancel()
			l.runScenario(t, ctx, sc, fmt.Sprintf("%sBT%d_", l.prefix, i), nil)
		})
	}
}

// runScenario runs sc on the server and on the embedded engine, compares
// every table, checks sc's table exactly and returns it.
func (l *liveDB) runScenario(t *testing.T, ctx context.Context, sc liveScenario, prefix string, dial oracle.Dialer) liveTable {
	t.Helper()
	d := l.runBoth(t, ctx, sc.settings, prefix, dial, sc.inputs...)
	if d.err != nil || d.memErr != nil {
		t.Fatalf("load: %v; embedded engine: %v", d.err, d.memErr)
	}
	got := l.compareWithEmbedded(t, ctx, d, prefix)
	tbl, ok := got[d.facts.DefaultSchema+"."+prefix+sc.table]
	if !ok {
		t.Fatalf("no table %s%s", prefix, sc.table)
	}
	t.Logf("table %s:\n%s", tbl.def.QualifiedName(), shapeText(tbl.def))
	sc.check(t, tbl)
	return tbl
}

// TestOracleLiveTypeRoundTrip loads one table with every type through
// upsert and through append-only, reads them back and compares them with
// the embedded engine and with the exact stored texts.
func TestOracleLiveTypeRoundTrip(t *testing.T) {
	l := newLive(t)
	for i, sc := range typeScenarios() {
		t.Run(sc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), caseWait)
			defer cancel()
			l.runScenario(t, ctx, sc, fmt.Sprintf("%sT%d_", l.prefix, i), nil)
		})
	}
}

// checkExact compares columns of rows (by ID, one row each) with their
// exact stored texts.
func checkExact(t *testing.T, tbl liveTable, want map[string]map[string]string) {
	t.Helper()
	rows := byID(tbl.rows)
	for id, cols := range want {
		if len(rows[id]) != 1 {
			t.Errorf("id %s: %d rows, want 1", id, len(rows[id]))
			continue
		}
		r := rows[id][0]
		for col, w := range cols {
			c := tbl.def.Column(col)
			if c == nil {
				t.Errorf("no column %s", col)
				continue
			}
			note := ""
			if c.Type.Kind == table.KindJSON && !c.Type.JSONAsClob {
				w = nativeJSON(w)
				note = " (native JSON column: SPEC §5.3 wants what Oracle's JSON type keeps, numbers canonical, string escapes as received)"
			}
			if g := r[col]; g != w {
				t.Errorf("id %s %s %s: got %s, want %s%s", id, col, c.Type, short(g), short(w), note)
			}
		}
	}
}

// nativeJSON is the text a native JSON column keeps of the JSON text w
// the scenarios send: its numbers as Oracle NUMBERs.
func nativeJSON(w string) string {
	switch w {
	case objText:
		return objNative
	case objUpdated:
		return `{"n":2.5}`
	case arrText:
		return arrNative
	}
	return w
}

// Tables for the engine-level risk tests (notes §8), adapted to what the
// server has.

func (l *liveDB) adapt(tbl *table.Table, name string) *table.Table {
	out := tbl.Clone()
	out.Schema, out.Name = l.facts.DefaultSchema, l.prefix+name
	for i := range out.Columns {
		c := &out.Columns[i]
		switch {
		case c.Type.Kind == table.KindBoolean && !l.facts.BooleanNative:
			c.Type = table.Type{Kind: table.KindNumber, Precision: 1, BoolNumber: true}
		case c.Type.Kind == table.KindJSON && !l.facts.JSONNative:
			c.Type.JSONAsClob = true
		}
	}
	return out
}

// adaptRow rewrites boolean texts for a NUMBER(1) column.
func adaptRow(tbl *table.Table, r map[string]string) map[string]string {
	for k, v := range r {
		if c := tbl.Column(k); c != nil && c.Type.BoolNumber && v != "" {
			r[k] = boolText(v == "true" || v == "1", c.Type)
		}
	}
	return r
}

// engineSession opens a session of a plain engine and creates tables.
func (l *liveDB) engineSession(t *testing.T, ctx context.Context, tables ...*table.Table) (*oracle.Engine, engine.Session) {
	t.Helper()
	eng := l.engineFor(l.cfg, l.facts, nil)
	t.Cleanup(func() { eng.Close() })
	s, err := eng.Session(ctx, "live-test")
	if err != nil {
		t.Fatalf("session: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	for _, tbl := range tables {
		if err := s.Apply(ctx, engine.Change{Table: tbl, Change: table.Change{Kind: table.CreateTable}}); err != nil {
			t.Fatalf("create %s: %v", tbl.QualifiedName(), err)
		}
	}
	return eng, s
}

// expectRows reads tbl back and compares it with want (stored texts;
// _SDC_LOADED_AT, the database time, is not compared).
func (l *liveDB) expectRows(t *testing.T, ctx context.Context, tbl *table.Table, want []map[string]string) {
	t.Helper()
	got, err := l.readTable(ctx, tbl)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range got {
		delete(r, "_SDC_LOADED_AT")
	}
	compareRows(t, tbl.QualifiedName(), tbl, tbl, got, want, nil)
}

// arrayTable has a column of every bind class and type the engine sends.
func arrayTable() *table.Table {
	return &table.Table{Name: "ARRAY", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		prop("ID", integer, false),
		prop("N", table.Type{Kind: table.KindNumber}, true),
		prop("I", integer, true),
		prop("AMT", table.Type{Kind: table.KindNumber, Precision: 12, Scale: 2}, true),
		prop("V", table.Type{Kind: table.KindVarchar, Length: 100, CharSemantics: true}, true),
		prop("NV", table.Type{Kind: table.KindVarchar, Length: 50, CharSemantics: true, National: true}, true),
		prop("TS", tsTZ, true),
		prop("T9", table.Type{Kind: table.KindTimestamp, Frac: 9}, true),
		prop("D", table.Type{Kind: table.KindDate}, true),
		prop("B", table.Type{Kind: table.KindBoolean}, true),
		prop("C", table.Type{Kind: table.KindClob}, true),
		prop("J", table.Type{Kind: table.KindJSON}, true),
		meta("_SDC_LOADED_AT", tsTZ),
	}}
}

// arrayRows are n rows with NULLs in a different pattern per column and
// long CLOB values in every tenth row (so the column is bound as LOBs);
// changed alters V, N and C of the even rows.
func arrayRows(tbl *table.Table, n int, changed bool) []map[string]string {
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	rows := make([]map[string]string, n)
	for i := 1; i <= n; i++ {
		amt, _, _ := value.CanonicalNumber(fmt.Sprintf("%d.%02d", i, i%100))
		r := map[string]string{
			"ID":  strconv.Itoa(i),
			"N":   fmt.Sprintf("%d.5", i),
			"I":   fmt.Sprintf("%d%030d", i, i),
			"AMT": amt,
			"V":   fmt.Sprintf("väl-%d-'\"", i),
			"NV":  fmt.Sprintf("日本%d", i),
			"TS":  base.Add(time.Duration(i)*time.Hour + time.Duration(i)*time.Microsecond).Format("2006-01-02T15:04:05.999999999Z"),
			"T9":  base.Add(time.Duration(i)).Format("2006-01-02T15:04:05.999999999Z"),
			"D":   base.AddDate(0, 0, i).Format("2006-01-02"),
			"B":   strconv.FormatBool(i%2 == 0),
			"J":   fmt.Sprintf(`{"i":%d,"a":[1,2.5,"x"]}`, i),
		}
		if i%2 == 1 {
			r["N"] = fmt.Sprintf("-%d.25", i)
		}
		switch i % 10 {
		case 0:
			r["C"] = strings.Repeat("c", 5000) + strconv.Itoa(i)
		case 1:
			r["C"] = "c-" + strconv.Itoa(i)
		}
		if changed && i%2 == 0 {
			r["V"], r["N"] = "changed-"+strconv.Itoa(i), "0"
			if r["C"] != "" {
				r["C"] = "changed-" + r["C"]
			}
		}
		for j, c := range tbl.Columns {
			if c.Name != "ID" && c.Name != "C" && (i*7+j)%5 == 0 {
				delete(r, c.Name)
			}
		}
		rows[i-1] = adaptRow(tbl, r)
	}
	return rows
}

// badTable has a short VARCHAR2 for rows that do not fit.
func badTable() *table.Table {
	return &table.Table{Name: "BAD", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		prop("ID", integer, false),
		prop("V", table.Type{Kind: table.KindVarchar, Length: 10}, true),
		meta("_SDC_LOADED_AT", tsTZ),
	}}
}

// stringsTable has a CLOB, an NCLOB and a VARCHAR2 of the ceiling.
func stringsTable(ceiling int) *table.Table {
	return &table.Table{Name: "STRINGS", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		prop("ID", integer, false),
		prop("V", table.Type{Kind: table.KindVarchar, Length: ceiling}, true),
		prop("C", table.Type{Kind: table.KindClob}, true),
		prop("NC", table.Type{Kind: table.KindClob, National: true}, true),
		meta("_SDC_LOADED_AT", tsTZ),
	}}
}

// bindsTable holds the go-ora bind risks of issue 14: national text sized
// on the wire, national NULLs last in a chunk, long CLOB values (LONG
// binds, the split upsert) next to long national ones (temporary LOBs).
func bindsTable() *table.Table {
	return &table.Table{Name: "BINDS", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		prop("ID", integer, false),
		prop("V", table.Type{Kind: table.KindVarchar, Length: 10}, true),
		prop("NV", table.Type{Kind: table.KindVarchar, Length: 2000, CharSemantics: true, National: true}, true),
		prop("C", table.Type{Kind: table.KindClob}, true),
		prop("NC", table.Type{Kind: table.KindClob, National: true}, true),
		meta("_SDC_LOADED_AT", tsTZ),
	}}
}

// bindsRows are rows of bindsTable; the last has NULL national values.
// tag changes every value, for MERGE's update path.
func bindsRows(tag string) []map[string]string {
	return []map[string]string{
		{"ID": "1", "V": tag, "NV": tag + strings.Repeat("a", 1999), "NC": tag + strings.Repeat("a", 2000), "C": tag + strings.Repeat("c", 4000)},
		{"ID": "2", "V": tag, "NV": tag + strings.Repeat("中", 1499), "NC": tag + strings.Repeat("中", 1500), "C": tag},
		{"ID": "3", "V": tag, "NV": tag + strings.Repeat("😀", 999), "NC": tag + strings.Repeat("ü", 20000), "C": tag + strings.Repeat("é", 20000)},
		{"ID": "4", "V": tag},
	}
}

// hostileDialer sets the session time zone and NLS formats to values the
// engine must not depend on, before the engine's own session setup.
func hostileDialer(db *sql.DB, dials *atomic.Int64) oracle.Dialer {
	base := oracle.DialDB(db)
	settings := []string{
		"ALTER SESSION SET TIME_ZONE = 'Asia/Kolkata'",
		"ALTER SESSION SET NLS_NUMERIC_CHARACTERS = ',.'",
		"ALTER SESSION SET NLS_DATE_FORMAT = 'DD.MM.RR'",
		"ALTER SESSION SET NLS_TIMESTAMP_FORMAT = 'DD.MM.RR HH12.MI.SSXFF AM'",
		"ALTER SESSION SET NLS_TIMESTAMP_TZ_FORMAT = 'DD.MM.RR HH12.MI.SSXFF AM TZR'",
	}
	return func(ctx context.Context) (oracle.Conn, error) {
		c, err := base(ctx)
		if err != nil {
			return nil, err
		}
		for _, s := range settings {
			st := oraclesql.Statement{SQL: s, Kind: oraclesql.KindDDL}
			if _, err := c.Exec(ctx, &st, nil); err != nil {
				c.Close()
				return nil, fmt.Errorf("%s: %w", s, err)
			}
		}
		dials.Add(1)
		return c, nil
	}
}

// captureStdout runs f with os.Stdout replaced by a pipe and returns what
// was written to it.
func captureStdout(f func()) ([]byte, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	out := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(pr)
		out <- b
	}()
	saved := os.Stdout
	func() {
		os.Stdout = pw
		defer func() { os.Stdout = saved }()
		f()
	}()
	pw.Close()
	b := <-out
	pr.Close()
	return b, nil
}

// wholeLoad is everything a run does with the database: connect, probe,
// --check, loads with MERGE and INSERT, a row error and its bisection.
// It returns what went wrong and the state lines of the last load.
func (l *liveDB) wholeLoad(ctx context.Context, cfgs []*config.Config, input string, bad *engine.Write) (errs, states []string) {
	db, err := connect.OpenWrapped(ctx, l.cfg, slog.Default(), nil)
	if err != nil {
		return []string{fmt.Sprintf("connect.OpenWrapped: %v", err)}, nil
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return []string{err.Error()}, nil
	}
	info, err := connect.Probe(ctx, conn)
	conn.Close()
	if err != nil {
		return []string{fmt.Sprintf("connect.Probe: %v", err)}, nil
	}
	facts := info.Resolve(l.cfg)
	if _, err := connect.Check(ctx, db, l.cfg, facts); err != nil {
		errs = append(errs, fmt.Sprintf("connect.Check: %v", err))
	}
	for _, cfg := range cfgs {
		eng := l.engineFor(cfg, facts, oracle.DialDB(db))
		states, err = l.pipelineRun(ctx, eng, cfg, serverOf(facts), input)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s load: %v", cfg.LoadMethod, err))
		}
		eng.Close()
	}
	eng := l.engineFor(l.cfg, facts, oracle.DialDB(db))
	defer eng.Close()
	s, err := eng.Session(ctx, "stdout")
	if err != nil {
		return append(errs, err.Error()), states
	}
	defer s.Close()
	if err := s.Apply(ctx, engine.Change{Table: bad.Table, Change: table.Change{Kind: table.CreateTable}}); err != nil {
		return append(errs, err.Error()), states
	}
	if _, err := s.Load(ctx, []engine.Step{bad}); err == nil {
		errs = append(errs, "a bad row loaded")
	}
	return errs, states
}

// TestOracleLiveRisks verifies the items of notes/oracle-and-go-ora.md §8
// that the engine relies on.
func TestOracleLiveRisks(t *testing.T) {
	l := newLive(t)

	t.Run("ArrayInsert10000RowsMixedNulls", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), caseWait)
		defer cancel()
		tbl := l.adapt(arrayTable(), "ARRAY10K")
		_, s := l.engineSession(t, ctx, tbl)
		rows := arrayRows(tbl, 10000, false)
		res, err := s.Load(ctx, []engine.Step{write(tbl, engine.Insert, rows...)})
		if err != nil {
			t.Fatalf("array INSERT of 10,000 rows: %v", err)
		}
		if res.Inserted != 10000 {
			t.Errorf("inserted %d rows, want 10000 (%+v)", res.Inserted, res)
		}
		for _, c := range tbl.Columns {
			want := int64(0)
			for _, r := range rows {
				if r[c.Name] != "" {
					want++
				}
			}
			if c.Name == "_SDC_LOADED_AT" {
				want = 10000
			}
			if got, err := l.count(ctx, tbl, table.Quote(c.Name)); err != nil || got != want {
				t.Errorf("COUNT(%s) = %d (%v), want %d", c.Name, got, err, want)
			}
		}
		l.expectRows(t, ctx, tbl, rows)

		changed := arrayRows(tbl, 10000, true)
		res, err = s.Load(ctx, []engine.Step{write(tbl, engine.Upsert, changed...)})
		if err != nil {
			t.Fatalf("array MERGE of 10,000 rows: %v", err)
		}
		if res.Written != 10000 {
			t.Errorf("merged %d rows, want 10000 (%+v)", res.Written, res)
		}
		l.expectRows(t, ctx, tbl, changed)
	})

	t.Run("BadRowRollsBackAndNamesTheLine", func(t *testing.T) {
		cases := []struct {
			name   string
			method engine.Method
			bad    map[string]string
			code   int
		}{
			{"TooLongInsert", engine.Insert, map[string]string{"ID": "1537", "V": "12345678901"}, 12899},
			{"TooLongMerge", engine.Upsert, map[string]string{"ID": "1537", "V": "12345678901"}, 12899},
			{"NullKeyInsert", engine.Insert, map[string]string{"ID": "", "V": "x"}, 1400},
			{"NullKeyMerge", engine.Upsert, map[string]string{"ID": "", "V": "x"}, 1400},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), caseWait)
				defer cancel()
				tbl := l.adapt(badTable(), "BAD_"+strings.ToUpper(c.name))
				_, s := l.engineSession(t, ctx, tbl)
				good := func(from, n int) *engine.Write {
					var rows []map[string]string
					for i := from; i < from+n; i++ {
						rows = append(rows, map[string]string{"ID": strconv.Itoa(i), "V": "ok"})
					}
					w := write(tbl, c.method, rows...)
					for i := range w.Rows {
						w.Rows[i].Line = int64(from + i)
					}
					return w
				}
				if _, err := s.Load(ctx, []engine.Step{good(1, 10)}); err != nil {
					t.Fatalf("first batch: %v", err)
				}
				w := good(1001, 1000)
				for j, col := range w.Columns {
					if v, ok := c.bad[col]; ok {
						w.Rows[536].Values[j] = v // line 1537
					}
				}
				_, err := s.Load(ctx, []engine.Step{w})
				var oe *oracle.Error
				switch {
				case err == nil:
					t.Fatal("the batch with a bad row loaded")
				case !errors.As(err, &oe):
					t.Fatalf("error %T %v, want *oracle.Error", err, err)
				}
				t.Logf("error: %v", err)
				if oe.Code != c.code || oe.Line != 1537 || oe.Table != tbl.QualifiedName() {
					t.Errorf("code %d line %d table %s, want ORA-%05d at line 1537 of %s", oe.Code, oe.Line, oe.Table, c.code, tbl.QualifiedName())
				}
				if n, err := l.count(ctx, tbl, "*"); err != nil || n != 10 {
					t.Errorf("%d rows (%v) after the failed batch, want the 10 of the first batch", n, err)
				}
				if _, err := s.Load(ctx, []engine.Step{good(3001, 5)}); err != nil {
					t.Fatalf("the session is unusable after a row error: %v", err)
				}
				if n, err := l.count(ctx, tbl, "*"); err != nil || n != 15 {
					t.Errorf("%d rows (%v), want 15", n, err)
				}
			})
		}
	})

	t.Run("LongStringsMergeVsInsert", func(t *testing.T) {
		ceiling := l.facts.VarcharMaxBytes
		t.Logf("MAX_STRING_SIZE %s, VARCHAR2 ceiling %d bytes", l.info.MaxStringSize, ceiling)
		sizes := []struct{ name, s string }{
			{"4000", strings.Repeat("a", 4000)},
			{"4001", strings.Repeat("b", 4001)},
			{"4001-multibyte", strings.Repeat("é", 2000) + "x"},
			{"32767", strings.Repeat("c", 32767)},
			{"32768", strings.Repeat("d", 32768)},
			{"32768-emoji", strings.Repeat("😀", 8192)},
		}
		row := func(id int, s string) map[string]string {
			r := map[string]string{"ID": strconv.Itoa(id), "C": s, "NC": s}
			if len(s) <= ceiling {
				r["V"] = s
			}
			return r
		}
		for _, m := range []engine.Method{engine.Insert, engine.Upsert} {
			name := map[engine.Method]string{engine.Insert: "Insert", engine.Upsert: "Merge"}[m]
			t.Run(name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), caseWait)
				defer cancel()
				tbl := l.adapt(stringsTable(ceiling), "STR_"+strings.ToUpper(name))
				_, s := l.engineSession(t, ctx, tbl)
				var want, mixed []map[string]string
				for i, sz := range sizes {
					// Alone in a batch: the column's bind class is chosen
					// by this value alone.
					r := row(i+1, sz.s)
					if _, err := s.Load(ctx, []engine.Step{write(tbl, m, r)}); err != nil {
						t.Errorf("%s bytes alone: %v", sz.name, err)
						continue
					}
					if m == engine.Upsert {
						// Again with other text: MERGE's update path.
						const mark = "UPDATED-" // 8 bytes: a character boundary of every size's text
						r = row(i+1, mark+sz.s[len(mark):])
						if _, err := s.Load(ctx, []engine.Step{write(tbl, m, r)}); err != nil {
							t.Errorf("%s bytes, update: %v", sz.name, err)
							continue
						}
					}
					want = append(want, r)
					mixed = append(mixed, row(100+i, sz.s), map[string]string{"ID": strconv.Itoa(200 + i)})
				}
				if _, err := s.Load(ctx, []engine.Step{write(tbl, m, mixed...)}); err != nil {
					t.Errorf("all sizes and NULLs in one batch: %v", err)
				} else {
					want = append(want, mixed...)
				}
				l.expectRows(t, ctx, tbl, want)
			})
		}
	})

	t.Run("NationalAndLongBinds", func(t *testing.T) {
		for _, m := range []engine.Method{engine.Insert, engine.Upsert} {
			name := map[engine.Method]string{engine.Insert: "Insert", engine.Upsert: "Merge"}[m]
			t.Run(name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), caseWait)
				defer cancel()
				tbl := l.adapt(bindsTable(), "BINDS_"+strings.ToUpper(name))
				_, s := l.engineSession(t, ctx, tbl)
				rows := bindsRows("x")
				if _, err := s.Load(ctx, []engine.Step{write(tbl, m, rows...)}); err != nil {
					t.Fatalf("load: %v", err)
				}
				l.expectRows(t, ctx, tbl, rows)
				if m == engine.Upsert {
					rows = bindsRows("y")
					rows[0], rows[2] = rows[2], rows[0] // long values move between rows
					rows[0]["ID"], rows[2]["ID"] = "1", "3"
					if _, err := s.Load(ctx, []engine.Step{write(tbl, m, rows...)}); err != nil {
						t.Fatalf("update: %v", err)
					}
					l.expectRows(t, ctx, tbl, rows)
				}
			})
		}
	})

	t.Run("SessionTimeZoneAndNLSBeforeSetup", func(t *testing.T) {
		for i, sc := range tzScenarios() {
			t.Run(sc.name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), caseWait)
				defer cancel()
				db, err := connect.OpenWrapped(ctx, l.cfg, slog.Default(), nil)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { db.Close() }) // after the engine's Close
				var dials atomic.Int64
				start := time.Now().UTC()
				tbl := l.runScenario(t, ctx, sc, fmt.Sprintf("%sTZ%d_", l.prefix, i), hostileDialer(db, &dials))
				if dials.Load() == 0 {
					t.Error("the hostile dialer was not used")
				}
				for _, r := range tbl.rows {
					at, err := time.Parse(time.RFC3339Nano, r["_SDC_LOADED_AT"])
					if err != nil || at.Before(start.Add(-time.Hour)) || at.After(time.Now().Add(time.Hour)) {
						t.Errorf("_SDC_LOADED_AT %q (%v) is not the UTC time of the load (%s)", r["_SDC_LOADED_AT"], err, start.Format(time.RFC3339))
					}
				}
			})
		}
	})

	t.Run("NothingOnStdout", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), caseWait)
		defer cancel()
		first, update := typesRecords("out")
		input := lines(append(append([]string{typesSchema("out")}, first...), update...)...) +
			lines(`{"type":"STATE","value":{"n":1}}`)
		// Everything that may fail the test runs before or after the
		// capture: t.Fatal inside it would leave the pipe open.
		methods := []string{"upsert", "append-only"}
		cfgs := make([]*config.Config, len(methods))
		for i, m := range methods {
			cfgs[i] = liveConfig(t, l.dsn, `{"load_method": "`+m+`"}`)
			cfgs[i].TablePrefix = fmt.Sprintf("%sOUT%d_", l.prefix, i)
		}
		bad := narrowWrite(50, map[int]string{7: "toolong-toolong"})
		bad.Table = l.adapt(narrow(), "OUT_BAD")
		var errs []string
		var states []string
		out, err := captureStdout(func() {
			errs, states = l.wholeLoad(ctx, cfgs, input, bad)
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range errs {
			t.Error(e)
		}
		if len(states) == 0 {
			t.Error("the load wrote no state line (so it did not run)")
		}
		if len(out) != 0 {
			t.Errorf("%d bytes printed to stdout during a load: %q", len(out), short(string(out)))
		}
	})

	t.Run("Boolean23ai", func(t *testing.T) {
		if !l.facts.BooleanNative {
			t.Skipf("no native BOOLEAN columns here (server %s, boolean_type %q)", l.info.Version, l.cfg.BooleanType)
		}
		for i, sc := range booleanScenarios() {
			t.Run(sc.name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), caseWait)
				defer cancel()
				tbl := l.runScenario(t, ctx, sc, fmt.Sprintf("%sB%d_", l.prefix, i), nil)
				var dataType string
				err := l.db.QueryRowContext(ctx, `SELECT DATA_TYPE FROM ALL_TAB_COLUMNS WHERE OWNER = :1 AND TABLE_NAME = :2 AND COLUMN_NAME = 'FLAG'`,
					tbl.def.Schema, tbl.def.Name).Scan(&dataType)
				if err != nil || dataType != "BOOLEAN" {
					t.Errorf("FLAG is %q (%v), want BOOLEAN", dataType, err)
				}
			})
		}
	})
}

// TestLiveGate: the suite skips without a DSN, fails without one when CI
// requires Oracle, and runs with one.
func TestLiveGate(t *testing.T) {
	for _, c := range []struct {
		env             map[string]string
		dsn, skip, fail bool
	}{
		{env: nil, skip: true},
		{env: map[string]string{"TARGET_ORACLE_TEST_REQUIRE_ORACLE": "1"}, fail: true},
		{env: map[string]string{"TARGET_ORACLE_TEST_REQUIRE_ORACLE": "0"}, skip: true},
		{env: map[string]string{"TARGET_ORACLE_TEST_DSN": "oracle://u:p@h/s"}, dsn: true},
		{env: map[string]string{"TARGET_ORACLE_TEST_DSN": "oracle://u:p@h/s", "TARGET_ORACLE_TEST_REQUIRE_ORACLE": "1"}, dsn: true},
	} {
		dsn, skip, fail := liveGate(func(k string) string { return c.env[k] })
		if (dsn != "") != c.dsn || (skip != "") != c.skip || (fail != "") != c.fail {
			t.Errorf("%v: dsn %q skip %q fail %q", c.env, dsn, skip, fail)
		}
		if c.skip && skip != liveSkipMessage {
			t.Errorf("skip message %q", skip)
		}
	}
}

// TestNumberFromDump decodes DUMP texts of NUMBERs (Oracle's documented
// format) into canonical decimals.
func TestNumberFromDump(t *testing.T) {
	nines := "44" + strings.Repeat(",2", 19) + ",102"
	for _, c := range []struct{ dump, want string }{
		{"Typ=2 Len=1: 128", "0"},
		{"Typ=2 Len=2: 193,2", "1"},
		{"Typ=2 Len=3: 62,100,102", "-1"},
		{"Typ=2 Len=2: 194,2", "100"},
		{"Typ=2 Len=4: 194,2,24,46", "123.45"},
		{"Typ=2 Len=5: 61,100,78,56,102", "-123.45"},
		{"Typ=2 Len=2: 192,2", "0.01"},
		{"Typ=2 Len=2: 192,51", "0.5"},
		{"Typ=2 Len=2: 128,2", tinyText},
		{"Typ=2 Len=3: 127,100,102", "-" + tinyText},
		{"Typ=2 Len=3: 255,100,91", hugeText},
		{"Typ=2 Len=21: " + nines, "-" + strings.Repeat("9", 38)},
	} {
		got, err := verify.NumberFromDump(c.dump)
		if err != nil || got != c.want {
			t.Errorf("verify.NumberFromDump(%q) = %q, %v; want %q", c.dump, got, err, c.want)
		}
	}
	for _, bad := range []string{"NULL", "Typ=1 Len=1: 65", "Typ=2 Len=1: 0", "Typ=2 Len=2: 193,x"} {
		if got, err := verify.NumberFromDump(bad); err == nil {
			t.Errorf("verify.NumberFromDump(%q) = %q, want an error", bad, got)
		}
	}
}

func TestCanonicalDecimal(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1.50", "1.5"}, {"-0", "0"}, {"-0.0", "0"}, {"1E-5", "0.00001"}, {"12e2", "1200"},
		{"1e-130", tinyText}, {"9.99e125", hugeText}, {"-1.5e+1", "-15"},
		{"123456789012345678.901234567890123456", "123456789012345678.901234567890123456"},
	} {
		if got, _, err := value.CanonicalNumber(c.in); err != nil || got != c.want {
			t.Errorf("value.CanonicalNumber(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if got := verify.NormalJSON(`{"b":1.50,"a":[1E2,"x",null,true]}`); got != `{"a":[100,"x",null,true],"b":1.5}` {
		t.Errorf("normalizeJSON = %s", got)
	}
}

// The scenarios above, run here on the embedded engine and on the Oracle
// engine over the fake server: their exact expectations hold for the
// model, so a failure on a real server is the server (or go-ora)
// disagreeing with the model, not a wrong expectation.

// modelServers are the server kinds the live suite meets: 19c defaults
// (and the 19c-like settings) and 23ai with extended strings.
var modelServers = map[string]pipeline.Server{
	"19c":           {DefaultSchema: schemaName, IdentifierMaxBytes: 128, VarcharMaxBytes: 4000},
	"23ai-extended": {DefaultSchema: schemaName, IdentifierMaxBytes: 128, VarcharMaxBytes: 32767, BooleanNative: true, JSONNative: true},
}

func modelRun(t *testing.T, eng engine.Engine, srv pipeline.Server, sc liveScenario, prefix string) {
	t.Helper()
	for _, in := range sc.inputs {
		cfg := loadConfig(t, prefixed(sc.settings, prefix))
		cfg.TablePrefix = prefix
		err := pipeline.Run(context.Background(), pipeline.Options{
			Config: cfg, Engine: eng, Server: srv, Input: strings.NewReader(in), StateOut: io.Discard, Now: clock,
		})
		if err != nil {
			t.Fatalf("load: %v", err)
		}
	}
}

func TestLiveScenariosHoldOnTheModel(t *testing.T) {
	var all []liveScenario
	all = append(all, typeScenarios()...)
	all = append(all, tzScenarios()...)
	all = append(all, booleanScenarios()...)
	all = append(all, booleanTextScenarios()...)
	for srvName, srv := range modelServers {
		for i, sc := range all {
			prefix := fmt.Sprintf("M%d_", i)
			q := schemaName + "." + prefix + sc.table
			t.Run(srvName+"/"+sc.table+"/"+sc.name+"/embedded", func(t *testing.T) {
				m := newMemory()
				modelRun(t, m, srv, sc, prefix)
				def := m.Tables()[q]
				if def == nil {
					t.Fatalf("no table %s", q)
				}
				sc.check(t, liveTable{def: def, rows: m.Rows(q)})
			})
			t.Run(srvName+"/"+sc.table+"/"+sc.name+"/fake", func(t *testing.T) {
				r := newRig(t, oracle.Options{MaxStringBytes: srv.VarcharMaxBytes}, oraclesql.Options{})
				modelRun(t, r.eng, srv, sc, prefix)
				def, err := r.eng.Describe(context.Background(), schemaName, prefix+sc.table)
				if err != nil || def == nil {
					t.Fatalf("describe %s: %v", q, err)
				}
				sc.check(t, liveTable{def: def, rows: r.db.Rows(q)})
			})
		}
	}
}

// TestLiveEngineRowsHoldOnTheFake loads the rows of the engine-level risk
// tests through the engine over the fake server and reads them back: the
// expected rows are in the stored forms the server gives back.
func TestLiveEngineRowsHoldOnTheFake(t *testing.T) {
	for srvName, srv := range modelServers {
		t.Run(srvName, func(t *testing.T) {
			l := &liveDB{facts: connect.Facts{DefaultSchema: schemaName, VarcharMaxBytes: srv.VarcharMaxBytes,
				BooleanNative: srv.BooleanNative, JSONNative: srv.JSONNative}, prefix: "M_"}
			r := newRig(t, oracle.Options{MaxStringBytes: srv.VarcharMaxBytes}, oraclesql.Options{})
			ctx := context.Background()
			expect := func(t *testing.T, tbl *table.Table, want []map[string]string) {
				t.Helper()
				got := r.db.Rows(tbl.QualifiedName())
				for _, g := range got {
					delete(g, "_SDC_LOADED_AT")
				}
				compareRows(t, tbl.QualifiedName(), tbl, tbl, got, want, nil)
			}

			arr := l.adapt(arrayTable(), "ARRAY")
			str := l.adapt(stringsTable(srv.VarcharMaxBytes), "STRINGS")
			s := session(t, r, arr, str)
			rows := arrayRows(arr, 2000, false)
			if res, err := s.Load(ctx, []engine.Step{write(arr, engine.Insert, rows...)}); err != nil || res.Inserted != 2000 {
				t.Fatalf("insert: %+v %v", res, err)
			}
			expect(t, arr, rows)
			changed := arrayRows(arr, 2000, true)
			if _, err := s.Load(ctx, []engine.Step{write(arr, engine.Upsert, changed...)}); err != nil {
				t.Fatalf("merge: %v", err)
			}
			expect(t, arr, changed)

			var want []map[string]string
			for i, v := range []string{strings.Repeat("a", 4000), strings.Repeat("b", 4001), strings.Repeat("😀", 8192)} {
				r := map[string]string{"ID": strconv.Itoa(i + 1), "C": v, "NC": v}
				if len(v) <= srv.VarcharMaxBytes {
					r["V"] = v
				}
				want = append(want, r, map[string]string{"ID": strconv.Itoa(i + 100)})
			}
			if _, err := s.Load(ctx, []engine.Step{write(str, engine.Upsert, want...)}); err != nil {
				t.Fatalf("strings: %v", err)
			}
			expect(t, str, want)

			bt := l.adapt(bindsTable(), "BINDS")
			sbt := session(t, r, bt)
			for _, tag := range []string{"x", "y"} {
				rows := bindsRows(tag)
				if _, err := sbt.Load(ctx, []engine.Step{write(bt, engine.Upsert, rows...)}); err != nil {
					t.Fatalf("national and long binds: %v", err)
				}
				expect(t, bt, rows)
			}

			bad := l.adapt(badTable(), "BAD")
			sb := session(t, r, bad)
			w := write(bad, engine.Insert, map[string]string{"ID": "1", "V": "ok"}, map[string]string{"ID": "2", "V": "12345678901"})
			_, err := sb.Load(ctx, []engine.Step{w})
			var oe *oracle.Error
			if !errors.As(err, &oe) || oe.Code != 12899 || oe.Line != 2 {
				t.Errorf("bad row: %v", err)
			}
		})
	}
}
