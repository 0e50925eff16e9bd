package oracle_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/engine"

	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// vmColumn is the column of property "v$m" since the fix of the tests
// below: a generated name ending in "$M" (a migration marker's) is
// treated as a collision, so it is V$M_<hash of "v$m">, never V$M.
var vmColumn = table.ColumnName("V$M", "v$m", table.MaxBytesLong)

// TestNoCommentsEnginesAgreeOnResume (from an attack): with
// column_comments: false nothing in the catalog records which property a
// column came from, so a later run matches columns by exact name, and two
// properties that conform to one name share a column across runs. Input:
// SCHEMA s {id, "a b"}, RECORD id 1, STATE 1, then SCHEMA s {id, "a_b"},
// RECORD id 2, STATE 2. In one run "a_b" takes A_B_648fa9b3 (the later
// property takes the suffix); split at STATE 1 (a resume, or the next
// scheduled run) "a_b" is loaded into A_B (docs/types.md says so: the
// same input gives the same names only with column_comments). The embedded
// engine hid it: it kept each column's source even without comments, so a
// dry run or the simulation showed A_B_648fa9b3 where Oracle gives A_B.
// Both engines must give what the catalog allows.
func TestNoCommentsEnginesAgreeOnResume(t *testing.T) {
	in1 := `{"type":"SCHEMA","stream":"s","schema":{"type":"object","properties":{"id":{"type":"integer"},"a b":{"type":["null","string"]}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":1,"a b":"space1"}}
{"type":"STATE","value":1}
`
	in2 := `{"type":"SCHEMA","stream":"s","schema":{"type":"object","properties":{"id":{"type":"integer"},"a_b":{"type":["null","string"]}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":2,"a_b":"under2"}}
{"type":"STATE","value":2}
`
	for _, settings := range []string{`{"column_comments":false}`, `{}`} {
		db := fake.New(fake.Options{Schema: schemaName, Now: clock})
		ora := oracle.New(oracle.Dialer(db.Dial), oraclesql.New(oraclesql.Options{ColumnComments: settings == `{}`}), oracle.Options{Sleep: instant})
		mem := memory.New(memory.Options{KeepRows: true, Now: clock, NoColumnComments: settings != `{}`})
		for _, in := range []string{in1, in2} {
			if _, err := run(t, ora, settings, in); err != nil {
				t.Fatal(err)
			}
			if _, err := run(t, mem, settings, in); err != nil {
				t.Fatal(err)
			}
		}
		column := func(rows []map[string]string) string {
			for _, r := range rows {
				if r["ID"] == "2" {
					for c, v := range r {
						if v == "under2" {
							return c
						}
					}
				}
			}
			return ""
		}
		o, m := column(db.Rows("DRY_RUN.S")), column(mem.Rows("DRY_RUN.S"))
		want := "A_B_648fa9b3"
		if settings != `{}` {
			want = "A_B" // matched by name: nothing else is in the catalog
		}
		if o != want || m != want {
			t.Errorf("%s: a_b of the second run is in column %q on the fake Oracle, %q on the embedded engine; want %q on both", settings, o, m, want)
		}
	}
}

// TestMigrationMarkerCollidesWithProperty: a migration of column V
// (here VARCHAR2(4000) -> CLOB for a 5000-byte value) adds its marker
// column V$M (table.DerivedName(col, "$M")), copies V into it, drops V and
// renames V$M to V. Nothing keeps a property from being named V$M: '$' is
// in the conformed alphabet, so property "v$m" is column V$M. Input
// (batch_size_rows 1):
//
//	SCHEMA s {id, v: string, "v$m": string}
//	RECORD {"id":1,"v":"a","v$m":"USERDATA1"}   STATE 1   (written)
//	RECORD {"id":2,"v":"x"×5000,"v$m":"USERDATA2"}
//
// On the fake Oracle and on the embedded engine alike the migration takes
// the user's V$M column for its marker: the UPDATE copies V only where
// V$M IS NULL, V is dropped, V$M is renamed V. Row 1, committed and
// covered by state 1, ends as V="USERDATA1" (v's "a" is gone) and the
// column of property "v$m" no longer exists; the run then fails with
// ORA-00904 "V$M". A resume from state 1 cannot restore row 1.
// Reproduction: target-oracle --dry-run --config {"batch_size_rows":1}
// --dry-run-dump d with the input above: d/tables/DRY_RUN.S.jsonl holds
// {"ID":1,"V":"USERDATA1",...}.
func TestMigrationMarkerCollidesWithProperty(t *testing.T) {
	x := strings.Repeat("x", 5000)
	in := `{"type":"SCHEMA","stream":"s","schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]},"v$m":{"type":["null","string"]}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":1,"v":"a","v$m":"USERDATA1"}}
{"type":"STATE","value":1}
{"type":"RECORD","stream":"s","record":{"id":2,"v":"` + x + `","v$m":"USERDATA2"}}
{"type":"STATE","value":2}
`
	const settings = `{"batch_size_rows":1}`
	check := func(engine string, rows []map[string]string) {
		t.Helper()
		for _, row := range rows {
			if row["ID"] != "1" {
				continue
			}
			if row["V"] != "a" || row[vmColumn] != "USERDATA1" {
				t.Errorf(`%s: committed row 1 is now V=%q V$M=%q; want V="a" and V$M="USERDATA1" (property "v$m")`, engine, row["V"], row[vmColumn])
			}
			return
		}
		t.Errorf("%s: committed row 1 is gone", engine)
	}
	r := defaultRig(t)
	states, err := run(t, r.eng, settings, in)
	if len(states) == 0 || states[0] != "1" {
		t.Fatalf("oracle: states %q, err %v; want state 1 written", states, err)
	}
	check("oracle (fake)", r.db.Rows("DRY_RUN.S"))
	m, _, _ := runMemory(t, settings, in)
	check("embedded", m.Rows("DRY_RUN.S"))
}

// TestPartitionColumnCollidesWithProperty: with partitioning on a
// WITH TIME ZONE column TS the table gets a virtual column TS$P
// (table.DerivedName(col, "$P")); a property "ts$p" is also column TS$P,
// and nothing makes the two names differ. CREATE TABLE lists "TS$P"
// twice. The fake Oracle refuses it (ORA-01430, the load fails with no
// line, stream or property named); the embedded engine accepts it, so
// --dry-run (exit 0, the duplicate column in statements.sql) and the real
// load disagree. Reproduction: target-oracle --dry-run --dry-run-dump d
// --config {"partitioning":{"column":"ts","interval":"day"}} with the
// input below; d/statements.sql: CREATE TABLE … "TS$P" VARCHAR2(4000
// BYTE), … "TS$P" TIMESTAMP(6) GENERATED ALWAYS AS (SYS_EXTRACT_UTC("TS")) VIRTUAL.
func TestPartitionColumnCollidesWithProperty(t *testing.T) {
	in := `{"type":"SCHEMA","stream":"s","schema":{"type":"object","properties":{"id":{"type":"integer"},"ts":{"type":"string","format":"date-time"},"ts$p":{"type":["null","string"]}},"required":["ts"]},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":1,"ts":"2020-01-01T00:00:00Z","ts$p":"mine"}}
{"type":"STATE","value":1}
`
	const settings = `{"partitioning":{"column":"ts","interval":"day"}}`
	r := defaultRig(t)
	states, err := run(t, r.eng, settings, in)
	if err != nil || len(states) != 1 {
		t.Errorf("oracle (fake): states %q, err %v; want the record loaded and state 1", states, err)
	}
	rows := r.db.Rows("DRY_RUN.S")
	if len(rows) != 1 || rows[0]["TS$P"] == "mine" {
		t.Errorf(`oracle (fake): rows %v; want one row with property "ts$p" in a column of its own`, rows)
	}
}

// TestRerunRenamesPropertyColumnEndingInM: the Oracle engine takes a
// column <C>$M without a column <C> for a migration killed after its old
// column was dropped, and finishes it by renaming <C>$M to <C>. A property
// named "v$m" is column V$M. Running the same input twice on the fake:
// after run 1 the table has ID, V$M; run 2 renames V$M to V (the user's
// column changes name under their queries), and a later property "v" then
// gets V_4c94485e while property "v$m" sits in V. The embedded engine
// keeps V$M (it knows no migration is running), so a dry run never shows
// it. Input: SCHEMA s {id, "v$m": string}, RECORD {"id":1,"v$m":"USERDATA1"},
// STATE 1; load it twice (oracle fake); this test without the Skip.
func TestRerunRenamesPropertyColumnEndingInM(t *testing.T) {
	in := `{"type":"SCHEMA","stream":"s","schema":{"type":"object","properties":{"id":{"type":"integer"},"v$m":{"type":["null","string"]}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":1,"v$m":"USERDATA1"}}
{"type":"STATE","value":1}
`
	r := defaultRig(t)
	for i := 1; i <= 2; i++ {
		if _, err := run(t, r.eng, `{}`, in); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		rows := r.db.Rows("DRY_RUN.S")
		if len(rows) != 1 || rows[0][vmColumn] != "USERDATA1" {
			t.Fatalf(`run %d: rows %v; want property "v$m" to stay in column V$M`, i, rows)
		}
	}
}

// TestAttackPropertyHoldsMetadataNameOfALaterSetting: a metadata column
// name is kept out of the property namespace only while the setting that
// needs it is on. Run 1 (defaults) loads property "_sdc_run_id" (a string)
// into column _SDC_RUN_ID. Run 2 on the same table with
// {"delete_missing":"soft"} refused a valid record as invalid input:
// `line 2: stream "s": property "_sdc_run_id": invalid date-time "again4":
// expected YYYY-MM-DDTHH:MM[:SS]` (exit 3): the schema says string, and
// the value is valid. In one run with delete_missing on from the start the
// property gets _SDC_RUN_ID_f02c46a1 and all is well. (Same shape: a
// property "_sdc_valid_from" loaded by upsert is then taken for history's
// _SDC_VALID_FROM, and the by-hand conversion printed for load_method
// history runs UPDATE … SET "_SDC_VALID_FROM" = TIMESTAMP '1970-01-01
// 00:00:00' over the user's values. And: run 1 with
// {"add_record_metadata":false} and a string property "_sdc_batched_at"
// (taps that copy another target's metadata columns send such
// properties), run 2 with defaults: `property "_sdc_batched_at": invalid
// date-time "mine"`, exit 3, on the same input that loaded in run 1.)
// Fake Oracle and embedded engine alike.
//
// The attack wanted run 2 to load. It cannot, exactly: the existing column
// holds the property's values (its comment names the property), and the
// setting needs a metadata column of that very name (SPEC §5.4, §6.2,
// §6.4: the names are fixed; a migration would rename a column under the
// user's queries). So run 2 is refused at the SCHEMA, before anything is
// written, with a configuration error (exit 2: the input alone is not
// wrong, it loaded in run 1; the settings ask for what this table cannot
// give) naming the property, the column and the setting; no state of run 2
// is written and the committed row is unchanged.
func TestAttackPropertyHoldsMetadataNameOfALaterSetting(t *testing.T) {
	for _, tc := range []struct {
		prop, column, before, after, setting string
	}{
		{"_sdc_run_id", "_SDC_RUN_ID", `{}`, `{"delete_missing":"soft"}`, "delete_missing"},
		{"_sdc_batched_at", "_SDC_BATCHED_AT", `{"add_record_metadata":false}`, `{}`, "add_record_metadata"},
		{"_sdc_valid_from", "_SDC_VALID_FROM", `{}`, `{"load_method":"history"}`, "load_method"},
	} {
		schema := `{"type":"SCHEMA","stream":"s","schema":{"type":"object","properties":{"id":{"type":"integer"},"` + tc.prop + `":{"type":["null","string"]}}},"key_properties":["id"]}` + "\n"
		in1 := schema + `{"type":"RECORD","stream":"s","record":{"id":1,"` + tc.prop + `":"mine"}}
{"type":"STATE","value":1}
`
		in2 := schema + `{"type":"RECORD","stream":"s","record":{"id":1,"` + tc.prop + `":"again4"}}
{"type":"STATE","value":2}
`
		db := fake.New(fake.Options{Schema: schemaName, Now: clock})
		ora := oracle.New(oracle.Dialer(db.Dial), oraclesql.New(oraclesql.Options{ColumnComments: true}), oracle.Options{Sleep: instant})
		mem := memory.New(memory.Options{KeepRows: true, Now: clock})
		for _, e := range []struct {
			name string
			eng  engine.Engine
			rows func() []map[string]string
		}{{"oracle (fake)", ora, func() []map[string]string { return db.Rows("DRY_RUN.S") }}, {"embedded", mem, func() []map[string]string { return mem.Rows("DRY_RUN.S") }}} {
			if states, err := run(t, e.eng, tc.before, in1); err != nil || len(states) != 1 {
				t.Fatalf("%s %s: run 1 %s: states %q, err %v", e.name, tc.prop, tc.before, states, err)
			}
			states, err := run(t, e.eng, tc.after, in2)
			var ce *config.Error
			if len(states) != 0 || !errors.As(err, &ce) {
				t.Errorf("%s %s: run 2 %s: states %q, err %v; want a configuration error (exit 2) and no state", e.name, tc.prop, tc.after, states, err)
				continue
			}
			for _, want := range []string{`stream "s"`, `property "` + tc.prop + `"`, `column ` + tc.column, tc.setting} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%s %s: run 2 error does not name %s: %v", e.name, tc.prop, want, err)
				}
			}
			rows := e.rows()
			if len(rows) != 1 || rows[0][tc.column] != "mine" {
				t.Errorf("%s %s: rows after run 2 %v; want row 1 with %s \"mine\" (run 1's) only", e.name, tc.prop, rows, tc.column)
			}
		}
	}
}

// TestRerunTakesPropertyColumnsForPendingMigration: the worst form
// of the marker collision, no widening needed. The Oracle engine's
// markers() takes any column V$M beside a column V for a migration of V
// whose copy was cut off, and re-runs it at the start of the next run:
// copy V into V$M where V$M IS NULL, drop V, rename V$M to V. Properties
// "v" and "v$m" are exactly columns V and V$M. Run 1: SCHEMA s {id, v,
// "v$m"}, RECORD {"id":1,"v":"a","v$m":"USERDATA1"}, RECORD {"id":2,"v":"b"},
// STATE 1. Run 2 (same SCHEMA, RECORD id 3, STATE 2), on the fake Oracle:
// row 1 is now V="USERDATA1" with V$M NULL: v's "a" is gone and "v$m"'s
// value sits in v's column; row 2 lost nothing only because its V$M was
// NULL. Both runs exit 0, no warning. The embedded engine keeps both
// columns, so a dry run cannot show it.
func TestRerunTakesPropertyColumnsForPendingMigration(t *testing.T) {
	schema := `{"type":"SCHEMA","stream":"s","schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]},"v$m":{"type":["null","string"]}}},"key_properties":["id"]}` + "\n"
	in1 := schema + `{"type":"RECORD","stream":"s","record":{"id":1,"v":"a","v$m":"USERDATA1"}}
{"type":"RECORD","stream":"s","record":{"id":2,"v":"b"}}
{"type":"STATE","value":1}
`
	in2 := schema + `{"type":"RECORD","stream":"s","record":{"id":3,"v":"c","v$m":"USERDATA3"}}
{"type":"STATE","value":2}
`
	r := defaultRig(t)
	for i, in := range []string{in1, in2} {
		if _, err := run(t, r.eng, `{}`, in); err != nil {
			t.Fatalf("run %d: %v", i+1, err)
		}
	}
	for _, row := range r.db.Rows("DRY_RUN.S") {
		if row["ID"] == "1" && (row["V"] != "a" || row[vmColumn] != "USERDATA1") {
			t.Errorf(`after run 2 row 1 is V=%q V$M=%q; run 1 committed V="a" V$M="USERDATA1"`, row["V"], row[vmColumn])
		}
	}
}
