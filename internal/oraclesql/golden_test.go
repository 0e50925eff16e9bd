package oraclesql

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/tablemap"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenCase renders one statement shape into testdata/<name>.sql, or
// testdata/nolint/<name>.sql for the shapes the lint grammar cannot parse.
type goldenCase struct {
	name   string
	nolint bool
	render func() ([]Statement, error)
}

func stmts(s ...Statement) func() ([]Statement, error) {
	return func() ([]Statement, error) { return s, nil }
}

func storage() Options {
	return Options{
		Tablespace: "data_ts", IndexTablespace: "IDX_TS", LOBTablespace: "lob_ts",
		GrantSelectTo: []string{"reporting", "public", "Mixed Case"}, ColumnComments: true,
	}
}

// datetimeKeyTable is the table NewLayout makes for a stream keyed by a
// date-time property.
func datetimeKeyTable() *table.Table {
	sch, err := schema.Compile([]byte(`{"type":"object","properties":{"at":{"type":"string","format":"date-time"},"v":{"type":["null","string"],"maxLength":10}}}`))
	if err != nil {
		panic(err)
	}
	l, err := tablemap.NewLayout("events", sch.Root, []string{"at"}, table.Options{Schema: "SHOP", IdentifierUpper: true, TimestampTZ: true}, nil)
	if err != nil {
		panic(err)
	}
	return l.Table()
}

// optionTable is a table the model builds with partitioning and
// compression options: "at" is the key, "seen" a required date-time.
func optionTable(tz bool, part table.PartitionOption, compression string, metadata bool) *table.Table {
	sch, err := schema.Compile([]byte(`{"type":"object","required":["seen"],"properties":{"id":{"type":"integer"},"at":{"type":"string","format":"date-time"},"seen":{"type":"string","format":"date-time"},"v":{"type":["null","string"],"maxLength":10}}}`))
	if err != nil {
		panic(err)
	}
	o := table.Options{Schema: "SHOP", IdentifierUpper: true, TimestampTZ: tz, Partitioning: part, Compression: compression, AddRecordMetadata: metadata}
	l, err := tablemap.NewLayout("events", sch.Root, []string{"id"}, o, nil)
	if err != nil {
		panic(err)
	}
	return l.Table()
}

// indexNames renders the CREATE INDEX statements of tables NewLayout
// makes with unnamed custom_indexes, whose names must be unique per
// schema: ORDER.LINE_ID and ORDER_LINE.ID both had ORDER_LINE_ID_IDX.
func indexNames(maxBytes int, tables ...[2]string) func() ([]Statement, error) {
	return func() ([]Statement, error) {
		var out []Statement
		for _, tc := range tables {
			stream, col := tc[0], tc[1]
			sch, err := schema.Compile([]byte(`{"type":"object","properties":{"k":{"type":"integer"},"` + col + `":{"type":["null","integer"]}}}`))
			if err != nil {
				return nil, err
			}
			o := table.Options{Schema: "SHOP", IdentifierUpper: true, IdentifierMaxBytes: maxBytes,
				CustomIndexes: []table.Index{{Columns: []string{col}, Unique: true}, {Columns: []string{"k", col}}}}
			l, err := tablemap.NewLayout(stream, sch.Root, []string{"k"}, o, nil)
			if err != nil {
				return nil, err
			}
			ss, err := New(Options{IdentifierMaxBytes: maxBytes}).Change(engine.Change{Table: l.Table(), Change: table.Change{Kind: table.CreateTable}})
			if err != nil {
				return nil, err
			}
			for _, st := range ss {
				if st.Index != nil {
					out = append(out, st)
				}
			}
		}
		return out, nil
	}
}

func goldenCases() []goldenCase {
	return append(append(baseGoldenCases(), scratchGoldenCases()...), historyGoldenCases()...)
}

func baseGoldenCases() []goldenCase {
	plain := New(Options{})
	stored := New(storage())
	short := New(Options{IdentifierMaxBytes: table.MaxBytesShort, ColumnComments: true})
	chg := func(r *Renderer, ch engine.Change) func() ([]Statement, error) {
		return func() ([]Statement, error) { return r.Change(ch) }
	}
	steps := func(r *Renderer, st ...engine.Step) func() ([]Statement, error) {
		return func() ([]Statement, error) { return r.Steps(st) }
	}

	keyless := small()
	keyless.Name, keyless.PrimaryKey, keyless.Indexes = "EVENTS", nil, nil
	keyless.Columns = keyless.Columns[1:]
	national := &table.Table{Schema: "SHOP", Name: "NOTES", Columns: []table.Column{
		key("CODE", tNVarChar), prop("TEXT_N", tNClob), prop("DOC_N", tJSONNClob),
	}, PrimaryKey: []string{"CODE"}}
	long := &table.Table{Schema: "SHOP", Name: "A_VERY_LONG_TABLE_NAME_OF_30_B", Columns: []table.Column{
		key("ID", tInt), prop("A_BOOLEAN_COLUMN_WITH_LONG_NAME", tBoolNum), prop("JSON_DOCUMENT_COLUMN_NAME_30B", tJSONClob),
	}, PrimaryKey: []string{"ID"}}
	oneLOB := &table.Table{Schema: "SHOP", Name: "DOCS", Columns: []table.Column{
		key("ID", tInt), prop("BODY", tClob),
	}, PrimaryKey: []string{"ID"}, Indexes: []table.Index{{Name: "DOCS_ID_BODY_IX", Columns: []string{"ID"}}}}
	keyMigrated := small()
	keyMigrated.Indexes = append(keyMigrated.Indexes, table.Index{Name: "CUSTOMERS_ID_IX", Columns: []string{"ID", "CITY"}})

	at := allTypes()
	mig := func(col string, from, to table.Type) func() ([]Statement, error) {
		base := at.Clone()
		base.Column(col).Type = from
		return chg(plain, migrateChange(base, col, from, to))
	}

	softMissing := write(small(), engine.Upsert, engine.RowSoftDelete)
	softMissing.Columns = []string{"ID", "NOTE"}
	softMissing.Rows = rows(2, engine.RowSoftDelete)
	// Another stream mapped to the table brought ZIP: this stream's upserts
	// set it to NULL (a record replaces the whole row), its soft deletes
	// leave it.
	nullCols := write(withColumn(small(), prop("ZIP", tVarChar), false), engine.Upsert, engine.RowUpsert, engine.RowSoftDelete)
	nullCols.Columns = names(small())
	nullCols.NullColumns = []string{"ZIP"}
	onlyKeys := &table.Table{Schema: "SHOP", Name: "TAGS", Columns: []table.Column{key("ID", tInt), key("TAG", tVarChar)}, PrimaryKey: []string{"ID", "TAG"}}
	onlyKeysWrite := write(onlyKeys, engine.Upsert, engine.RowUpsert, engine.RowHardDelete)
	onlyKeysWrite.DatabaseTime, onlyKeysWrite.MetadataColumns = "", nil
	oddWrite := write(odd(), engine.Upsert, engine.RowUpsert, engine.RowHardDelete)
	oddWrite.DatabaseTime, oddWrite.MetadataColumns = "", nil
	keylessWrite := write(keyless, engine.Insert, engine.RowUpsert, engine.RowSoftDelete)
	keylessWrite.KeyColumns = nil

	dv := func(hard bool) *engine.DeleteVersions {
		return &engine.DeleteVersions{Table: small(), Version: "1700000000000", Hard: hard, At: "2024-05-06T07:08:09.5Z",
			VersionColumn: table.MetaTableVersion, DeletedColumn: table.MetaDeletedAt}
	}

	// delete_missing: CUSTOMERS with the run id column; the refused keys
	// of a composite-key table.
	pruned := func() *table.Table {
		t := small()
		t.Columns = append(t.Columns, meta(table.MetaRunID, table.Type{Kind: table.KindVarchar, Length: table.RunIDBytes}))
		return t
	}
	prune := func(hard bool) *engine.DeleteMissing {
		return &engine.DeleteMissing{Table: pruned(), RunColumn: table.MetaRunID, RunID: "0123456789abcdef0123456789abcdef", Hard: hard,
			DeletedColumn: table.MetaDeletedAt, At: "2024-05-06T07:08:09.5Z", MaxFraction: 0.5}
	}
	keepTable := &table.Table{Schema: "SHOP", Name: "TAGS", Columns: []table.Column{key("ID", tInt), key("TAG", tVarChar),
		meta(table.MetaRunID, table.Type{Kind: table.KindVarchar, Length: table.RunIDBytes})}, PrimaryKey: []string{"ID", "TAG"}}
	keep := &engine.KeepKeys{Table: keepTable, KeyColumns: []string{"ID", "TAG"}, RunColumn: table.MetaRunID, RunID: "0123456789abcdef0123456789abcdef",
		Rows: []engine.Row{{Values: []string{"1", "a"}}, {Values: []string{"2", "b"}}}}
	pruneCount := func(hard bool) func() ([]Statement, error) {
		return func() ([]Statement, error) {
			st, err := PruneCount(prune(hard))
			return []Statement{st}, err
		}
	}

	// The key of CUSTOMERS moves from ID to NOTE (an empty table).
	rekeyed := small()
	rekeyed.PrimaryKey = []string{"NOTE"}
	// As table.Reconcile leaves it: the comment records the key replaced.
	rekeyed.Streams, rekeyed.ReplacedKey = []string{"customers"}, []string{"ID"}
	replaceKey := engine.Change{Table: rekeyed, Change: table.Change{Kind: table.ReplaceKey, OldKey: []string{"ID"}}}
	// CUSTOMERS loses its key (the stream became keyless; an empty table).
	unkeyed := small()
	unkeyed.PrimaryKey = nil
	unkeyed.Streams, unkeyed.ReplacedKey = []string{"customers"}, []string{"ID"}
	dropKey := engine.Change{Table: unkeyed, Change: table.Change{Kind: table.ReplaceKey, OldKey: []string{"ID"}}}
	// A keyless table gets the stream's new key (an empty table).
	keyed := small()
	keyed.Streams, keyed.ReplacedKey = []string{"customers"}, []string{}
	addKey := engine.Change{Table: keyed, Change: table.Change{Kind: table.ReplaceKey}}

	// CUSTOMERS, existing, gets a custom index added later (table.AddIndex).
	byNote := table.Index{Name: "CUSTOMERS_NOTE_IDX", Columns: []string{"NOTE"}, Unique: true}
	indexed := small()
	indexed.Indexes = []table.Index{byNote}
	addIndex := engine.Change{Table: indexed, Change: table.Change{Kind: table.AddIndex, Index: byNote}}

	cases := []goldenCase{
		{name: "add_index", render: chg(plain, addIndex)},
		{name: "add_index_tablespace", render: chg(stored, addIndex)},
		{name: "replace_key", render: chg(plain, replaceKey)},
		{name: "replace_key_none", render: chg(plain, dropKey)},
		{name: "replace_key_added", render: chg(plain, addKey)},
		{name: "create_table_all_types", render: chg(plain, change(allTypes(), table.CreateTable, "", table.Type{}, table.Type{}))},
		{name: "create_table_storage", render: chg(stored, change(oneLOB, table.CreateTable, "", table.Type{}, table.Type{}))},
		{name: "create_table_comments_indexes_grants", render: chg(New(Options{ColumnComments: true, GrantSelectTo: []string{"REPORTING"}}), change(small(), table.CreateTable, "", table.Type{}, table.Type{}))},
		{name: "create_table_many_lobs_tablespace", render: chg(stored, change(allTypes(), table.CreateTable, "", table.Type{}, table.Type{}))},
		{name: "create_table_lob_tablespace_quoted_name", nolint: true, render: chg(stored, change(odd(), table.CreateTable, "", table.Type{}, table.Type{}))},
		{name: "create_table_json_text", render: chg(plain, change(withColumn(withColumn(small(), prop("ANY", tJSONText, "any"), true), prop("DOC", tJSONClob, "doc"), true), table.CreateTable, "", table.Type{}, table.Type{}))},
		{name: "add_column_json_text", render: chg(plain, change(withColumn(small(), prop("ANY", tJSONText, "any"), true), table.AddColumn, "ANY", table.Type{}, tJSONText))},
		{name: "create_table_keyless", render: chg(plain, change(keyless, table.CreateTable, "", table.Type{}, table.Type{}))},
		{name: "create_table_national", render: chg(plain, change(national, table.CreateTable, "", table.Type{}, table.Type{}))},
		{name: "create_table_30_byte_identifiers", render: chg(short, change(long, table.CreateTable, "", table.Type{}, table.Type{}))},
		{name: "create_table_odd_names", render: chg(New(Options{ColumnComments: true}), change(odd(), table.CreateTable, "", table.Type{}, table.Type{}))},
		// The table model, not a hand-made table: a new date-time key is
		// TIMESTAMP(9), as keys never widen (SPEC §5.2).
		{name: "create_table_datetime_key", render: func() ([]Statement, error) {
			return plain.Change(change(datetimeKeyTable(), table.CreateTable, "", table.Type{}, table.Type{}))
		}},

		// Partitioning and compression of new tables (SPEC §3), from the model.
		{name: "create_table_partitioned_month", render: chg(stored, change(optionTable(false, table.PartitionOption{Column: "seen", Interval: "month"}, "none", false), table.CreateTable, "", table.Type{}, table.Type{}))},
		{name: "create_table_partitioned_received_at", render: chg(plain, change(optionTable(false, table.PartitionOption{Column: "_sdc_received_at", Interval: "day"}, "", false), table.CreateTable, "", table.Type{}, table.Type{}))},
		{name: "create_table_partitioned_tz", nolint: true, render: chg(plain, change(optionTable(true, table.PartitionOption{Column: "seen", Interval: "year"}, "", false), table.CreateTable, "", table.Type{}, table.Type{}))},
		{name: "create_table_compress_advanced", nolint: true, render: chg(stored, change(optionTable(false, table.PartitionOption{}, "advanced", false), table.CreateTable, "", table.Type{}, table.Type{}))},
		{name: "create_table_compress_query_high", nolint: true, render: chg(plain, change(optionTable(false, table.PartitionOption{}, "query_high", false), table.CreateTable, "", table.Type{}, table.Type{}))},
		{name: "create_table_compress_archive_low_partitioned", nolint: true, render: chg(plain, change(optionTable(false, table.PartitionOption{Column: "seen", Interval: "month"}, "archive_low", false), table.CreateTable, "", table.Type{}, table.Type{}))},

		{name: "add_column", render: chg(New(Options{ColumnComments: true}), change(withColumn(small(), prop("ZIP", tVarChar, "address", "zip"), false), table.AddColumn, "ZIP", table.Type{}, tVarChar))},
		{name: "add_column_bool_number", render: chg(plain, change(withColumn(small(), prop("ACTIVE", tBoolNum), false), table.AddColumn, "ACTIVE", table.Type{}, tBoolNum))},
		{name: "add_column_bool_native", render: chg(plain, change(withColumn(small(), prop("ACTIVE", tBool), false), table.AddColumn, "ACTIVE", table.Type{}, tBool))},
		{name: "add_column_json_clob", render: chg(plain, change(withColumn(small(), prop("EXTRA", tJSONClob), false), table.AddColumn, "EXTRA", table.Type{}, tJSONClob))},
		{name: "add_column_json_native", render: chg(plain, change(withColumn(small(), prop("EXTRA", tJSON), false), table.AddColumn, "EXTRA", table.Type{}, tJSON))},
		{name: "add_column_lob_tablespace", render: chg(stored, change(withColumn(small(), prop("LONG_TEXT", tClob), false), table.AddColumn, "LONG_TEXT", table.Type{}, tClob))},
		{name: "add_column_30_byte_identifiers", render: chg(short, change(withColumn(long, prop("ANOTHER_BOOLEAN_WITH_LONG_NAME", tBoolNum), false), table.AddColumn, "ANOTHER_BOOLEAN_WITH_LONG_NAME", table.Type{}, tBoolNum))},

		{name: "widen_varchar", render: chg(plain, widenChange(at, "NAME", tVarChar, table.Type{Kind: table.KindVarchar, Length: 4000, CharSemantics: true}))},
		{name: "widen_varchar_byte_to_char", render: chg(plain, widenChange(at, "CODE", table.Type{Kind: table.KindVarchar, Length: 100}, table.Type{Kind: table.KindVarchar, Length: 4000, CharSemantics: true}))},
		{name: "widen_nvarchar", render: chg(plain, widenChange(at, "NOTE_N", tNVarChar, table.Type{Kind: table.KindVarchar, Length: 2000, CharSemantics: true, National: true}))},
		{name: "widen_number_precision", render: chg(plain, widenChange(at, "AMOUNT", tDec, table.Type{Kind: table.KindNumber, Precision: 13, Scale: 3}))},
		{name: "widen_number_unconstrained", render: chg(plain, widenChange(at, "AMOUNT", tDec, tNum))},
		{name: "widen_bool_number", render: chg(plain, widenChange(at, "PAID", tBoolNum, tInt))},
		// An underscore in the names: the check has the hashed name, and the
		// name without the hash (tables made before) is dropped too.
		{name: "widen_bool_number_underscores", render: chg(short, widenChange(long, "A_BOOLEAN_COLUMN_WITH_LONG_NAME", tBoolNum, tInt))},
		{name: "widen_timestamp_fraction", render: chg(plain, widenChange(at, "CREATED_AT", tTSTZ, table.Type{Kind: table.KindTimestamp, Frac: 9, TZ: true}))},
		{name: "widen_json_clob_to_clob", render: chg(plain, widenChange(at, "TAGS", tJSONClob, tClob))},

		{name: "migrate_varchar_to_clob", render: mig("NAME", tVarChar, tClob)},
		{name: "migrate_varchar_to_nvarchar", render: mig("NAME", tVarChar, tNVarChar)},
		{name: "migrate_varchar_to_nclob", render: mig("NAME", tVarChar, tNClob)},
		{name: "migrate_clob_to_nclob", render: mig("BODY", tClob, tNClob)},
		{name: "migrate_json_clob_to_nclob", render: mig("TAGS", tJSONClob, tNClob)},
		{name: "migrate_integer_to_varchar", render: mig("_SDC_TABLE_VERSION", tInt, table.Type{Kind: table.KindVarchar, Length: 39})},
		{name: "migrate_decimal_to_varchar", render: mig("AMOUNT", tDec, table.Type{Kind: table.KindVarchar, Length: 14})},
		{name: "migrate_number_to_varchar", render: mig("RATIO", tNum, tVarByte)},
		{name: "migrate_number_to_clob", render: mig("RATIO", tNum, tClob)},
		{name: "migrate_bool_number_to_varchar", render: mig("PAID", tBoolNum, table.Type{Kind: table.KindVarchar, Length: 5})},
		{name: "migrate_boolean_to_varchar", render: mig("IS_GIFT", tBool, table.Type{Kind: table.KindVarchar, Length: 5})},
		// A boolean widened to CLOB, as to VARCHAR2: 'true'/'false' (SPEC §5.5).
		{name: "migrate_bool_number_to_clob", render: mig("PAID", tBoolNum, tClob)},
		{name: "migrate_boolean_to_nclob", render: mig("IS_GIFT", tBool, tNClob)},
		{name: "migrate_boolean_to_number", render: mig("IS_GIFT", tBool, tInt)},
		{name: "migrate_date_to_timestamp_tz", render: mig("ORDERED_ON", tDate, tTSTZ)},
		{name: "migrate_date_to_timestamp", render: mig("ORDERED_ON", tDate, tTS6)},
		{name: "migrate_date_to_varchar", render: mig("ORDERED_ON", tDate, tVarByte)},
		{name: "migrate_timestamp_tz_to_varchar", render: mig("CREATED_AT", tTSTZ, table.Type{Kind: table.KindVarchar, Length: 30})},
		{name: "migrate_timestamp_to_nvarchar", render: mig("LOCAL_TS", tTS9, table.Type{Kind: table.KindVarchar, Length: 2000, CharSemantics: true, National: true})},
		{name: "migrate_json_native_to_clob", nolint: true, render: mig("ATTRS", tJSON, tClob)},
		{name: "migrate_key_column", render: chg(New(Options{ColumnComments: true, IndexTablespace: "IDX_TS"}), migrateChange(keyMigrated, "ID", tInt, table.Type{Kind: table.KindVarchar, Length: 40, CharSemantics: true}))},
		{name: "migrate_30_byte_identifiers", render: chg(short, migrateChange(long, "A_BOOLEAN_COLUMN_WITH_LONG_NAME", tBoolNum, table.Type{Kind: table.KindVarchar, Length: 5}))},
		{name: "foreign_marker", render: func() ([]Statement, error) {
			st, err := plain.ForeignMarker(keyMigrated, "ID", "ID$M", tInt, table.Type{Kind: table.KindVarchar, Length: 40, CharSemantics: true})
			return []Statement{st}, err
		}},
		{name: "foreign_marker_clob", render: func() ([]Statement, error) {
			st, err := plain.ForeignMarker(at, "RATIO", "RATIO$M", tNum, tClob)
			return []Statement{st}, err
		}},
		{name: "column_has_value", render: func() ([]Statement, error) {
			return []Statement{plain.ColumnHasValue(keyMigrated, "ID$M")}, nil
		}},
		{name: "finish_migration", render: func() ([]Statement, error) {
			return New(Options{ColumnComments: true}).FinishMigration(keyMigrated, "ID", "ID$M")
		}},

		{name: "insert_all_types", render: steps(plain, write(allTypes(), engine.Insert, engine.RowUpsert, engine.RowSoftDelete, engine.RowHardDelete))},
		{name: "insert_keyless", render: steps(plain, keylessWrite)},
		{name: "upsert_all_types", render: steps(plain, write(allTypes(), engine.Upsert, engine.RowUpsert, engine.RowSoftDelete, engine.RowHardDelete))},
		{name: "upsert_split_long", render: func() ([]Statement, error) {
			return plain.SplitUpsert(write(allTypes(), engine.Upsert, engine.RowUpsert), []string{"BODY", "BODY_N", "TAGS"})
		}},
		{name: "upsert_only_upserts", render: steps(plain, write(small(), engine.Upsert, engine.RowUpsert, engine.RowUpsert))},
		{name: "upsert_soft_delete_missing_metadata", render: steps(plain, softMissing)},
		{name: "upsert_only_key_columns", render: steps(plain, onlyKeysWrite)},
		{name: "upsert_null_columns", render: steps(plain, nullCols)},
		{name: "upsert_odd_names", render: steps(plain, oddWrite)},
		{name: "replace_then_insert", render: steps(plain, &engine.Replace{Table: small()}, write(small(), engine.Insert, engine.RowUpsert))},
		{name: "delete_versions_hard", render: steps(plain, dv(true))},
		{name: "delete_versions_soft", render: steps(plain, dv(false))},
		{name: "prune_hard", render: steps(plain, prune(true))},
		{name: "prune_soft", render: steps(plain, prune(false))},
		{name: "prune_count_hard", render: pruneCount(true)},
		{name: "prune_count_soft", render: pruneCount(false)},
		{name: "prune_keep_keys", render: steps(plain, keep)},
		{name: "truncate", render: stmts(plain.Truncate(small())...)},
		{name: "truncate_own_schema", render: stmts(plain.Truncate(odd())...)},

		{name: "session_setup", render: stmts(SessionSetup("orders", 30))},
		{name: "describe_table_comment", render: stmts(DescribeTableComment("SHOP", "ORDERS"), DescribeTableComment("", "select"))},
		{name: "create_table_streams", render: func() ([]Statement, error) {
			t := small()
			t.Name, t.Streams = "__", []string{"日本", "it's"}
			return plain.Change(engine.Change{Table: t, Change: table.Change{Kind: table.CreateTable}})
		}},
		{name: "describe_table", render: stmts(DescribeTable("SHOP", "ORDERS"), DescribeTable("", "select"))},
		{name: "describe_indexes", render: stmts(DescribeIndexes("SHOP", "ORDERS"), DescribeIndexes("", "select"))},
		// Unnamed custom indexes: a plain name only for one column and no
		// "_" in the names, else the hash of the table and columns.
		{name: "create_index_names", render: indexNames(table.MaxBytesLong, [2]string{"order", "line_id"}, [2]string{"order_line", "id"}, [2]string{"orders", "amount"})},
		{name: "create_index_names_30_byte_identifiers", render: indexNames(table.MaxBytesShort,
			[2]string{"a_very_long_table_name_of_30_b", "a_long_column_name"}, [2]string{"a_very_long_table_name_of_30", "b_a_long_column_name"})},
		{name: "check_probes", render: stmts(ProbeServer(), ProbeLongIdentifiers(), ProbeExtendedStrings(), ProbeStringBind(), ProbeBoolean(), ProbeJSONType(),
			ProbePrivileges(), ProbeQuotas(), ProbeSchema("SHOP"))},
	}
	return append(cases, nativeGoldenCases()...)
}

// format writes statements as in statements.sql (SPEC §11), each after
// comment lines describing its kind and binds.
func format(ss []Statement) string {
	var b strings.Builder
	for _, s := range ss {
		if s.Lock != nil {
			fmt.Fprintf(&b, "-- %s lock (first in each transaction of the next statement)\n%s\n/\n", s.Lock.Kind, s.Lock.SQL)
		}
		fmt.Fprintf(&b, "-- %s", s.Kind)
		if s.Repeat {
			b.WriteString(" repeat")
		}
		if len(s.IgnoreCodes) > 0 {
			fmt.Fprintf(&b, " ignore=%v", s.IgnoreCodes)
		}
		if s.Index != nil {
			b.WriteString(" if-indexed")
		}
		if s.Rows != 0 {
			fmt.Fprintf(&b, " rows=%s", rowSetString(s.Rows))
		}
		b.WriteString("\n")
		for i, bd := range s.Binds {
			src := fmt.Sprintf("row[%d]", bd.Index)
			if bd.Source == Fixed {
				src = fmt.Sprintf("fixed %q", bd.Value)
			}
			fmt.Fprintf(&b, "-- :%d %s %s %s\n", i+1, table.Quote(bd.Column), bd.Type, src)
		}
		b.WriteString(s.SQL)
		b.WriteString("\n/\n")
	}
	return b.String()
}

func rowSetString(s RowSet) string {
	var parts []string
	for _, k := range []struct {
		k    engine.RowKind
		name string
	}{{engine.RowUpsert, "upsert"}, {engine.RowSoftDelete, "soft-delete"}, {engine.RowHardDelete, "hard-delete"}} {
		if s.Has(k.k) {
			parts = append(parts, k.name)
		}
	}
	return strings.Join(parts, ",")
}

func goldenPath(c goldenCase) string {
	if c.nolint {
		return filepath.Join("testdata", "nolint", c.name+".sql")
	}
	return filepath.Join("testdata", c.name+".sql")
}

func TestGolden(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range goldenCases() {
		t.Run(c.name, func(t *testing.T) {
			if seen[c.name] {
				t.Fatalf("duplicate case name %s", c.name)
			}
			seen[c.name] = true
			ss, err := c.render()
			if err != nil {
				t.Fatal(err)
			}
			if len(ss) == 0 {
				t.Fatal("no statements")
			}
			again, err := c.render()
			if err != nil {
				t.Fatal(err)
			}
			got := format(ss)
			if again := format(again); again != got {
				t.Fatalf("second render differs:\n%s\nvs\n%s", got, again)
			}
			path := goldenPath(c)
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/oraclesql -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from the rendering (run with -update to accept):\ngot:\n%s\nwant:\n%s", path, got, want)
			}
		})
	}
}

// TestGoldenFilesHaveCases catches golden files left behind by a renamed
// case.
func TestGoldenFilesHaveCases(t *testing.T) {
	want := map[string]bool{}
	for _, c := range goldenCases() {
		want[goldenPath(c)] = true
	}
	for _, pattern := range []string{"testdata/*.sql", "testdata/nolint/*.sql"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			if !want[f] {
				t.Errorf("%s has no golden case", f)
			}
		}
	}
}
