package oracle_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// The Oracle engine's Describe reads the partitioning key
// (ALL_PART_KEY_COLUMNS, oraclesql.DescribeTable's PART_KEY_POSITION), as
// the embedded engine keeps it: a later run never widens or rewrites a
// partitioning column, which Oracle refuses (ORA-14060; ORA-54031 for the
// WITH TIME ZONE column a virtual key derives from), but stops before any
// DDL with the plan's message. Verified on Oracle: not yet.
func TestDescribeReadsThePartitioningKey(t *testing.T) {
	t.Run("virtual key of a WITH TIME ZONE column", func(t *testing.T) {
		r := defaultRig(t)
		const settings = `{"partitioning":{"column":"ts","interval":"day"}}`
		sch := `{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"},"ts":{"type":"string","format":"date-time"}},"required":["ts"]},"key_properties":["id"]}` + "\n"
		if _, err := run(t, r.eng, settings, sch+`{"type":"RECORD","stream":"s","record":{"id":1,"ts":"2020-01-01T00:00:00Z"}}`+"\n"+`{"type":"STATE","value":1}`+"\n"); err != nil {
			t.Fatal(err)
		}
		got, err := r.eng.Describe(context.Background(), schemaName, "S")
		if err != nil {
			t.Fatal(err)
		}
		if p := got.Partition; p == nil || p.Column != "TS$P" || p.Source != "TS" || p.KeyColumn() != "TS" || len(p.More) != 0 {
			t.Fatalf("partition %+v, want key TS$P, the virtual column of TS", p)
		}
		// Nine fractional digits would widen TS to TIMESTAMP(9).
		eng := newEngine(t, r.db, oracle.Options{}, oraclesql.Options{})
		_, err = run(t, eng, settings, sch+`{"type":"RECORD","stream":"s","record":{"id":2,"ts":"2020-01-01T00:00:00.123456789Z"}}`+"\n"+`{"type":"STATE","value":2}`+"\n")
		if err == nil || !strings.Contains(err.Error(), `column "TS" of table DRY_RUN.S would change from TIMESTAMP(6) WITH TIME ZONE to TIMESTAMP(9) WITH TIME ZONE, but the table is partitioned by it`) {
			t.Errorf("run 2: %v, want the widening of the partitioning column refused", err)
		}
		if cols := r.db.Columns("DRY_RUN.S"); !slices.Contains(cols, "TS TIMESTAMP(6) WITH TIME ZONE") {
			t.Errorf("columns after run 2: %v", cols)
		}
	})
	t.Run("a DBA's table partitioned by a stored DATE column", func(t *testing.T) {
		r := defaultRig(t)
		ddl := `CREATE TABLE "DRY_RUN"."P" ("ID" NUMBER(38,0) NOT NULL, "D" DATE NOT NULL, CONSTRAINT "P_PK" PRIMARY KEY ("ID"))` +
			` PARTITION BY RANGE ("D") INTERVAL (NUMTOYMINTERVAL(1, 'MONTH')) (PARTITION P0 VALUES LESS THAN (TO_DATE('2000-01-01', 'YYYY-MM-DD')))`
		if _, err := r.db.Exec(oraclesql.Statement{SQL: ddl, Kind: oraclesql.KindDDL}); err != nil {
			t.Fatal(err)
		}
		got, err := r.eng.Describe(context.Background(), schemaName, "P")
		if err != nil {
			t.Fatal(err)
		}
		if p := got.Partition; p == nil || p.Column != "D" || p.Source != "" || p.KeyColumn() != "D" {
			t.Fatalf("partition %+v, want key D", p)
		}
		// d as plain text would rewrite D to VARCHAR2.
		sch := `{"type":"SCHEMA","stream":"p","schema":{"properties":{"id":{"type":"integer"},"d":{"type":"string"}},"required":["d"]},"key_properties":["id"]}` + "\n"
		_, err = run(t, r.eng, `{}`, sch+`{"type":"RECORD","stream":"p","record":{"id":1,"d":"soon"}}`+"\n"+`{"type":"STATE","value":1}`+"\n")
		if err == nil || !strings.Contains(err.Error(), `column "D" of table DRY_RUN.P would change from DATE to VARCHAR2(4000 BYTE), but the table is partitioned by it`) {
			t.Errorf("run: %v, want the rewrite of the partitioning column refused", err)
		}
		if cols := r.db.Columns("DRY_RUN.P"); !slices.Contains(cols, "D DATE") {
			t.Errorf("columns after the run: %v", cols)
		}
	})
	t.Run("not partitioned", func(t *testing.T) {
		r := defaultRig(t)
		if _, err := r.db.Exec(oraclesql.Statement{SQL: `CREATE TABLE "DRY_RUN"."N" ("ID" NUMBER(38,0))`, Kind: oraclesql.KindDDL}); err != nil {
			t.Fatal(err)
		}
		got, err := r.eng.Describe(context.Background(), schemaName, "N")
		if err != nil || got == nil || got.Partition != nil {
			t.Fatalf("Describe: %+v, %v; want no partitioning", got, err)
		}
	})
}
