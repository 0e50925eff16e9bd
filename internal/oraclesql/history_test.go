package oraclesql

import (
	"slices"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/tablemap"
)

// historyTable is the table NewLayout makes for a history stream.
func historyTable(keys []string, native bool) *table.Table {
	sch, err := schema.Compile([]byte(`{"type":"object","properties":{"id":{"type":"integer"},"region":{"type":"string","maxLength":8},` +
		`"name":{"type":["null","string"]},"updated_at":{"type":["null","string"],"format":"date-time"}}}`))
	if err != nil {
		panic(err)
	}
	l, err := tablemap.NewLayout("dim", sch.Root, keys, table.Options{Schema: "SHOP", IdentifierUpper: true, TimestampTZ: true,
		AddRecordMetadata: true, History: true, BooleanNative: native}, nil)
	if err != nil {
		panic(err)
	}
	return l.Table()
}

func historyStep(t *table.Table, nkeys int) *engine.History {
	h := &engine.History{Table: t, DatabaseTime: table.MetaLoadedAt}
	for _, c := range t.Columns {
		h.Columns = append(h.Columns, c.Name)
	}
	h.KeyColumns = slices.Clone(t.PrimaryKey[:len(t.PrimaryKey)-1])
	h.ValidFrom = slices.Index(h.Columns, table.MetaValidFrom)
	h.ValidTo = slices.Index(h.Columns, table.MetaValidTo)
	h.IsCurrent = slices.Index(h.Columns, table.MetaIsCurrent)
	h.RowHash = slices.Index(h.Columns, table.MetaRowHash)
	h.TableVersion = slices.Index(h.Columns, table.MetaTableVersion)
	for i := 0; i < nkeys; i++ {
		vals := make([]string, len(h.Columns))
		vals[0], vals[1] = string(rune('1'+i)), "EU"
		h.Rows = append(h.Rows, engine.Row{Kind: engine.RowUpsert, Values: vals})
	}
	return h
}

func historyGoldenCases() []goldenCase {
	plain := New(Options{})
	steps := func(st ...engine.Step) func() ([]Statement, error) {
		return func() ([]Statement, error) { return plain.Steps(st) }
	}
	return []goldenCase{
		// Two keys: the read names two places.
		{name: "history_single_key", render: steps(historyStep(historyTable([]string{"id"}, false), 2))},
		// Three keys round up to four places; BOOLEAN _SDC_IS_CURRENT.
		{name: "history_composite_key", render: steps(historyStep(historyTable([]string{"id", "region"}, true), 3))},
		{name: "history_close_versions", render: steps(&engine.CloseVersions{Table: historyTable([]string{"id"}, false),
			Version: "1700000000000", At: "2024-05-06T07:08:09.5Z", VersionColumn: table.MetaTableVersion,
			ValidFrom: table.MetaValidFrom, ValidTo: table.MetaValidTo, IsCurrent: table.MetaIsCurrent})},
	}
}
