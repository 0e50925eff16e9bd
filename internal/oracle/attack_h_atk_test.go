package oracle_test

import (
	"testing"

	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// TestAttackNoCommentsResumeMergesColumns: with column_comments: false the
// Oracle engine has no record of which property a column came from, so a
// resumed run adopts a column by exact name, and two properties that fit
// to the same name end up in one column. Input: SCHEMA s {id, "a b"},
// RECORD id 1, STATE 1, then SCHEMA s {id, "a_b"}, RECORD id 2, STATE 2.
//
//   - one run: "a b" -> A_B, "a_b" -> A_B_648fa9b3 (the later property takes
//     the suffix, SPEC §5.1);
//   - the same input split at STATE 1 (a crash and a resume from state 1, or
//     simply the next scheduled run): "a_b" is loaded into A_B, the column
//     holding "a b"'s values: row 1 A_B="space1" ("a b"), row 2
//     A_B="under2" ("a_b"). Silent merge, and the final table differs from
//     the unsplit run's (SPEC §7.6).
//
// The embedded engine (dry run, pipeline tests, internal/sim) keeps each
// column's source path even without comments, so it gives A_B_648fa9b3 in
// both cases and no test on it can see this (pipeline: run in1 then in2 on
// one memory.Engine with {"column_comments":false}).
// Reproduce on the fake: this test without the Skip.
func TestAttackNoCommentsResumeMergesColumns(t *testing.T) {
	t.Skip(`finding: column_comments false: a resumed run loads property "a_b" into column A_B of property "a b" (one run gives A_B_648fa9b3); the embedded engine hides it`)
	in1 := `{"type":"SCHEMA","stream":"s","schema":{"type":"object","properties":{"id":{"type":"integer"},"a b":{"type":["null","string"]}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":1,"a b":"space1"}}
{"type":"STATE","value":1}
`
	in2 := `{"type":"SCHEMA","stream":"s","schema":{"type":"object","properties":{"id":{"type":"integer"},"a_b":{"type":["null","string"]}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":2,"a_b":"under2"}}
{"type":"STATE","value":2}
`
	const settings = `{"column_comments":false}`
	load := func(inputs ...string) *fake.DB {
		db := fake.New(fake.Options{Schema: schemaName, Now: clock})
		eng := oracle.New(oracle.Dialer(db.Dial), oraclesql.New(oraclesql.Options{}), oracle.Options{Sleep: instant})
		for _, in := range inputs {
			if _, err := run(t, eng, settings, in); err != nil {
				t.Fatal(err)
			}
		}
		return db
	}
	one := load(in1 + in2)
	split := load(in1, in2)
	for _, r := range one.Rows("DRY_RUN.S") {
		if r["ID"] == "2" && r["A_B"] != "" {
			t.Fatalf("one run: a_b in A_B already: %v", r)
		}
	}
	for _, r := range split.Rows("DRY_RUN.S") {
		if r["ID"] == "2" && r["A_B"] == "under2" {
			t.Errorf(`resumed run: property "a_b" loaded into column A_B, which holds property "a b" (row 1); the unsplit run put it in A_B_648fa9b3: %v`, r)
		}
	}
}
