package oraclesql

import (
	"testing"

	"github.com/target-oracle/target-oracle/internal/table"
)

// scratchTable has a column of every kind the readback reads.
func scratchTable() *table.Table {
	col := func(name string, t table.Type) table.Column { return table.Column{Name: name, Type: t, Nullable: true} }
	return &table.Table{Schema: "LOADER", Name: "TARGET_ORACLE$VERIFY_0123ABCD", PrimaryKey: []string{"K"}, Columns: []table.Column{
		{Name: "K", Type: table.Type{Kind: table.KindVarchar, Length: 64, CharSemantics: true}},
		col("I", table.Type{Kind: table.KindNumber, Precision: 38}),
		col("B", table.Type{Kind: table.KindBoolean}),
		col("S", table.Type{Kind: table.KindVarchar, Length: 4000}),
		col("C", table.Type{Kind: table.KindClob}),
		col("NC", table.Type{Kind: table.KindClob, National: true}),
		col("JC", table.Type{Kind: table.KindJSON, JSONAsClob: true}),
		col("DT", table.Type{Kind: table.KindDate}),
		col("T", table.Type{Kind: table.KindTimestamp, Frac: 6, TZ: true}),
		col("TS", table.Type{Kind: table.KindTimestamp, Frac: 9}),
	}}
}

func scratchGoldenCases() []goldenCase {
	t := scratchTable()
	var cols []*table.Column
	for i := 1; i < len(t.Columns); i++ {
		cols = append(cols, &t.Columns[i])
	}
	withJSON := *t
	withJSON.Columns = append([]table.Column{}, t.Columns...)
	withJSON.Columns = append(withJSON.Columns, table.Column{Name: "J", Type: table.Type{Kind: table.KindJSON}, Nullable: true})
	bin := &table.Table{Schema: "LOADER", Name: "TARGET_ORACLE$VERIFY_0123ABCD", PrimaryKey: []string{"K"}, Columns: []table.Column{
		t.Columns[0],
		{Name: "R16", Type: table.Type{Kind: table.KindRaw, Length: 16}, Nullable: true},
		{Name: "BL", Type: table.Type{Kind: table.KindBlob}, Nullable: true},
		{Name: "V", Type: table.Type{Kind: table.KindVector, Dim: 3, VectorFormat: table.VectorFloat32}, Nullable: true},
	}}
	binCols := []*table.Column{bin.Column("R16"), bin.Column("BL")}
	rawKey := *bin // the binary-key table of --verify: a RAW(16) key
	rawKey.Columns = append([]table.Column{{Name: "K", Type: table.Type{Kind: table.KindRaw, Length: 16}}}, bin.Columns[1:]...)
	rawKeyCols := []*table.Column{rawKey.Column("R16"), rawKey.Column("BL")}
	hist := historyScratchTable()
	histRow := Row{KeyCol: "K", Key: "h/new", VersionCol: table.MetaValidFrom, Version: "2024-01-01T00:00:00.123456789Z"}
	var histCols []*table.Column
	for i := 1; i < len(hist.Columns); i++ {
		histCols = append(histCols, &hist.Columns[i])
	}
	must := func(st Statement, err error) Statement {
		if err != nil {
			panic(err)
		}
		return st
	}
	dumps := func(tb *table.Table, names ...string) []Statement {
		var out []Statement
		for _, n := range names {
			out = append(out, must(DumpValue(tb, Row{KeyCol: "K", Key: "c01/i#0"}, tb.Column(n), 5)))
		}
		return out
	}
	return []goldenCase{
		{name: "scratch_tables", render: stmts(ListScratchTables("LOADER", "TARGET_ORACLE$VERIFY_"), ListScratchTables("", "TARGET_ORACLE$BENCH_"),
			must(DropTable("LOADER", "TARGET_ORACLE$VERIFY_0123ABCD")), must(DropTable("", "TARGET_ORACLE$BENCH_0123ABCD")))},
		{name: "scratch_readback", render: stmts(append([]Statement{must(ReadRow(t, "K", "c01/i#0", cols)),
			must(ReadLOBChunk(t, Row{KeyCol: "K", Key: "c01/i#0"}, "C", 1333, 1334))}, dumps(t, "I", "S", "C", "DT", "T")...)...)},
		{name: "scratch_readback_binary", render: stmts(append([]Statement{must(ReadRow(bin, "K", "c01/i#0", binCols)),
			must(ReadBinaryChunk(bin, Row{KeyCol: "K", Key: "c01/i#0"}, "BL", 2000, 2001)),
			must(ReadRow(&rawKey, "K", "6330312f692330", rawKeyCols)),
			must(ReadBinaryChunk(&rawKey, Row{KeyCol: "K", Key: "6330312f692330"}, "BL", 2000, 1)),
			must(DumpValue(&rawKey, Row{KeyCol: "K", Key: "6330312f692330"}, rawKey.Column("R16"), 3))}, dumps(bin, "R16", "BL")...)...)},
		// The versions of a key of a history table, oldest first, and the
		// chunks and DUMPs of one version's values, named by key and
		// valid-from.
		{name: "scratch_readback_history", render: stmts(must(ReadVersions(hist, "K", "h/new", table.MetaValidFrom, histCols)),
			must(ReadLOBChunk(hist, histRow, "C", 1333, 1)), must(ReadBinaryChunk(hist, histRow, "BL", 2000, 2001)),
			must(DumpValue(hist, histRow, hist.Column("S"), 2)), must(DumpValue(hist, histRow, hist.Column("C"), 4001)),
			must(DumpValue(hist, histRow, hist.Column(table.MetaIsCurrent), 1)))},
		// FROM_VECTOR … RETURNING: a 23ai shape the lint grammar may not parse.
		{name: "scratch_readback_vector", nolint: true, render: stmts(append([]Statement{
			must(ReadRow(bin, "K", "c01/i#0", []*table.Column{bin.Column("V")}))}, dumps(bin, "V")...)...)},
		// JSON_SERIALIZE … RETURNING and BOOLEAN conditions: shapes the
		// lint grammar does not parse.
		{name: "scratch_readback_json_boolean", nolint: true, render: stmts(append([]Statement{
			must(ReadRow(&withJSON, "K", "c01/i#0", []*table.Column{withJSON.Column("J"), withJSON.Column("B")}))},
			dumps(&withJSON, "J", "B")...)...)},
	}
}

// historyScratchTable is the history table of --verify: the key, a value,
// a CLOB, a BLOB and the four history columns, keyed on the key and
// _SDC_VALID_FROM.
func historyScratchTable() *table.Table {
	ts := table.Type{Kind: table.KindTimestamp, Frac: 9}
	return &table.Table{Schema: "LOADER", Name: "TARGET_ORACLE$VERIFY_0123ABCD", PrimaryKey: []string{"K", table.MetaValidFrom}, Columns: []table.Column{
		{Name: "K", Type: table.Type{Kind: table.KindVarchar, Length: 64, CharSemantics: true}},
		{Name: "S", Type: table.Type{Kind: table.KindVarchar, Length: 100, CharSemantics: true}, Nullable: true},
		{Name: "C", Type: table.Type{Kind: table.KindClob}, Nullable: true},
		{Name: "BL", Type: table.Type{Kind: table.KindBlob}, Nullable: true},
		{Name: table.MetaValidFrom, Type: ts},
		{Name: table.MetaValidTo, Type: ts, Nullable: true},
		{Name: table.MetaIsCurrent, Type: table.Type{Kind: table.KindNumber, Precision: 1}},
		{Name: table.MetaRowHash, Type: table.Type{Kind: table.KindVarchar, Length: 64}, Nullable: true},
	}}
}

// TestScratchStatementsRefuseBadNames: a name that cannot be quoted never
// reaches the SQL text; a version column the table lacks, or one that is
// no TIMESTAMP, never names a version.
func TestScratchStatementsRefuseBadNames(t *testing.T) {
	if _, err := DropTable("LOADER", `X" PURGE; DROP TABLE "Y`); err == nil {
		t.Error("DropTable took a name with a double quote")
	}
	tb := scratchTable()
	if _, err := ReadLOBChunk(tb, Row{KeyCol: "K", Key: "k"}, "C\"", 1, 1); err == nil {
		t.Error("ReadLOBChunk took a column with a double quote")
	}
	if _, err := ReadVersions(tb, "K", "k", "T\"", []*table.Column{tb.Column("I")}); err == nil {
		t.Error("ReadVersions took an order column with a double quote")
	}
	for _, vc := range []string{"S", "NOPE", `TS"`} {
		row := Row{KeyCol: "K", Key: "k", VersionCol: vc, Version: "2024-01-01T00:00:00Z"}
		if _, err := ReadLOBChunk(tb, row, "C", 1, 1); err == nil {
			t.Errorf("ReadLOBChunk took version column %q", vc)
		}
		if _, err := DumpValue(tb, row, tb.Column("S"), 1); err == nil {
			t.Errorf("DumpValue took version column %q", vc)
		}
	}
}
