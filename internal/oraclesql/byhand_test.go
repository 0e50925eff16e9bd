package oraclesql

import (
	"slices"
	"testing"

	"github.com/target-oracle/target-oracle/internal/table"
)

func TestKeyChangeByHand(t *testing.T) {
	keyed := &table.Table{Schema: "SHOP", Name: "ORDERS", PrimaryKey: []string{"ID"}}
	keyless := &table.Table{Schema: "SHOP", Name: "ORDERS"}
	long := &table.Table{Schema: "SHOP", Name: "A_TABLE_NAME_OF_TWENTY_EIGHT", PrimaryKey: []string{"ID"}}
	for _, tc := range []struct {
		name     string
		cur      *table.Table
		key      []string
		maxBytes int
		want     []string
	}{
		{"replace the key", keyed, []string{"ID", "REGION"}, 128, []string{
			`ALTER TABLE "SHOP"."ORDERS" DROP PRIMARY KEY;`,
			`ALTER TABLE "SHOP"."ORDERS" ADD CONSTRAINT "ORDERS_PK" PRIMARY KEY ("ID", "REGION");`}},
		{"drop the key", keyed, nil, 128, []string{`ALTER TABLE "SHOP"."ORDERS" DROP PRIMARY KEY;`}},
		{"add a key", keyless, []string{"ID"}, 128, []string{
			`ALTER TABLE "SHOP"."ORDERS" ADD CONSTRAINT "ORDERS_PK" PRIMARY KEY ("ID");`}},
		{"the constraint name fits the limit", long, []string{"K"}, 30, []string{
			`ALTER TABLE "SHOP"."A_TABLE_NAME_OF_TWENTY_EIGHT" DROP PRIMARY KEY;`,
			`ALTER TABLE "SHOP"."A_TABLE_NAME_OF_TWENTY_EIGHT" ADD CONSTRAINT "` + table.PrimaryKeyName(long.Name, 30) + `" PRIMARY KEY ("K");`}},
	} {
		if got := KeyChangeByHand(tc.cur, tc.key, tc.maxBytes); !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

func TestHistoryByHand(t *testing.T) {
	ts := table.Type{Kind: table.KindTimestamp, Frac: 9} // in the key: never WITH TIME ZONE (ORA-02329)
	want := &table.Table{Schema: "SHOP", Name: "DIM", PrimaryKey: []string{"ID", table.MetaValidFrom}, Columns: []table.Column{
		{Name: "ID", Type: table.Type{Kind: table.KindNumber, Precision: 38}},
		{Name: table.MetaValidFrom, Type: ts},
		{Name: table.MetaValidTo, Type: ts, Nullable: true},
		{Name: table.MetaIsCurrent, Type: table.Type{Kind: table.KindNumber, Precision: 1}, Nullable: true},
		{Name: table.MetaRowHash, Type: table.Type{Kind: table.KindVarchar, Length: 64}, Nullable: true},
	}}
	plain := &table.Table{Schema: "SHOP", Name: "DIM", PrimaryKey: []string{"ID"}, Columns: want.Columns[:1]}
	half := &table.Table{Schema: "SHOP", Name: "DIM", Columns: want.Columns[:3]}
	for _, tc := range []struct {
		name string
		cur  *table.Table
		want []string
	}{
		{"a keyed table without history columns", plain, []string{
			`ALTER TABLE "SHOP"."DIM" ADD ("_SDC_VALID_FROM" TIMESTAMP(9), "_SDC_VALID_TO" TIMESTAMP(9), ` +
				`"_SDC_IS_CURRENT" NUMBER(1,0), "_SDC_ROW_HASH" VARCHAR2(64 BYTE));`,
			`UPDATE "SHOP"."DIM" SET "_SDC_VALID_FROM" = TIMESTAMP '1970-01-01 00:00:00', "_SDC_IS_CURRENT" = 1; COMMIT;`,
			`ALTER TABLE "SHOP"."DIM" DROP PRIMARY KEY;`,
			`ALTER TABLE "SHOP"."DIM" ADD PRIMARY KEY ("ID", "_SDC_VALID_FROM");`}},
		{"a keyless table with some history columns", half, []string{
			`ALTER TABLE "SHOP"."DIM" ADD ("_SDC_IS_CURRENT" NUMBER(1,0), "_SDC_ROW_HASH" VARCHAR2(64 BYTE));`,
			`UPDATE "SHOP"."DIM" SET "_SDC_VALID_FROM" = TIMESTAMP '1970-01-01 00:00:00', "_SDC_IS_CURRENT" = 1; COMMIT;`,
			`ALTER TABLE "SHOP"."DIM" ADD PRIMARY KEY ("ID", "_SDC_VALID_FROM");`}},
	} {
		if got := HistoryByHand(tc.cur, want); !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
