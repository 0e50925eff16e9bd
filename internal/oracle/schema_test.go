package oracle_test

import (
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"

	"github.com/target-oracle/target-oracle/internal/oracle"
)

// A stream routed to a schema ALL_USERS does not list fails at its SCHEMA
// naming the schema, before any DDL and before the state; one routed to a
// schema that exists loads there.
func TestRoutedSchemaMustExist(t *testing.T) {
	input := `{"type":"SCHEMA","stream":"sales-orders","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}
{"type":"RECORD","stream":"sales-orders","record":{"id":1}}
{"type":"STATE","value":{"s":1}}
`
	settings := `{"default_target_schema":"{stream_schema}"}`
	for _, exists := range []bool{false, true} {
		fo := fake.Options{Schema: schemaName, Now: clock}
		if exists {
			fo.Schemas = []string{"SALES"}
		}
		db := fake.New(fo)
		eng := newEngine(t, db, oracle.Options{}, oraclesql.Options{})
		states, err := run(t, eng, settings, input)
		if !exists {
			if err == nil || !strings.Contains(err.Error(), "schema SALES does not exist") || len(states) != 0 {
				t.Errorf("missing schema: states %q, error %v", states, err)
			}
			for _, sql := range db.Statements() {
				if strings.HasPrefix(sql, "CREATE") {
					t.Errorf("DDL ran for a missing schema: %s", sql)
				}
			}
			continue
		}
		if err != nil || len(states) != 1 || len(db.Rows("SALES.ORDERS")) != 1 {
			t.Errorf("existing schema: states %q, error %v, rows %v", states, err, db.Rows("SALES.ORDERS"))
		}
	}
}
