package oraclesql

import (
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

var (
	tRaw16  = table.Type{Kind: table.KindRaw, Length: 16}
	tRaw200 = table.Type{Kind: table.KindRaw, Length: 200}
	tBlob   = table.Type{Kind: table.KindBlob}
	tVec3   = table.Type{Kind: table.KindVector, Dim: 3, VectorFormat: table.VectorFloat32}
	tVecAny = table.Type{Kind: table.KindVector, VectorFormat: table.VectorInt8}
)

// binaryTable has the binary and vector column types (interpret_content_encoding, 23ai).
func binaryTable() *table.Table {
	return &table.Table{
		Schema: "SHOP",
		Name:   "FILES",
		Columns: []table.Column{
			key("DIGEST", tRaw16),
			prop("THUMB", tRaw200),
			prop("CONTENT", tBlob),
			prop("NAME", tVarChar),
			meta("_SDC_LOADED_AT", tTSTZ),
			meta("_SDC_DELETED_AT", tTSTZ),
			meta("_SDC_TABLE_VERSION", tInt),
		},
		PrimaryKey: []string{"DIGEST"},
	}
}

func vectorTable() *table.Table {
	return &table.Table{
		Schema: "SHOP", Name: "EMBEDDINGS",
		Columns:    []table.Column{key("ID", tInt), prop("EMBEDDING", tVec3), prop("CODES", tVecAny), meta("_SDC_LOADED_AT", tTSTZ)},
		PrimaryKey: []string{"ID"},
	}
}

func nativeGoldenCases() []goldenCase {
	plain := New(Options{})
	stored := New(storage())
	chg := func(r *Renderer, ch engine.Change) func() ([]Statement, error) {
		return func() ([]Statement, error) { return r.Change(ch) }
	}
	steps := func(r *Renderer, st ...engine.Step) func() ([]Statement, error) {
		return func() ([]Statement, error) { return r.Steps(st) }
	}
	bt := binaryTable()
	mig := func(col string, from, to table.Type) func() ([]Statement, error) {
		base := bt.Clone()
		base.Column(col).Type = from
		return chg(plain, migrateChange(base, col, from, to))
	}
	return []goldenCase{
		{name: "create_table_binary", render: chg(plain, change(bt, table.CreateTable, "", table.Type{}, table.Type{}))},
		{name: "create_table_binary_lob_tablespace", render: chg(stored, change(bt, table.CreateTable, "", table.Type{}, table.Type{}))},
		{name: "add_column_blob", render: chg(plain, change(withColumn(small(), prop("PHOTO", tBlob), false), table.AddColumn, "PHOTO", table.Type{}, tBlob))},
		{name: "widen_raw", render: chg(plain, widenChange(bt, "THUMB", tRaw200, table.Type{Kind: table.KindRaw, Length: 2000}))},
		{name: "migrate_raw_to_blob", render: mig("THUMB", tRaw200, tBlob)},
		{name: "migrate_raw_to_varchar", render: mig("THUMB", tRaw200, table.Type{Kind: table.KindVarchar, Length: 400})},
		{name: "insert_binary", render: steps(plain, write(bt, engine.Insert, engine.RowUpsert, engine.RowHardDelete))},
		{name: "upsert_binary", render: steps(plain, write(bt, engine.Upsert, engine.RowUpsert, engine.RowSoftDelete))},
		{name: "create_table_vector", nolint: true, render: chg(plain, change(vectorTable(), table.CreateTable, "", table.Type{}, table.Type{}))},
		{name: "upsert_vector", render: steps(plain, write(vectorTable(), engine.Upsert, engine.RowUpsert))},
		{name: "insert_vector", render: steps(plain, write(vectorTable(), engine.Insert, engine.RowUpsert))},
	}
}

// A BLOB has no exact text in SQL, nor a vector another shape: such
// migrations are refused before any statement runs.
func TestNativeMigrationsRefused(t *testing.T) {
	bt := binaryTable()
	for _, c := range []struct {
		from, to table.Type
		want     string
	}{
		{tBlob, tClob, "no canonical text for BLOB"},
		{table.Type{Kind: table.KindRaw, Length: 20000}, tClob, "no base16 text"},
		{tVec3, tClob, "no canonical text for VECTOR(3, FLOAT32)"},
	} {
		base := bt.Clone()
		base.Column("THUMB").Type = c.from
		_, err := New(Options{}).Change(migrateChange(base, "THUMB", c.from, c.to))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s to %s: %v, want %q", c.from, c.to, err, c.want)
		}
	}
}
