package fake

import (
	"testing"

	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// The fake refuses what interval partitioning refuses: a NULL key
// (ORA-14400), and without ROW MOVEMENT an update that moves a row to
// another partition (ORA-14402). With ROW MOVEMENT the move is allowed.
func TestPartitioning(t *testing.T) {
	const ts = `TO_TIMESTAMP(:2, 'YYYY-MM-DD"T"HH24:MI:SS.FF9')`
	merge := oraclesql.Statement{SQL: `MERGE INTO "S"."P" TGT USING (SELECT TO_NUMBER(:1) "ID", ` + ts + ` "AT" FROM DUAL) SRC ON (TGT."ID" = SRC."ID") WHEN MATCHED THEN UPDATE SET TGT."AT" = SRC."AT" WHEN NOT MATCHED THEN INSERT ("ID", "AT") VALUES (SRC."ID", SRC."AT")`,
		Kind: oraclesql.KindDML, Binds: make([]oraclesql.Bind, 2)}
	for _, movement := range []bool{false, true} {
		db := New(Options{Schema: "S"})
		create := `CREATE TABLE "S"."P" ("ID" NUMBER(38,0) NOT NULL, "AT" TIMESTAMP(6), CONSTRAINT "P_PK" PRIMARY KEY ("ID")) PARTITION BY RANGE ("AT") INTERVAL (NUMTOYMINTERVAL(1, 'MONTH')) (PARTITION P0 VALUES LESS THAN (TO_DATE('2000-01-01', 'YYYY-MM-DD')))`
		if movement {
			create += " ENABLE ROW MOVEMENT"
		}
		if _, err := db.Exec(ddl(create)); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(merge, []string{"1"}, []string{""}); code(err) != 14400 {
			t.Errorf("NULL key: %v, want ORA-14400", err)
		}
		if _, err := db.Exec(merge, []string{"1"}, []string{"2024-01-05T00:00:00.000000000"}); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(merge, []string{"1"}, []string{"2024-01-20T00:00:00.000000000"}); err != nil {
			t.Errorf("same partition: %v", err)
		}
		_, err := db.Exec(merge, []string{"1"}, []string{"2024-02-01T00:00:00.000000000"})
		if want := map[bool]int{false: 14402, true: 0}[movement]; code(err) != want || (want == 0 && err != nil) {
			t.Errorf("row movement %v: moving to another partition gave %v, want code %d", movement, err, want)
		}
	}
	db := New(Options{Schema: "S"})
	_, err := db.Exec(ddl(`CREATE TABLE "S"."Z" ("AT" TIMESTAMP(6) WITH TIME ZONE) PARTITION BY RANGE ("AT") INTERVAL (NUMTODSINTERVAL(1, 'DAY')) (PARTITION P0 VALUES LESS THAN (TO_DATE('2000-01-01', 'YYYY-MM-DD')))`))
	if code(err) != 14751 {
		t.Errorf("WITH TIME ZONE partition key: %v, want ORA-14751", err)
	}
	if _, err := db.Exec(ddl(`CREATE TABLE "S"."V" ("AT" TIMESTAMP(6) WITH TIME ZONE, "AT$P" TIMESTAMP(6) GENERATED ALWAYS AS (SYS_EXTRACT_UTC("AT")) VIRTUAL) PARTITION BY RANGE ("AT$P") INTERVAL (NUMTODSINTERVAL(1, 'DAY')) (PARTITION P0 VALUES LESS THAN (TO_DATE('2000-01-01', 'YYYY-MM-DD'))) ENABLE ROW MOVEMENT`)); err != nil {
		t.Errorf("virtual UTC partition key: %v", err)
	}
}
