package oracle_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// dbaDDL is a table a DBA made before the first run: an identity column,
// DEFAULT and DEFAULT ON NULL columns, a virtual and an invisible one.
const dbaDDL = `CREATE TABLE "DRY_RUN"."S" ("ID" NUMBER(38,0) NOT NULL, "V" VARCHAR2(100 BYTE),` +
	` "SEQ_NO" NUMBER GENERATED ALWAYS AS IDENTITY, "STATUS" VARCHAR2(10 BYTE) DEFAULT 'new' NOT NULL,` +
	` "TOUCHED" VARCHAR2(10 BYTE) DEFAULT ON NULL 'yes' NOT NULL, "TOTAL" NUMBER GENERATED ALWAYS AS ("ID" + 1) VIRTUAL,` +
	` "AUDIT" VARCHAR2(10 BYTE) INVISIBLE, CONSTRAINT "S_PK" PRIMARY KEY ("ID"))`

func adoptSchema(props string) string {
	return `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"}` + props + `}}}`
}

// TestAdoptDBATable runs the pipeline on a DBA's table on the fake
// (SPEC §5.5): the catalog's identity, DEFAULT, virtual and invisible
// facts decide what is bound, what the database fills and what fails at
// SCHEMA.
func TestAdoptDBATable(t *testing.T) {
	for _, c := range []struct {
		name    string
		input   []string
		wantErr string // "" for success
		check   func(t *testing.T, rows []map[string]string)
	}{
		{
			name: "the database fills what the schema does not",
			input: []string{adoptSchema(`,"v":{"type":["null","string"]}`),
				`{"type":"RECORD","stream":"s","record":{"id":1,"v":"a"}}`,
				`{"type":"RECORD","stream":"s","record":{"id":2,"v":"b"}}`},
			check: func(t *testing.T, rows []map[string]string) {
				if len(rows) != 2 {
					t.Fatalf("%d rows, want 2", len(rows))
				}
				for i, r := range rows {
					if r["SEQ_NO"] == "" || r["STATUS"] != "new" || r["TOUCHED"] != "yes" || r["AUDIT"] != "" {
						t.Errorf("row %d: %v, want the identity and the defaults", i, r)
					}
				}
				if rows[0]["SEQ_NO"] == rows[1]["SEQ_NO"] {
					t.Errorf("identity values %s and %s", rows[0]["SEQ_NO"], rows[1]["SEQ_NO"])
				}
			},
		},
		{
			name: "a property matched to a DEFAULT column is bound",
			input: []string{adoptSchema(`,"status":{"type":"string"},"touched":{"type":["null","string"]}`),
				`{"type":"RECORD","stream":"s","record":{"id":1,"status":"open","touched":null}}`},
			check: func(t *testing.T, rows []map[string]string) {
				if len(rows) != 1 || rows[0]["STATUS"] != "open" || rows[0]["TOUCHED"] != "yes" {
					t.Errorf("rows %v, want STATUS open and TOUCHED from its DEFAULT ON NULL", rows)
				}
			},
		},
		{
			name: "a record without a NOT NULL DEFAULT column's property is invalid input",
			input: []string{adoptSchema(`,"status":{"type":["null","string"]}`),
				`{"type":"RECORD","stream":"s","record":{"id":1}}`},
			wantErr: `property "status"`,
		},
		{
			name:    "a property matched to a virtual column fails at SCHEMA",
			input:   []string{adoptSchema(`,"total":{"type":["null","number"]}`)},
			wantErr: `"TOTAL", a virtual column`,
		},
		{
			name:    "a property matched to a GENERATED ALWAYS identity fails at SCHEMA",
			input:   []string{adoptSchema(`,"seq_no":{"type":["null","integer"]}`)},
			wantErr: `"SEQ_NO", a GENERATED ALWAYS identity column`,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := defaultRig(t)
			if _, err := r.db.Exec(oraclesql.Statement{SQL: dbaDDL, Kind: oraclesql.KindDDL}); err != nil {
				t.Fatal(err)
			}
			_, err := run(t, r.eng, `{"max_parallelism": 1}`, strings.Join(c.input, "\n")+"\n")
			switch {
			case c.wantErr == "" && err != nil:
				t.Fatalf("run: %v", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Fatalf("err = %v, want one with %s", err, c.wantErr)
			case c.wantErr != "":
				var ie *inputerr.Error // exit 3
				if !errors.As(err, &ie) {
					t.Errorf("err = %v, want invalid input (exit 3)", err)
				}
			}
			if c.check != nil {
				c.check(t, r.db.Rows("DRY_RUN.S"))
			}
		})
	}
}

// TestMigrationLocksEachChunk: every chunk of a rewrite migration runs in
// a transaction that first locks the table in EXCLUSIVE MODE with the wait
// bounded by ddl_lock_timeout_seconds (SPEC §5.5); a lock that times out
// (ORA-00054) is retried like any busy resource.
func TestMigrationLocksEachChunk(t *testing.T) {
	r := newRig(t, oracle.Options{}, oraclesql.Options{MigrationChunkRows: 3, LockWaitSeconds: 7})
	s := migrationTable(t, r, 10)
	r.db.Inject(fake.Fault{Op: fake.OpLock, Nth: 2, Code: 54})
	if err := s.Apply(context.Background(), migrateChange(integer, text40)); err != nil {
		t.Fatal(err)
	}
	var prev string
	updates := 0
	for _, sql := range r.db.Statements() {
		if strings.HasPrefix(sql, "UPDATE ") && strings.Contains(sql, "ROWNUM <= :1") {
			updates++
			if prev != `LOCK TABLE "DRY_RUN"."M" IN EXCLUSIVE MODE WAIT 7` {
				t.Errorf("chunk %d after %q, want the table locked first", updates, prev)
			}
		}
		prev = sql
	}
	if updates != 5 {
		t.Errorf("%d UPDATE chunks, want 5 (3+3+3+1+0)", updates)
	}
	if got := r.db.Calls(fake.OpLock); got != 6 {
		t.Errorf("%d locks, want 6 (one per chunk and the one that timed out)", got)
	}
	wantMigrated(t, r, 10)
}
