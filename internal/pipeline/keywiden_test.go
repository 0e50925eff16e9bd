package pipeline_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/table"
)

// keySchema is stream k's SCHEMA with key property k of the given JSON
// Schema.
func keySchema(k string) string {
	return `{"type":"SCHEMA","stream":"k","key_properties":["k"],"schema":{"type":"object","properties":{"k":` + k + `,"v":{"type":"integer"}}}}`
}

// keyRec is a RECORD of stream k; k is the key's JSON value.
func keyRec(k string, v int) string {
	return fmt.Sprintf(`{"type":"RECORD","stream":"k","record":{"k":%s,"v":%d}}`, k, v)
}

// dbaTimestampKey is a table a DBA made with a TIMESTAMP(3) key.
func dbaTimestampKey(_ context.Context, schema, name string) (*table.Table, error) {
	if schema != "DRY_RUN" || name != "K" {
		return nil, nil
	}
	return &table.Table{Schema: "DRY_RUN", Name: "K", PrimaryKey: []string{"K"}, Columns: []table.Column{
		{Name: "K", Type: table.Type{Kind: table.KindTimestamp, Frac: 3}}, // a key is never WITH TIME ZONE (ORA-02329)
		{Name: "V", Type: table.IntegerType(), Nullable: true},
	}}, nil
}

// A SCHEMA that would widen a key column keeps it (keys never widen,
// SPEC §5.2; hostile review finding 13): an adopted key column, or one an
// earlier SCHEMA of the run made, keeps its type, also when the schema
// changes the key's kind (its values are converted into the column's), and a key value that
// does not fit it is invalid input naming the line, the stream, the key
// and the column's type, found when the row is built, so
// on_invalid_record applies and the batch's other records commit.
func TestKeysNeverWidenBySchema(t *testing.T) {
	long := `"` + strings.Repeat("x", 11) + `"`
	cases := []struct {
		name     string
		catalog  func(context.Context, string, string) (*table.Table, error)
		slowDDL  bool   // the first SCHEMA's table is not yet made when the next one is read
		prepare  string // run first on the same engine
		in       string // the bad record is at line
		line     int
		err      string
		keyType  string
		keyAfter string // the key column's values after skip or reject
		warn     string // in the log of the run of in
	}{
		{name: "string key longer than an adopted VARCHAR2(10 CHAR) key",
			prepare: input(keySchema(`{"type":"string","maxLength":10}`), keyRec(`"a"`, 0)),
			in:      input(keySchema(`{"type":"string"}`), keyRec(`"b"`, 1), keyRec(long, 2), state(1), keyRec(`"c"`, 3), state(2)),
			line:    3, err: `property "k": key value of 11 bytes (11 characters) does not fit its column VARCHAR2(10 CHAR)`,
			keyType: "VARCHAR2(10 CHAR)", keyAfter: "a,b,c"},
		{name: "a later SCHEMA of the run with a larger maxLength",
			slowDDL: true,
			in: input(keySchema(`{"type":"string","maxLength":10}`), keySchema(`{"type":"string","maxLength":20}`),
				keyRec(`"b"`, 1), keyRec(long, 2), state(1), keyRec(`"c"`, 3), state(2)),
			line: 4, err: `property "k": key value of 11 bytes (11 characters) does not fit its column VARCHAR2(10 CHAR)`,
			keyType: "VARCHAR2(10 CHAR)", keyAfter: "b,c"},
		{name: "a decimal in an integer key after the schema says number",
			prepare: input(keySchema(`{"type":"integer"}`), keyRec(`1`, 0)),
			in:      input(keySchema(`{"type":"number"}`), keyRec(`2`, 1), keyRec(`2.5`, 2), state(1), keyRec(`3`, 3), state(2)),
			line:    3, err: `property "k": key value 2.5 does not fit its column NUMBER(38,0); keys never widen`,
			keyType: "NUMBER(38,0)", keyAfter: "1,2,3"},
		{name: "more scale than an adopted NUMBER(5,2) key",
			prepare: input(keySchema(`{"type":"string","format":"x-singer.decimal","precision":5,"scale":2}`), keyRec(`"1.25"`, 0)),
			in: input(keySchema(`{"type":"string","format":"x-singer.decimal","precision":10,"scale":4}`),
				keyRec(`"2.5"`, 1), keyRec(`"2.125"`, 2), state(1), keyRec(`"3"`, 3), state(2)),
			line: 3, err: `property "k": key value 2.125 does not fit its column NUMBER(5,2); keys never widen`,
			keyType: "NUMBER(5,2)", keyAfter: "1.25,2.5,3"},
		{name: "a finer fraction than an adopted TIMESTAMP(3) key",
			catalog: dbaTimestampKey,
			in: input(keySchema(`{"type":"string","format":"date-time"}`), keyRec(`"2025-01-01T00:00:00.123Z"`, 1),
				keyRec(`"2025-01-01T00:00:00.1234Z"`, 2), state(1), keyRec(`"2025-01-02T00:00:00Z"`, 3), state(2)),
			line: 3, err: `property "k": key value 2025-01-01T00:00:00.1234Z does not fit its column TIMESTAMP(3); keys never widen`,
			keyType: "TIMESTAMP(3)", keyAfter: "2025-01-01T00:00:00.123Z,2025-01-02T00:00:00Z"},
		// Nor does a change of kind migrate a key column (finding 13's
		// leftover): the key values are converted into the column's kind,
		// and a string must keep its exact text there.
		{name: "a string key for an adopted integer key",
			prepare: input(keySchema(`{"type":"integer"}`), keyRec(`1`, 0)),
			in:      input(keySchema(`{"type":"string"}`), keyRec(`"2"`, 1), keyRec(`"1e2"`, 2), state(1), keyRec(`"3"`, 3), state(2)),
			line:    3, err: `property "k": key value "1e2" does not fit its column NUMBER(38,0) (it would be stored as 100); keys never widen`,
			keyType: "NUMBER(38,0)", keyAfter: "1,2,3",
			warn: `stream \"k\", key property \"k\": the schema asks for VARCHAR2(4000 BYTE) but its key column \"K\" is NUMBER(38,0) and keys never widen`},
		{name: "a string key after an integer key of the run",
			slowDDL: true,
			in: input(keySchema(`{"type":"integer"}`), keySchema(`{"type":"string"}`),
				keyRec(`"2"`, 1), keyRec(`"two"`, 2), state(1), keyRec(`"3"`, 3), state(2)),
			line: 4, err: `property "k": key value "two" does not fit its column NUMBER(38,0) (`,
			keyType: "NUMBER(38,0)", keyAfter: "2,3",
			warn: `the schema asks for VARCHAR2(4000 BYTE) but its key column \"K\" is NUMBER(38,0) and keys never widen`},
		{name: "a number key for an adopted VARCHAR2(3 CHAR) key",
			prepare: input(keySchema(`{"type":"string","maxLength":3}`), keyRec(`"0"`, 0)),
			in:      input(keySchema(`{"type":"number"}`), keyRec(`1.50`, 1), keyRec(`12345`, 2), state(1), keyRec(`3`, 3), state(2)),
			line:    3, err: `property "k": key value of 5 bytes (5 characters) does not fit its column VARCHAR2(3 CHAR)`,
			keyType: "VARCHAR2(3 CHAR)", keyAfter: "0,1.5,3",
			warn: `the schema asks for NUMBER but its key column \"K\" is VARCHAR2(3 CHAR)`},
		{name: "a plain string key for an adopted TIMESTAMP(3) key",
			catalog: dbaTimestampKey,
			in: input(keySchema(`{"type":"string"}`), keyRec(`"2025-01-01T00:00:00Z"`, 1),
				keyRec(`"2025-01-01T01:00:00+01:00"`, 2), state(1), keyRec(`"2025-01-02T00:00:00Z"`, 3), state(2)),
			line: 3, err: `property "k": key value "2025-01-01T01:00:00+01:00" does not fit its column TIMESTAMP(3) (it would be stored as 2025-01-01T00:00:00Z); keys never widen`,
			keyType: "TIMESTAMP(3)", keyAfter: "2025-01-01T00:00:00Z,2025-01-02T00:00:00Z"},
	}
	for _, c := range cases {
		for _, policy := range []string{"fail", "skip", "reject"} {
			t.Run(c.name+" "+policy, func(t *testing.T) {
				o := memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }, Catalog: c.catalog}
				if c.slowDDL {
					o.ApplyDelay = 50 * time.Millisecond
				}
				eng := memory.New(o)
				if c.prepare != "" {
					if _, err := run(t, eng, loadConfig(t, ""), c.prepare); err != nil {
						t.Fatal(err)
					}
				}
				rejects := filepath.Join(t.TempDir(), "rejects.jsonl")
				var logs strings.Builder
				states, err := runLogged(t, eng, loadConfig(t, `{"on_invalid_record": "`+policy+`", "reject_path": "`+rejects+`"}`), c.in, &logs)
				if !strings.Contains(logs.String(), c.warn) {
					t.Errorf("log\n%s\nwants %s", logs.String(), c.warn)
				}
				want := fmt.Sprintf(`line %d: stream "k": %s`, c.line, c.err)
				keys := strings.Split(c.keyAfter, ",")
				if policy == "fail" {
					wantInputError(t, err, want)
					if len(states) != 0 {
						t.Errorf("states %q, want none", states)
					}
					keys = keys[:len(keys)-1] // the last record is after the bad one
				} else {
					if err != nil {
						t.Fatal(err)
					}
					if len(states) == 0 || states[len(states)-1] != `{"n":2}` {
						t.Errorf("states %q, want the last {\"n\":2}", states)
					}
				}
				wantValues(t, eng, "K", "K", keys...)
				wantColumnType(t, eng, "K", "K", c.keyType)
				if policy == "reject" {
					rs := readRejects(t, rejects)
					if len(rs) != 1 || rs[0].Line != int64(c.line) || rs[0].Stream != "k" || !strings.Contains(rs[0].Error, c.err) {
						t.Errorf("rejected %+v, want one: line %d, stream k, error %q", rs, c.line, c.err)
					}
				}
			})
		}
	}
}
