package verify

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	go_ora "github.com/sijms/go-ora/v2"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/connect"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/pipeline"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/testkit"
)

const schemaName = "LOADER"

// rig is a verify run on the fake Oracle, built as the CLI builds it.
type rig struct {
	db    *fake.DB
	cfg   *config.Config
	facts connect.Facts
	clock time.Time
	privs []string
}

func newRig(t *testing.T, settings string) *rig {
	t.Helper()
	cfg := testkit.Config(t, settings)
	r := &rig{cfg: cfg, clock: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		privs: []string{"CREATE SESSION", "CREATE TABLE"}}
	r.db = fake.New(fake.Options{Schema: schemaName, Now: func() time.Time { return r.clock }})
	info := testkit.Server19(schemaName)
	info.Edition = "Enterprise Edition"
	r.facts = info.Resolve(cfg)
	return r
}

func (r *rig) options() Options {
	srv := pipeline.Server{DefaultSchema: r.facts.DefaultSchema, UserSchema: schemaName, IdentifierMaxBytes: r.facts.IdentifierMaxBytes,
		VarcharMaxBytes: r.facts.VarcharMaxBytes, BooleanNative: r.facts.BooleanNative, JSONNative: r.facts.JSONNative, NationalNeeded: r.facts.National,
		VectorNative: r.facts.VectorNative}
	eng := oracle.New(r.db.Dial, oraclesql.New(oraclesql.Options{IdentifierMaxBytes: r.facts.IdentifierMaxBytes}), oracle.Options{
		MaxStringBytes: r.facts.VarcharMaxBytes, Charset: r.facts.Server.DBCharset, NationalCharsetID: oracle.CharsetID(r.facts.Server.NCharset),
		Sleep: func(context.Context, time.Duration) error { return nil },
	})
	return Options{
		Config: r.cfg, Facts: r.facts, Server: srv, Engine: eng, Dial: r.db.Dial,
		Check: func(context.Context) (connect.Report, error) {
			return connect.Evaluate(r.cfg, r.facts, connect.Access{User: schemaName, Schema: schemaName, SchemaExists: true,
				Privileges: r.privs, UserTablespace: "USERS", UserQuotas: []connect.Quota{{Tablespace: "USERS", MaxBytes: -1}}}), nil
		},
	}
}

// scratchTables are the fake's tables of the verify prefix.
func (r *rig) scratchTables() []string {
	var out []string
	for _, q := range r.db.Tables() {
		if strings.Contains(q, config.VerifyPrefix) {
			out = append(out, q)
		}
	}
	return out
}

func failures(rep *Report) []string {
	var out []string
	for _, c := range rep.Results {
		if c.Status != Pass {
			out = append(out, string(c.Status)+" "+c.Path+" "+c.Case+": "+c.Detail+" expected "+c.Expected+" got "+c.Got)
		}
	}
	return append(out, rep.Errors...)
}

// TestVerifyPasses: every case of SPEC §2 on every write path, in the
// table of the user's settings and the national one, lands as the
// embedded engine stores it; the tables are dropped with PURGE.
func TestVerifyPasses(t *testing.T) {
	r := newRig(t, "")
	rep, err := Run(context.Background(), r.options())
	if err != nil {
		t.Fatal(err)
	}
	if f := failures(rep); len(f) > 0 || !rep.OK() {
		t.Fatalf("verify failed on the fake:\n%s", strings.Join(f, "\n"))
	}
	if len(rep.Tables) != 5 || len(rep.Dropped) != 5 {
		t.Fatalf("tables %v, dropped %v: want the settings' table, the national one, the binary-key one, the date-time-key one and the history one, all dropped", rep.Tables, rep.Dropped)
	}
	if left := r.scratchTables(); len(left) > 0 {
		t.Errorf("scratch tables left: %v", left)
	}
	// Every bind class of the engine carried a case: VARCHAR and national
	// VARCHAR (the two tables), LONG binds (long CLOB values in an INSERT
	// and a split upsert's UPDATE) and temporary LOBs (long NCLOB values).
	if l := r.db.LOBs(); l.TempLOBs == 0 || l.LongBinds == 0 {
		t.Errorf("LOB statistics %+v: want temporary LOBs and LONG binds among the cases", l)
	}
	purged := 0
	for _, s := range r.db.Statements() {
		if strings.HasPrefix(s, "DROP TABLE ") && strings.HasSuffix(s, " PURGE") {
			purged++
		}
	}
	if purged != 5 {
		t.Errorf("%d DROP TABLE … PURGE statements, want 5", purged)
	}
	binary := casesFor(keyRaw, Cases(r.facts.VarcharMaxBytes))
	dateTimes := casesFor(keyDateTime, Cases(r.facts.VarcharMaxBytes))
	want := len(Cases(r.facts.VarcharMaxBytes)) + len(Cases(r.facts.VarcharMaxBytes/2)) + len(binary) + len(dateTimes)
	// The history table: its cases after each of its three runs, and its shape.
	history := 1
	for _, run := range historyRuns() {
		history += len(historyCasesOf(run))
	}
	if got := len(rep.Results); got != 3*want+4+history || len(binary) < 10 || len(dateTimes) < 5 {
		t.Errorf("%d results, want %d (3 paths per case, the four shapes, %d history results); %d binary cases, %d date-time cases", got, 3*want+4+history, history, len(binary), len(dateTimes))
	}
	// The date-time-key table: a TIMESTAMP(9) primary key (never WITH
	// TIME ZONE: ORA-02329, which the fake raises too), MERGE ON it.
	var created, mergedTS bool
	for _, s := range r.db.Statements() {
		created = created || strings.Contains(s, rep.Tables[3]+`" ("K" TIMESTAMP(9) NOT NULL`)
		mergedTS = mergedTS || strings.HasPrefix(s, "MERGE INTO \"LOADER\".\""+rep.Tables[3]+"\"")
	}
	if !created || !mergedTS {
		t.Errorf("date-time-key table %s: CREATE with a TIMESTAMP(9) key %v, MERGE %v", rep.Tables[3], created, mergedTS)
	}
	// The binary-key table: a RAW(16) key, MERGE ON a RAW bind, the
	// readback by HEXTORAW.
	var merged, read bool
	for _, s := range r.db.Statements() {
		merged = merged || strings.HasPrefix(s, "MERGE INTO \"LOADER\".\""+rep.Tables[2]+"\"")
		read = read || strings.Contains(s, rep.Tables[2]+`" WHERE "K" = HEXTORAW(:1)`)
	}
	if !merged || !read {
		t.Errorf("binary-key table %s: MERGE %v, readback by HEXTORAW %v", rep.Tables[2], merged, read)
	}
	paths := map[string]int{}
	for _, c := range rep.Results {
		paths[c.Path]++
	}
	if paths["insert"] == 0 || paths["merge-insert"] == 0 || paths["merge-update"] == 0 ||
		paths["history-insert"] != 5 || paths["history-close"] != 5 || paths["history-rerun"] != 1 {
		t.Errorf("paths %v", paths)
	}
	text, js := testkit.Reports(t, rep.Write)
	if !strings.Contains(text, "every value path landed exactly") || !strings.Contains(text, "character set (database): AL32UTF8") {
		t.Errorf("text report:\n%s", text)
	}
	var decoded struct {
		OK      bool
		Results []Result
	}
	if err := json.Unmarshal(js, &decoded); err != nil || !decoded.OK || len(decoded.Results) != len(rep.Results) {
		t.Errorf("json report: %v, ok %v, %d results", err, decoded.OK, len(decoded.Results))
	}
}

// TestVerifyCatchesAChangedByte: the server returns one changed byte of a
// value; verify fails that case on every path, with the expected and the
// returned text and the DUMP of the value, and still drops its tables.
func TestVerifyCatchesAChangedByte(t *testing.T) {
	r := newRig(t, "")
	r.db.SetTamper(func(column, text string) string {
		if column == "SC" && text == "€" {
			return "\xe2\x82\xad" // U+20AD, one byte off
		}
		return text
	})
	o := r.options()
	o.Only = func(c Case) bool { return c.Property == "sc" }
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() {
		t.Fatal("verify passed although the server returned a changed byte")
	}
	var bad []Result
	for _, c := range rep.Results {
		if c.Status == Fail {
			bad = append(bad, c)
		}
	}
	// Both tables (settings, national) and the three paths of the one case.
	if len(bad) != 6 {
		t.Fatalf("%d failures, want 6: %v", len(bad), failures(rep))
	}
	for _, c := range bad {
		if c.Case != "string with 3-byte UTF-8" || c.Expected != "€" || c.Got != "\u20ad" || c.Column != "SC" ||
			!strings.Contains(c.Dump, "e2,82,ac") {
			t.Errorf("failure %+v", c)
		}
	}
	var text bytes.Buffer
	_ = rep.Write(&text, "text")
	if !strings.Contains(text.String(), "FAIL ") || !strings.Contains(text.String(), "verify: FAILED") {
		t.Errorf("text report:\n%s", text.String())
	}
	if left := r.scratchTables(); len(left) > 0 {
		t.Errorf("scratch tables left: %v", left)
	}
}

// TestVerifyCleansUpAfterFailures: a row error on one INSERT fails that
// case only; a connection lost while reading back fails the run; either
// way the scratch tables are dropped (on a fresh session).
func TestVerifyCleansUpAfterFailures(t *testing.T) {
	t.Run("row error", func(t *testing.T) {
		r := newRig(t, "")
		r.db.Inject(fake.Fault{Op: fake.OpInsert, Match: "😀", Code: 600, Times: 100})
		o := r.options()
		o.Only = func(c Case) bool { return c.Property == "sc" || c.Property == "j" }
		rep, err := Run(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		if rep.OK() {
			t.Fatal("verify passed despite the injected ORA-00600")
		}
		// The INSERT fails, and so the update row it writes for the
		// MERGE to update; the MERGE of a new key passes.
		fails := 0
		for _, c := range rep.Results {
			if c.Status != Fail {
				continue
			}
			fails++
			if c.Path == "merge-insert" || !strings.Contains(c.Detail, "ORA-00600") {
				t.Errorf("unexpected failure %+v", c)
			}
		}
		if fails == 0 {
			t.Error("no case failed")
		}
		if left := r.scratchTables(); len(left) > 0 {
			t.Errorf("scratch tables left: %v", left)
		}
	})
	t.Run("connection lost on queries", func(t *testing.T) {
		r := newRig(t, "")
		r.db.Inject(fake.Fault{Op: fake.OpQuery, Nth: 30, Times: 1000})
		o := r.options()
		o.Only = func(c Case) bool { return c.Property == "sc" || c.Property == "i" }
		rep, _ := Run(context.Background(), o)
		if rep.OK() {
			t.Fatal("verify passed although reads failed")
		}
		if left := r.scratchTables(); len(left) > 0 {
			t.Errorf("scratch tables left: %v (dropped %v, errors %v)", left, rep.Dropped, rep.Errors)
		}
	})
}

// stopDialer wraps the fake's sessions: the first INSERT cancels the run's
// context before it reaches the server, as SIGTERM in the middle of a
// load does (the CLI cancels the context on a signal).
func stopDialer(db *fake.DB, cancel context.CancelFunc, stopped *bool) oracle.Dialer {
	return func(ctx context.Context) (oracle.Conn, error) {
		c, err := db.Dial(ctx)
		if err != nil {
			return nil, err
		}
		return stopConn{Conn: c, cancel: cancel, stopped: stopped}, nil
	}
}

type stopConn struct {
	oracle.Conn
	cancel  context.CancelFunc
	stopped *bool
}

func (c stopConn) Begin(ctx context.Context) (oracle.Tx, error) {
	tx, err := c.Conn.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return stopTx{Tx: tx, cancel: c.cancel, stopped: c.stopped}, nil
}

type stopTx struct {
	oracle.Tx
	cancel  context.CancelFunc
	stopped *bool
}

func (t stopTx) Exec(ctx context.Context, st *oraclesql.Statement, args []any) (int64, error) {
	if strings.HasPrefix(st.SQL, "INSERT ") {
		*t.stopped = true
		t.cancel()
	}
	return t.Tx.Exec(ctx, st, args)
}

// TestVerifyCleansUpAfterSignal: a signal (the cancelled context) in the
// middle of the first INSERT stops the run; the table it created is
// dropped all the same, and the report says it stopped.
func TestVerifyCleansUpAfterSignal(t *testing.T) {
	r := newRig(t, "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := r.options()
	stopped := false
	o.Engine = oracle.New(stopDialer(r.db, cancel, &stopped), oraclesql.New(oraclesql.Options{}), oracle.Options{
		Sleep: func(context.Context, time.Duration) error { return nil }})
	rep, err := Run(ctx, o)
	if err == nil || !rep.Stopped || rep.OK() {
		t.Fatalf("err %v, stopped %v, ok %v: want a stopped run", err, rep.Stopped, rep.OK())
	}
	if len(rep.Tables) != 1 || len(rep.Dropped) != 1 {
		t.Errorf("tables %v, dropped %v", rep.Tables, rep.Dropped)
	}
	if left := r.scratchTables(); len(left) > 0 {
		t.Errorf("scratch tables left: %v", left)
	}
	if !stopped {
		t.Error("no INSERT was attempted: the stop did not come in the middle of a load")
	}
}

// TestVerifyChecksFirst: without CREATE TABLE nothing is created and the
// report names the missing privilege and its GRANT.
func TestVerifyChecksFirst(t *testing.T) {
	r := newRig(t, "")
	r.privs = []string{"CREATE SESSION"}
	rep, err := Run(context.Background(), r.options())
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || rep.CheckOK || !strings.Contains(strings.Join(rep.Missing, ","), "CREATE TABLE") {
		t.Fatalf("report %+v", rep)
	}
	if n := len(r.db.Statements()); n != 0 {
		t.Errorf("%d statements ran; want none before the check passes: %v", n, r.db.Statements())
	}
	var text bytes.Buffer
	_ = rep.Write(&text, "text")
	if !strings.Contains(text.String(), "GRANT CREATE TABLE") {
		t.Errorf("text report:\n%s", text.String())
	}
}

// TestVerifyDropsOldLeftoversOnly: scratch tables older than an hour are
// dropped at start; a younger one (a run under way) and a table that only
// looks alike are left.
func TestVerifyDropsOldLeftoversOnly(t *testing.T) {
	r := newRig(t, "")
	for _, n := range []string{"TARGET_ORACLE$VERIFY_DEADBEEF", "TARGET_ORACLE$VERIFY_0000AAAA", "TARGET_ORACLE$VERIFY_KEEPME"} {
		if _, err := r.db.Exec(oraclesql.Statement{SQL: `CREATE TABLE "LOADER"."` + n + `" ("ID" NUMBER)`, Kind: oraclesql.KindDDL}); err != nil {
			t.Fatal(err)
		}
	}
	r.db.SetCreated("LOADER.TARGET_ORACLE$VERIFY_DEADBEEF", r.clock.Add(-2*time.Hour))
	r.db.SetCreated("LOADER.TARGET_ORACLE$VERIFY_KEEPME", r.clock.Add(-2*time.Hour))
	o := r.options()
	o.Only = func(c Case) bool { return c.Name == "boolean true" }
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rep.Leftovers, ",") != "TARGET_ORACLE$VERIFY_DEADBEEF" {
		t.Errorf("leftovers dropped %v", rep.Leftovers)
	}
	if got := strings.Join(r.scratchTables(), ","); got != "LOADER.TARGET_ORACLE$VERIFY_0000AAAA,LOADER.TARGET_ORACLE$VERIFY_KEEPME" {
		t.Errorf("tables left %s", got)
	}
}

// TestVerifyServers: the cases pass on the servers the loader adapts to —
// 23ai with native BOOLEAN and JSON and MAX_STRING_SIZE=EXTENDED, and a
// WE8MSWIN1252 database — and the report names the characters a
// character set cannot hold; with national_characters: never, values the
// database set cannot hold are skipped (the loader refuses them before
// sending), not failed.
func TestVerifyServers(t *testing.T) {
	for _, tc := range []struct {
		name, settings, charset, maxString string
		major, stringBind                  int
		skipped                            bool
		cannot                             string
	}{
		{name: "23ai extended", major: 23, maxString: "EXTENDED", stringBind: 32767},
		{name: "WE8MSWIN1252", major: 19, charset: "WE8MSWIN1252", cannot: "U+1F600"},
		{name: "WE8MSWIN1252 never national", settings: `{"national_characters":"never"}`, major: 19, charset: "WE8MSWIN1252", cannot: "U+1F600", skipped: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.settings)
			ms := 4000
			if tc.stringBind > 0 {
				ms = tc.stringBind
			}
			r.db = fake.New(fake.Options{Schema: schemaName, Now: func() time.Time { return r.clock }, Charset: tc.charset, MaxStringBytes: ms})
			info := connect.ServerInfo{Version: "23.5.0.24.07", Major: tc.major, Compatible: "23.0.0", MaxStringSize: "STANDARD",
				IdentifierMaxBytes: 128, DBCharset: "AL32UTF8", NCharset: "AL16UTF16", CurrentSchema: schemaName, SessionUser: schemaName}
			if tc.maxString != "" {
				info.MaxStringSize, info.StringBindBytes = tc.maxString, tc.stringBind
			}
			if tc.major >= 23 {
				info.BooleanType, info.JSONType, info.VectorType = true, true, true
			}
			if tc.charset != "" {
				info.DBCharset = tc.charset
			}
			r.facts = info.Resolve(r.cfg)
			o := r.options()
			o.Only = func(c Case) bool { return !strings.Contains(c.Name, "1 MB") }
			rep, err := Run(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			var failed, skipped []string
			for _, c := range rep.Results {
				switch c.Status {
				case Fail:
					failed = append(failed, c.Path+" "+c.Case+": "+c.Detail)
				case Skipped:
					skipped = append(skipped, c.Case)
				}
			}
			if len(failed) > 0 || len(rep.Errors) > 0 {
				t.Fatalf("failures:\n%s\n%v", strings.Join(failed, "\n"), rep.Errors)
			}
			if tc.skipped != (len(skipped) > 0) || !rep.OK() {
				t.Errorf("skipped %v (want some: %v), ok %v", skipped, tc.skipped, rep.OK())
			}
			db := rep.Charsets[0]
			if tc.cannot != "" && !strings.Contains(strings.Join(db.Cannot, " "), tc.cannot) || tc.cannot == "" && len(db.Cannot) > 0 {
				t.Errorf("database character set report %+v, want it to name %q", db, tc.cannot)
			}
			if tc.major >= 23 {
				types := map[string]string{}
				for _, c := range rep.Results {
					if c.Table == rep.Tables[0] {
						types[c.Property] = c.Type
					}
				}
				if types["b"] != "BOOLEAN" || types["j"] != "JSON" || types["s"] != "VARCHAR2(32767 BYTE)" ||
					types["v32"] != "VECTOR(3, FLOAT32)" || types["v64"] != "VECTOR(3, FLOAT64)" || types["vi8"] != "VECTOR(3, INT8)" {
					t.Errorf("types on 23ai: %v", types)
				}
				if !slices.ContainsFunc(r.db.Statements(), func(s string) bool { return strings.Contains(s, "FROM_VECTOR(") }) {
					t.Error("no FROM_VECTOR readback on 23ai")
				}
			}
			if left := r.scratchTables(); len(left) > 0 {
				t.Errorf("scratch tables left: %v", left)
			}
		})
	}
}

// The user's loading modes and table options do not reach the scratch
// table: a partitioning column the cases lack would be exit 2, a prune
// would remove other cases' rows, a rejected value would hide a mismatch.
func TestVerifyIgnoresModesAndTableOptions(t *testing.T) {
	r := newRig(t, `{"partitioning":{"column":"created_at","interval":"day"},"compression":"advanced","delete_missing":"soft","on_database_error":"reject","reject_path":"`+filepath.Join(t.TempDir(), "r.jsonl")+`"}`)
	rep, err := Run(context.Background(), r.options())
	if err != nil {
		t.Fatal(err)
	}
	if f := failures(rep); len(f) > 0 || !rep.OK() {
		t.Fatalf("verify failed:\n%s", strings.Join(f, "\n"))
	}
	for _, s := range r.db.Statements() {
		if strings.Contains(s, "PARTITION BY") || strings.Contains(s, "COMPRESS") {
			t.Errorf("a table option reached the scratch table: %s", s)
		}
	}
}

// TestVerifyBinaryCases: the binary properties are RAW(1), RAW(16),
// RAW(2000) and BLOB columns (the run turns interpret_content_encoding on
// for them), read back with RAWTOHEX and BLOB chunks; on 19c the vector
// properties are the JSON fallback's CLOB column.
func TestVerifyBinaryCases(t *testing.T) {
	r := newRig(t, "")
	o := r.options()
	o.Only = func(c Case) bool {
		return strings.HasPrefix(c.Property, "r") || c.Property == "bl" && !strings.Contains(c.Name, "1 MB") || strings.HasPrefix(c.Property, "v") && c.Property != "v"
	}
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if f := failures(rep); len(f) > 0 || !rep.OK() {
		t.Fatalf("verify failed on the fake:\n%s", strings.Join(f, "\n"))
	}
	types := map[string]string{}
	for _, c := range rep.Results {
		if c.Property != "" && c.Table == rep.Tables[0] {
			types[c.Property] = c.Type
		}
	}
	want := map[string]string{"r1": "RAW(1)", "r16": "RAW(16)", "r2k": "RAW(2000)", "bl": "BLOB",
		"v32": "CLOB", "v64": "CLOB", "vi8": "CLOB"} // JSON as CLOB
	for p, w := range want {
		if types[p] != w {
			t.Errorf("property %s: type %q, want %q", p, types[p], w)
		}
	}
	var rawHex, chunks bool
	for _, s := range r.db.Statements() {
		rawHex = rawHex || strings.Contains(s, `RAWTOHEX("R2K")`)
		chunks = chunks || strings.Contains(s, `RAWTOHEX(DBMS_LOB.SUBSTR("BL", TO_NUMBER(:1), TO_NUMBER(:2)))`)
	}
	if !rawHex || !chunks {
		t.Errorf("readback statements: RAWTOHEX of a RAW %v, BLOB chunks %v", rawHex, chunks)
	}
}

// TestVerifyBinaryBindRoutes: the BLOB cases travel by every bind route
// of the engine: a RAW bind up to 2000 bytes, a temporary BLOB for
// 2001–4000 bytes, LONG RAW beyond 4000 in an INSERT and in the UPDATE of
// a split upsert (the MERGE then carries the other columns).
func TestVerifyBinaryBindRoutes(t *testing.T) {
	for _, tc := range []struct {
		bytes         int
		insert, merge string // the upsert's route
	}{
		{1, "RAW", "RAW"},
		{2000, "RAW", "RAW"},
		{2001, "BLOB", "BLOB"},
		{4000, "BLOB", "BLOB"},
		{4001, "LONG RAW", "LONG RAW"},
		{32768, "LONG RAW", "LONG RAW"},
	} {
		name := "BLOB of " + bytesName(tc.bytes)
		t.Run(name, func(t *testing.T) {
			r := newRig(t, "")
			o := r.options()
			o.Only = func(c Case) bool { return c.Name == name }
			rep, err := Run(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			if f := failures(rep); len(f) > 0 || !rep.OK() || len(rep.Results) != 3*3+3 {
				t.Fatalf("verify failed (%d results):\n%s", len(rep.Results), strings.Join(f, "\n"))
			}
			if got := bindRoute(r.db.Args("INSERT"), tc.bytes); got != tc.insert {
				t.Errorf("INSERT: %q, want %q", got, tc.insert)
			}
			if got := bindRoute(append(r.db.Args("MERGE"), r.db.Args("UPDATE")...), tc.bytes); got != tc.merge {
				t.Errorf("upsert (MERGE, UPDATE): %q, want %q", got, tc.merge)
			}
		})
	}
}

// bindRoute is how a value of n bytes travelled in the executes: RAW,
// LONG RAW (a []byte over go-ora's 4000-byte RAW switch) or BLOB.
func bindRoute(executes [][]any, n int) string {
	for _, args := range executes {
		for _, a := range args {
			switch a := a.(type) {
			case [][]byte:
				for _, b := range a {
					if len(b) == n && n > 4000 {
						return "LONG RAW"
					} else if len(b) == n {
						return "RAW"
					}
				}
			case []go_ora.Blob:
				for _, b := range a {
					if len(b.Data) == n {
						return "BLOB"
					}
				}
			}
		}
	}
	return ""
}

// TestVerifyCatchesAChangedBinaryByte: one changed byte in a RAW's
// RAWTOHEX and in one BLOB chunk fails those cases, with the hexadecimal
// of the bytes around the difference.
func TestVerifyCatchesAChangedBinaryByte(t *testing.T) {
	r := newRig(t, "")
	r.db.SetTamper(func(column, text string) string {
		switch {
		case column == "R2K" && len(text) == 4000:
			return text[:101] + "E" + text[102:] // 00FF… : byte 51 becomes 0xFE
		case column == "BL" && len(text) == 4000: // the first 2000-byte chunk of the 4001-byte BLOB
			return text[:10] + "00" + text[12:]
		}
		return text
	})
	o := r.options()
	o.Only = func(c Case) bool { return c.Property == "r2k" || c.Name == "BLOB of 4001 bytes" }
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() {
		t.Fatal("verify passed although the server returned a changed byte")
	}
	fails := map[string]int{}
	for _, c := range rep.Results {
		if c.Status != Fail {
			continue
		}
		fails[c.Column]++
		switch c.Column {
		case "R2K":
			if c.Dump != strings.Repeat("00FF", 16) || !strings.Contains(c.Detail, "first difference at character 102") {
				t.Errorf("RAW failure %+v", c)
			}
		case "BL":
			if !strings.Contains(c.Detail, "first difference at character 11") || len(c.Dump) != 64 {
				t.Errorf("BLOB failure %+v", c)
			}
		}
	}
	// Three tables (settings, national, binary key), three paths each.
	if fails["R2K"] != 9 || fails["BL"] != 9 || len(fails) != 2 {
		t.Errorf("failures per column %v, want 9 each for R2K and BL: %v", fails, failures(rep))
	}
}

// TestVerifyVectorElementwise: on 23ai the vector cases are VECTOR(3, …)
// columns read back with FROM_VECTOR, whose number text (1.0E-001) is not
// the stored form's (0.1): the comparison is element by element after
// rounding to the format, so only a changed element fails.
func TestVerifyVectorElementwise(t *testing.T) {
	r := newRig(t, "")
	info := connect.ServerInfo{Version: "23.5.0.24.07", Major: 23, Compatible: "23.5.0", MaxStringSize: "STANDARD",
		IdentifierMaxBytes: 128, DBCharset: "AL32UTF8", NCharset: "AL16UTF16", CurrentSchema: schemaName, SessionUser: schemaName,
		BooleanType: true, JSONType: true, VectorType: true}
	r.facts = info.Resolve(r.cfg)
	tampered := false
	r.db.SetTamper(func(column, text string) string {
		if column == "VI8" && strings.HasPrefix(text, "[-128,127,") {
			tampered = true
			return "[-128,126," + strings.TrimPrefix(text, "[-128,127,")
		}
		return text
	})
	o := r.options()
	o.Only = func(c Case) bool { return strings.HasPrefix(c.Name, "vector ") }
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !tampered {
		t.Fatal("no FROM_VECTOR text of VI8 was read")
	}
	fails := map[string]int{}
	for _, c := range rep.Results {
		switch {
		case c.Status == Pass:
		case c.Column == "VI8" && c.Expected == "[-128,127,3]" && c.Got == "[-128,126,3]":
			fails[c.Column]++
		default:
			t.Errorf("result %+v", c)
		}
		if c.Property == "v64" && c.Type != "VECTOR(3, FLOAT64)" {
			t.Errorf("v64 is %s, want VECTOR(3, FLOAT64)", c.Type)
		}
	}
	if fails["VI8"] != 6 {
		t.Errorf("%d VI8 failures, want 6 (two tables, three paths): %v", fails["VI8"], failures(rep))
	}
}

// TestVerifyTopLevelJSONScalars: an untyped property ({}) is a JSON
// column that may hold a top-level scalar, which a CLOB's IS JSON check
// accepts only with RFC 8259 (COMPATIBLE >= 20; Oracle before 21c knows
// only objects and arrays at top level). --verify writes a string, a
// number and true there, so a server that refuses them says so before a
// load does. The fake accepts them, as the embedded engine does.
func TestVerifyTopLevelJSONScalars(t *testing.T) {
	r := newRig(t, "")
	o := r.options()
	o.Only = func(c Case) bool { return c.Property == "u" }
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if f := failures(rep); len(f) > 0 || !rep.OK() {
		t.Fatalf("verify failed on the fake:\n%s", strings.Join(f, "\n"))
	}
	seen := map[string]bool{}
	for _, c := range rep.Results {
		if c.Property == "u" {
			seen[c.Case] = true
			if c.Table == rep.Tables[0] && c.Type != "CLOB" {
				t.Errorf("%s: column type %q, want CLOB (JSON as CLOB on the 19c-like fake)", c.Case, c.Type)
			}
		}
	}
	for _, name := range []string{"untyped JSON: top-level string", "untyped JSON: top-level number", "untyped JSON: top-level true"} {
		if !seen[name] {
			t.Errorf("no result for case %q (results: %v)", name, seen)
		}
	}
}

// historyOnly runs the history table alone.
func historyOnly(c Case) bool { return c.Name == HistoryCase.Name }

// TestVerifyHistory: the history table runs every statement a history
// load issues, as the loader renders them — CREATE TABLE keyed on the key
// and a TIMESTAMP(9) _SDC_VALID_FROM, the read of stored versions FOR
// UPDATE, the UPDATE closing a version, the UPDATE moving an unchanged
// version's table version, the INSERT, ACTIVATE_VERSION's UPDATE — and a
// re-run of the second batch; every version is read back oldest first,
// its CLOB and BLOB by chunks named by key and valid-from, and passes;
// the table holds what the docs say and is dropped.
func TestVerifyHistory(t *testing.T) {
	r := newRig(t, "")
	o := r.options()
	o.Only = historyOnly
	var held []map[string]string
	o.Dial = func(ctx context.Context) (oracle.Conn, error) {
		// The rows as the re-run left them, read before the drop.
		if len(r.db.Tables()) > 0 {
			held = r.db.Rows(r.db.Tables()[0])
		}
		return r.db.Dial(ctx)
	}
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if f := failures(rep); len(f) > 0 || !rep.OK() {
		t.Fatalf("verify failed on the fake:\n%s", strings.Join(f, "\n"))
	}
	if len(rep.Tables) != 1 || len(rep.Dropped) != 1 || len(r.scratchTables()) > 0 {
		t.Fatalf("tables %v, dropped %v, left %v", rep.Tables, rep.Dropped, r.scratchTables())
	}
	name := `"LOADER"."` + rep.Tables[0] + `"`
	want := map[string]bool{
		`CREATE TABLE ` + name:                                         false,
		`"_SDC_VALID_FROM" TIMESTAMP(9) NOT NULL`:                      false,
		`PRIMARY KEY ("K", "_SDC_VALID_FROM")`:                         false,
		`FOR UPDATE`:                                                   false,
		`UPDATE ` + name + ` SET "_SDC_VALID_TO" = TO_TIMESTAMP(:1`:    false,
		`UPDATE ` + name + ` SET "_SDC_TABLE_VERSION" = TO_NUMBER(:1)`: false,
		`INSERT INTO ` + name:                                          false,
		`SET "_SDC_VALID_TO" = GREATEST("_SDC_VALID_FROM"`:             false,
		`WHERE "K" = :1 ORDER BY "_SDC_VALID_FROM"`:                    false,
		// The LOB columns, and their chunks read per version.
		`"C" CLOB`:  false,
		`"BL" BLOB`: false,
		`SELECT DBMS_LOB.SUBSTR("C", TO_NUMBER(:1), TO_NUMBER(:2)) FROM ` + name + ` WHERE "K" = :3 AND "_SDC_VALID_FROM" = TO_TIMESTAMP(:4`:            false,
		`SELECT RAWTOHEX(DBMS_LOB.SUBSTR("BL", TO_NUMBER(:1), TO_NUMBER(:2))) FROM ` + name + ` WHERE "K" = :3 AND "_SDC_VALID_FROM" = TO_TIMESTAMP(:4`: false,
	}
	for _, st := range r.db.Statements() {
		for w := range want {
			want[w] = want[w] || strings.Contains(st, w)
		}
	}
	for w, seen := range want {
		if !seen {
			t.Errorf("no statement with %s", w)
		}
	}
	// The history INSERT bound the long values as a load does: LONG and
	// LONG RAW past 4000 bytes, a temporary BLOB for 2001 bytes.
	if l := r.db.LOBs(); l.TempLOBs == 0 || l.LongBinds == 0 {
		t.Errorf("LOB statistics %+v: want temporary LOBs and LONG binds in the history INSERT", l)
	}
	// The versions on the fake, independently of the embedded engine: the
	// LOBs as their length in bytes and last character (BLOBs stored as
	// base64).
	lob := func(v string) string {
		if v == "" {
			return "-"
		}
		return fmt.Sprintf("%d%s", len(v), v[len(v)-1:])
	}
	var got []string
	for _, row := range held {
		got = append(got, row["K"]+" "+row["S"]+" "+row[table.MetaValidFrom]+" "+row[table.MetaValidTo]+" "+row[table.MetaIsCurrent]+" "+row[table.MetaTableVersion]+
			" "+lob(row["C"])+" "+lob(row["BL"]))
	}
	slices.Sort(got)
	const (
		jan, feb = "2024-01-01T00:00:00Z", "2024-02-01T00:00:00Z"
		day1     = "2030-01-01T00:00:00.123456Z"
		day2     = "2030-01-02T00:00:00.123456Z"
	)
	wantRows := []string{
		"h/batch no valid-from " + day1 + " " + day2 + " 0 1 - -",
		"h/change v1 " + jan + " " + feb + " 0 1 32767y 4=",
		"h/change v2 " + feb + "  1 2 32768y 5336=",
		"h/delete gone " + jan + " " + feb + " 0 1 - -",
		"h/lob  " + jan + " " + feb + " 0 1 32768y 43692=",
		"h/lob  " + feb + "  1 2 32768z 43692=",
		"h/new a 2024-01-01T00:00:00.123456789Z " + day2 + " 0 1 4001y 2668I",
		"h/same same " + jan + "  1 2 4001y 43692=",
		"h/twice first " + jan + " 2024-01-01T00:00:00.000000001Z 0 1 32768y 5336=",
		"h/twice second 2024-01-01T00:00:00.000000001Z " + day2 + " 0 1 5t -",
	}
	if !slices.Equal(got, wantRows) {
		t.Errorf("history rows on the fake:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantRows, "\n"))
	}
}

// breakCloseDialer wraps the fake's sessions: the UPDATE that closes
// history versions binds a key that matches no row, as a mis-rendered
// bind would; the statement runs and changes nothing.
func breakCloseDialer(db *fake.DB) oracle.Dialer {
	return func(ctx context.Context) (oracle.Conn, error) {
		c, err := db.Dial(ctx)
		if err != nil {
			return nil, err
		}
		return breakConn{Conn: c}, nil
	}
}

type breakConn struct{ oracle.Conn }

func (c breakConn) Begin(ctx context.Context) (oracle.Tx, error) {
	tx, err := c.Conn.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return breakTx{Tx: tx}, nil
}

type breakTx struct{ oracle.Tx }

func (t breakTx) Exec(ctx context.Context, st *oraclesql.Statement, args []any) (int64, error) {
	if strings.HasPrefix(st.SQL, "UPDATE ") && strings.Contains(st.SQL, `SET "_SDC_VALID_TO" = TO_TIMESTAMP(`) && len(args) > 2 {
		if keys, ok := args[2].([]sql.NullString); ok {
			wrong := make([]sql.NullString, len(keys))
			for i := range wrong {
				wrong[i] = sql.NullString{String: "no such key", Valid: true}
			}
			args = append(slices.Clone(args[:2]), append([]any{wrong}, args[3:]...)...)
		}
	}
	return t.Tx.Exec(ctx, st, args)
}

// TestVerifyCatchesABrokenHistoryStatement: a history statement the
// server refuses, one that runs but changes nothing, and a valid-from the
// server keeps to microseconds each fail the history cases they touch
// (and only those: an ordinary case beside them passes), and the tables
// are dropped all the same.
func TestVerifyCatchesABrokenHistoryStatement(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(r *rig, o *Options)
		// failed are the paths that must fail; detail is in each failure.
		failed []string
		detail string
	}{
		{name: "the server refuses the UPDATEs", failed: []string{"history-close", "history-rerun"}, detail: "ORA-00904",
			setup: func(r *rig, o *Options) { r.db.Inject(fake.Fault{Op: fake.OpUpdate, Code: 904, Times: 1000}) }},
		{name: "the close matches no row", failed: []string{"history-close", "history-rerun"}, detail: "column _SDC_VALID_TO: Oracle holds another value",
			setup: func(r *rig, o *Options) {
				o.Engine = oracle.New(breakCloseDialer(r.db), oraclesql.New(oraclesql.Options{IdentifierMaxBytes: r.facts.IdentifierMaxBytes}), oracle.Options{
					MaxStringBytes: r.facts.VarcharMaxBytes, Sleep: func(context.Context, time.Duration) error { return nil }})
			}},
		{name: "valid-from kept to microseconds", failed: []string{"history-insert", "history-close", "history-rerun"}, detail: "column _SDC_VALID_FROM: Oracle holds another value",
			setup: func(r *rig, o *Options) {
				r.db.SetTamper(func(column, text string) string {
					if column == table.MetaValidFrom && len(text) == len("2006-01-02T15:04:05.000000000") {
						return text[:len(text)-3] + "000"
					}
					return text
				})
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, "")
			o := r.options()
			// One ordinary case beside the history table: it passes, so
			// only the history case can fail the run.
			o.Only = func(c Case) bool { return historyOnly(c) || c.Name == "boolean true" }
			tc.setup(r, &o)
			rep, err := Run(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			if rep.OK() {
				t.Fatal("verify passed although a history statement was broken")
			}
			t.Logf("failures:\n%s", strings.Join(failures(rep), "\n"))
			failedPaths := map[string]bool{}
			for _, c := range rep.Results {
				if c.Status != Fail {
					continue
				}
				failedPaths[c.Path] = true
				if !slices.Contains(tc.failed, c.Path) {
					t.Errorf("unexpected failure %+v", c)
				}
			}
			for _, p := range tc.failed {
				if !failedPaths[p] {
					t.Errorf("no failure on %s: %v", p, failures(rep))
				}
			}
			if !slices.ContainsFunc(rep.Results, func(c Result) bool { return c.Status == Fail && strings.Contains(c.Detail, tc.detail) }) {
				t.Errorf("no failure with %q: %v", tc.detail, failures(rep))
			}
			if len(rep.Dropped) != len(rep.Tables) || len(rep.Tables) < 2 || len(r.scratchTables()) > 0 {
				t.Errorf("tables %v, dropped %v, left %v", rep.Tables, rep.Dropped, r.scratchTables())
			}
		})
	}
}

// TestVerifyDumpsTheDifferingVersion: when a history version's value
// differs, the report shows the DUMP of that version's value, found by key
// and valid-from, not of the key's first version: the second version of
// h/change holds "v2" where the first holds "v1", and of h/lob a 32768-byte
// CLOB ending in "z" where the first ends in "y".
func TestVerifyDumpsTheDifferingVersion(t *testing.T) {
	r := newRig(t, "")
	r.db.SetTamper(func(column, text string) string {
		switch {
		case column == "S" && text == "v2":
			return "v3"
		case column == "C" && strings.HasSuffix(text, "xz"):
			return strings.TrimSuffix(text, "z") + "q"
		}
		return text
	})
	o := r.options()
	o.Only = historyOnly
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() {
		t.Fatal("verify passed although the server returned changed values")
	}
	dumps := map[string]string{}
	for _, c := range rep.Results {
		if c.Status == Fail {
			dumps[c.Path+" "+c.Column] = c.Dump
		}
	}
	// "v2" and "v3" differ at character 2: the DUMP is of "2" (the first
	// version's would be "1"); the CLOB's at character 32768, "z" (the
	// first version's "y"). The re-run stops at h/change, its first key
	// that differs.
	want := map[string]string{
		"history-close S": "Typ=1 Len=1 CharacterSet=AL32UTF8: 32",
		"history-rerun S": "Typ=1 Len=1 CharacterSet=AL32UTF8: 32",
		"history-close C": "Typ=1 Len=1 CharacterSet=AL32UTF8: 7a",
	}
	if len(dumps) != len(want) {
		t.Errorf("failures %v, want %d: %v", dumps, len(want), failures(rep))
	}
	for k, w := range want {
		if dumps[k] != w {
			t.Errorf("%s: DUMP %q, want %q (failures %v)", k, dumps[k], w, dumps)
		}
	}
	var text bytes.Buffer
	_ = rep.Write(&text, "text")
	if !strings.Contains(text.String(), "      DUMP Typ=1 Len=1 CharacterSet=AL32UTF8: 32\n") {
		t.Errorf("text report without the DUMP:\n%s", text.String())
	}
}
