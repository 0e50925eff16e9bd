package oracle_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// The fake server tells composite keys apart however their values hold
// NUL bytes (issue 13 item 4): ("a\u0000b","c") and ("a","b\u0000c") are
// two rows, batch by batch (MERGE against the primary key index) as in
// one batch, on the fake as on the embedded engine.
func TestCompositeKeysWithNULOnFake(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"SCHEMA","stream":"c","key_properties":["a","b"],"schema":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"v":{"type":"integer"}}}}`,
		`{"type":"RECORD","stream":"c","record":{"a":"a\u0000b","b":"c","v":1}}`,
		`{"type":"RECORD","stream":"c","record":{"a":"a","b":"b\u0000c","v":2}}`,
	}, "\n") + "\n"
	for _, settings := range []string{`{"batch_size_rows": 1}`, ""} {
		r := defaultRig(t)
		if _, err := run(t, r.eng, settings, in); err != nil {
			t.Fatalf("%s: %v", settings, err)
		}
		if rows := r.db.Rows("DRY_RUN.C"); len(rows) != 2 {
			t.Errorf("%s: %d rows on the fake, want 2: %q", settings, len(rows), rows)
		}
		m, _, err := runMemory(t, settings, in)
		if err != nil {
			t.Fatal(err)
		}
		compare(t, oracleSnapshot(t, r, runMetadata), memorySnapshot(m, runMetadata))
	}
}

// keyDDL is a DBA's table with a TIMESTAMP(3) key.
const keyDDL = `CREATE TABLE "DRY_RUN"."K" ("K" TIMESTAMP(3) NOT NULL, "V" NUMBER(38,0), CONSTRAINT "K_PK" PRIMARY KEY ("K"))`

func keySchema(k string) string {
	return `{"type":"SCHEMA","stream":"k","key_properties":["k"],"schema":{"type":"object","properties":{"k":` + k + `,"v":{"type":"integer"}}}}`
}

func keyRec(k string, v int) string {
	return fmt.Sprintf(`{"type":"RECORD","stream":"k","record":{"k":%s,"v":%d}}`, k, v)
}

// Keys never widen on either engine (SPEC §5.2; hostile review finding
// 13): a SCHEMA that would widen a key column keeps it, a key value that
// does not fit it is invalid input found when the row is built, and
// on_invalid_record applies; the pipeline's plan is the same on the
// Oracle engine over the fake server as on the embedded engine, and so
// are the tables, the key column's type, the states and the error.
func TestKeysNeverWidenOnBothEngines(t *testing.T) {
	state := func(n int) string { return fmt.Sprintf(`{"type":"STATE","value":{"n":%d}}`, n) }
	long := `"` + strings.Repeat("x", 11) + `"`
	cases := []struct {
		name, ddl, prepare, in string
		keyType, err           string
	}{
		{name: "string key longer than its VARCHAR2(10 CHAR) column", prepare: keySchema(`{"type":"string","maxLength":10}`) + "\n" + keyRec(`"a"`, 0),
			in:      strings.Join([]string{keySchema(`{"type":"string"}`), keyRec(`"b"`, 1), keyRec(long, 2), state(1), keyRec(`"c"`, 3), state(2)}, "\n"),
			keyType: "VARCHAR2(10 CHAR)", err: `line 3: stream "k": property "k": key value of 11 bytes (11 characters) does not fit its column VARCHAR2(10 CHAR)`},
		{name: "a later SCHEMA with a larger maxLength",
			in: strings.Join([]string{keySchema(`{"type":"string","maxLength":10}`), keySchema(`{"type":"string","maxLength":20}`),
				keyRec(`"b"`, 1), keyRec(long, 2), state(1), keyRec(`"c"`, 3), state(2)}, "\n"),
			keyType: "VARCHAR2(10 CHAR)", err: `line 4: stream "k": property "k": key value of 11 bytes (11 characters) does not fit its column VARCHAR2(10 CHAR)`},
		{name: "a decimal in an integer key", prepare: keySchema(`{"type":"integer"}`) + "\n" + keyRec(`1`, 0),
			in:      strings.Join([]string{keySchema(`{"type":"number"}`), keyRec(`2`, 1), keyRec(`2.5`, 2), state(1), keyRec(`3`, 3), state(2)}, "\n"),
			keyType: "NUMBER(38,0)", err: `line 3: stream "k": property "k": key value 2.5 does not fit its column NUMBER(38,0); keys never widen`},
		{name: "a finer fraction than a TIMESTAMP(3) key", ddl: keyDDL,
			in: strings.Join([]string{keySchema(`{"type":"string","format":"date-time"}`), keyRec(`"2025-01-01T00:00:00.123Z"`, 1),
				keyRec(`"2025-01-01T00:00:00.1234Z"`, 2), state(1), keyRec(`"2025-01-02T00:00:00Z"`, 3), state(2)}, "\n"),
			keyType: "TIMESTAMP(3)", err: `line 3: stream "k": property "k": key value 2025-01-01T00:00:00.1234Z does not fit its column TIMESTAMP(3); keys never widen`},
		// A change of kind neither (finding 13's leftover): no
		// NUMBER → VARCHAR2 migration of the key on either engine.
		{name: "a string key for an integer key", prepare: keySchema(`{"type":"integer"}`) + "\n" + keyRec(`1`, 0),
			in:      strings.Join([]string{keySchema(`{"type":"string"}`), keyRec(`"2"`, 1), keyRec(`"1e2"`, 2), state(1), keyRec(`"3"`, 3), state(2)}, "\n"),
			keyType: "NUMBER(38,0)", err: `line 3: stream "k": property "k": key value "1e2" does not fit its column NUMBER(38,0) (it would be stored as 100); keys never widen`},
		{name: "a later SCHEMA with a string key", in: strings.Join([]string{keySchema(`{"type":"integer"}`), keySchema(`{"type":"string"}`),
			keyRec(`"2"`, 1), keyRec(`"two"`, 2), state(1), keyRec(`"3"`, 3), state(2)}, "\n"),
			keyType: "NUMBER(38,0)", err: `line 4: stream "k": property "k": key value "two" does not fit its column NUMBER(38,0) (`},
	}
	for _, c := range cases {
		for _, policy := range []string{"fail", "skip"} {
			t.Run(c.name+" "+policy, func(t *testing.T) {
				settings := `{"on_invalid_record": "` + policy + `"}`
				r, dba := defaultRig(t), defaultRig(t)
				mem := memory.New(memory.Options{KeepRows: true, Now: clock, Catalog: dba.eng.Describe})
				for _, x := range []*rig{r, dba} {
					if c.ddl == "" {
						break
					}
					if _, err := x.db.Exec(oraclesql.Statement{SQL: c.ddl, Kind: oraclesql.KindDDL}); err != nil {
						t.Fatal(err)
					}
				}
				if c.prepare != "" {
					for _, eng := range []engine.Engine{r.eng, mem} {
						if _, err := run(t, eng, "", c.prepare+"\n"); err != nil {
							t.Fatal(err)
						}
					}
				}
				states, err := run(t, r.eng, settings, c.in+"\n")
				memStates, memErr := run(t, mem, settings, c.in+"\n")
				var ie *inputerr.Error
				switch {
				case policy == "skip" && (err != nil || memErr != nil):
					t.Fatalf("oracle: %v, embedded: %v", err, memErr)
				case policy == "fail" && (!errors.As(err, &ie) || !strings.HasPrefix(err.Error(), c.err) || memErr == nil || memErr.Error() != err.Error()):
					t.Fatalf("oracle: %v, embedded: %v, want invalid input %q", err, memErr, c.err)
				case policy == "skip" && last(states) != `{"n":2}`:
					t.Errorf("states %q, want the last {\"n\":2}", states)
				case policy == "fail" && len(states) != 0:
					t.Errorf("states %q, want none", states)
				}
				if strings.Join(states, "\n") != strings.Join(memStates, "\n") {
					t.Errorf("states %q, embedded engine %q", states, memStates)
				}
				compare(t, oracleSnapshot(t, r, runMetadata), memorySnapshot(mem, runMetadata))
				k, err := r.eng.Describe(context.Background(), schemaName, "K")
				if err != nil || k == nil || k.Column("K") == nil {
					t.Fatalf("describe: %v %v", k, err)
				}
				if got := k.Column("K").Type.String(); got != c.keyType {
					t.Errorf("key column is %s, want %s", got, c.keyType)
				}
				var vs []string
				for _, row := range r.db.Rows("DRY_RUN.K") {
					vs = append(vs, row["V"])
				}
				slices.Sort(vs)
				want := map[string]string{"fail": "1", "skip": "1,3"}[policy]
				if c.prepare != "" {
					want = "0," + want
				}
				if strings.Join(vs, ",") != want {
					t.Errorf("V values %q, want %s: the bad record's batch commits without it", vs, want)
				}
			})
		}
	}
}
