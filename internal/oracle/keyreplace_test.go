package oracle_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// A changed key_properties at overwrite's or truncate_before_load's first
// flush replaces the primary key of a table with rows (SPEC §4), in an
// order Oracle accepts: the old rows repeat the new key's value and
// have NULL in it, so the new key can only be added once they are gone.
// The fake server refuses an ADD PRIMARY KEY or MODIFY NOT NULL the rows
// violate (ORA-02437, ORA-02296), and the tables end as on the embedded
// engine.
func TestKeyChangeAtTheFirstFlushOnFake(t *testing.T) {
	sch := func(key string) string {
		return `{"type":"SCHEMA","stream":"s","key_properties":[` + key + `],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}}}`
	}
	rec := func(id, v string) string {
		return `{"type":"RECORD","stream":"s","record":{"id":` + id + `,"v":` + v + `}}`
	}
	first := strings.Join([]string{sch(`"id"`), rec("1", `"a"`), rec("2", `"a"`), rec("3", "null")}, "\n") + "\n"
	second := strings.Join([]string{sch(`"v"`), rec("4", `"b"`), rec("5", `"c"`), `{"type":"STATE","value":{"n":1}}`}, "\n") + "\n"
	for _, settings := range []string{`{"load_method": "overwrite"}`, `{"truncate_before_load": true}`} {
		t.Run(settings, func(t *testing.T) {
			r := defaultRig(t)
			m := newMemory()
			for _, step := range []struct{ settings, in string }{{"", first}, {settings, second}} {
				if _, err := run(t, r.eng, step.settings, step.in); err != nil {
					t.Fatalf("oracle engine: %v", err)
				}
				if _, err := run(t, m, step.settings, step.in); err != nil {
					t.Fatalf("embedded engine: %v", err)
				}
			}
			got, err := r.eng.Describe(context.Background(), schemaName, "S")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.PrimaryKey, []string{"V"}) || !reflect.DeepEqual(got.ReplacedKey, []string{"ID"}) {
				t.Errorf("on the fake: primary key %v, replaced key %v; want [V], [ID]", got.PrimaryKey, got.ReplacedKey)
			}
			if rows := r.db.Rows("DRY_RUN.S"); len(rows) != 2 {
				t.Errorf("%d rows on the fake, want this run's 2: %q", len(rows), rows)
			}
			compare(t, oracleSnapshot(t, r, runMetadata), memorySnapshot(m, runMetadata))
		})
	}
}
