package oracle_test

import (
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// A key change asks the server whether the table has rows (SELECT 1 …
// WHERE ROWNUM = 1) and replaces the primary key only of an empty one
// (SPEC §5.5); the fake answers the question from the rows a session sees,
// so the Oracle engine's key changes run on it as on the embedded engine.
func TestKeyChangeAsksTheFakeForRows(t *testing.T) {
	schema := func(key string) string {
		return `{"type":"SCHEMA","stream":"s","key_properties":["` + key + `"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":"string"},"_sdc_deleted_at":{"type":["null","string"],"format":"date-time"}}}}`
	}
	rec := `{"type":"RECORD","stream":"s","record":{"id":1,"v":"a"}}`
	del := `{"type":"RECORD","stream":"s","record":{"id":1,"v":"a","_sdc_deleted_at":"2025-01-01T00:00:00Z"}}`
	after := `{"type":"RECORD","stream":"s","record":{"id":2,"v":"b"}}`
	for _, tc := range []struct {
		name   string
		first  []string
		wantPK string
		err    string
	}{
		{"never loaded", []string{schema("id")}, "V", ""},
		{"every row deleted", []string{schema("id"), rec, del}, "V", ""},
		{"with rows", []string{schema("id"), rec}, "ID", "key_properties changed from [ID] to [V]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := defaultRig(t)
			settings := `{"hard_delete": true}`
			if _, err := run(t, r.eng, settings, strings.Join(tc.first, "\n")+"\n"); err != nil {
				t.Fatal(err)
			}
			_, err := run(t, newEngine(t, r.db, oracle.Options{}, oraclesql.Options{}), settings, schema("v")+"\n"+after+"\n")
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("key change: %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("key change: error %v, want %q", err, tc.err)
			}
			if !contains(r.db.Statements(), `SELECT 1 FROM "DRY_RUN"."S" WHERE ROWNUM = 1`) {
				t.Errorf("the row check was not asked: %q", r.db.Statements())
			}
			tb := oracleSnapshot(t, r, runMetadata)["DRY_RUN.S"]
			if !strings.Contains(tb, "PK ["+tc.wantPK+"]") {
				t.Errorf("after the key change:\n%s\nwant PK [%s]", tb, tc.wantPK)
			}
		})
	}
}

// A key change replayed on the fake, through the Oracle engine's SQL: the
// replacement writes the replaced key into the table comment (first, as
// DDL), the next run's describe reads it back, and the input re-sent from
// before the change loads again with the new key kept (SPEC §7.6).
func TestKeyChangeReplayedOnTheFake(t *testing.T) {
	schema := func(keys string) string {
		return `{"type":"SCHEMA","stream":"s","key_properties":[` + keys + `],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":"string"}}}}`
	}
	in := strings.Join([]string{schema(`"id"`), schema(`"id","v"`),
		`{"type":"RECORD","stream":"s","record":{"id":1,"v":"a"}}`,
		`{"type":"RECORD","stream":"s","record":{"id":1,"v":"b"}}`}, "\n") + "\n"
	r := defaultRig(t)
	if _, err := run(t, r.eng, `{}`, in); err != nil {
		t.Fatal(err)
	}
	if c := r.db.TableComment("DRY_RUN.S"); !strings.Contains(c, `replaced_key=["ID"]`) {
		t.Fatalf("table comment %q does not record the replaced key", c)
	}
	if _, err := run(t, newEngine(t, r.db, oracle.Options{}, oraclesql.Options{}), `{}`, in); err != nil {
		t.Fatalf("replay: %v", err)
	}
	tb := oracleSnapshot(t, r, runMetadata)["DRY_RUN.S"]
	if !strings.Contains(tb, "PK [ID V]") || strings.Count(tb, `ID="1"`) != 2 {
		t.Errorf("after the replay:\n%s\nwant PK [ID V] and the two rows", tb)
	}
}
