package pipeline_test

import (
	"strings"
	"testing"
)

func TestChangedKeyProperties(t *testing.T) {
	byV := strings.Replace(schemaLine, `"key_properties":["id"]`, `"key_properties":["v"]`, 1)
	t.Run("table with rows", func(t *testing.T) {
		eng := newEngine()
		if _, err := run(t, eng, loadConfig(t, ""), input(schemaLine, rec(1, "a"))); err != nil {
			t.Fatal(err)
		}
		_, err := run(t, eng, loadConfig(t, ""), input(byV, rec(2, "b")))
		wantInputError(t, err, "key_properties changed from [ID] to [V]")
		if !strings.Contains(err.Error(), `ALTER TABLE "DRY_RUN"."S" DROP PRIMARY KEY`) {
			t.Fatalf("no manual procedure in %v", err)
		}
		if pk := eng.Tables()["DRY_RUN.S"].PrimaryKey; strings.Join(pk, ",") != "ID" {
			t.Fatalf("primary key changed to %v on a table with rows", pk)
		}
	})
	t.Run("empty table", func(t *testing.T) {
		eng := newEngine()
		if _, err := run(t, eng, loadConfig(t, ""), input(schemaLine)); err != nil {
			t.Fatal(err)
		}
		if _, err := run(t, eng, loadConfig(t, ""), input(byV, rec(2, "b"))); err != nil {
			t.Fatal(err)
		}
		tb := eng.Tables()["DRY_RUN.S"]
		if strings.Join(tb.PrimaryKey, ",") != "V" || tb.Column("ID").Nullable != true || tb.Column("V").Nullable {
			t.Fatalf("after the key change: %+v", tb)
		}
		wantValues(t, eng, "S", "V", "b")
	})
}

// Two streams mapped to one table must have the same key: the second
// SCHEMA fails, at its own line, before anything is loaded.
func TestStreamsIntoOneTableMustAgreeOnKeys(t *testing.T) {
	a := `{"type":"SCHEMA","stream":"Orders","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"a":{"type":"integer"}}}}`
	b := `{"type":"SCHEMA","stream":"orders","key_properties":["a"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"a":{"type":"integer"}}}}`
	cfg := loadConfig(t, `{"table_name_mappings": {"Orders": "ORDERS", "orders": "ORDERS"}}`)
	_, err := run(t, newEngine(), cfg, input(a, b, `{"type":"RECORD","stream":"orders","record":{"id":1,"a":2}}`))
	wantInputError(t, err, "keys must agree")
	if !strings.HasPrefix(err.Error(), `line 2: stream "orders"`) {
		t.Fatalf("error %q does not name line 2 and stream orders", err)
	}
}

// Two streams mapped to one table with the same key but load methods
// that disagree on the primary key constraint (append-only creates none)
// fail naming the load methods, not the keys (which agree).
func TestStreamsIntoOneTableLoadMethodsConflict(t *testing.T) {
	cfg := loadConfig(t, `{"table_name_mappings": {"a": "T", "b": "T"}, "stream_overrides": {"b": {"load_method": "append-only"}}}`)
	a := `{"type":"SCHEMA","stream":"a","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}`
	b := strings.Replace(a, `"stream":"a"`, `"stream":"b"`, 1)
	_, err := run(t, newEngine(), cfg, input(a, b))
	wantInputError(t, err, `streams "a" (load_method upsert) and "b" (load_method append-only) both load into table DRY_RUN.T`)
	if strings.Contains(err.Error(), "keys must agree") {
		t.Errorf("error blames the keys, which agree: %v", err)
	}
}

// A key appearing or disappearing on a table with rows is a changed
// key_properties too (SPEC §4); a table an append-only load made (no
// constraint, key columns NOT NULL) takes upserts matched on the key
// columns, with a warning, and loses no row.
func TestKeyAppearsOrDisappears(t *testing.T) {
	keyless := strings.Replace(schemaLine, `"key_properties":["id"]`, `"key_properties":[]`, 1)
	t.Run("keyless to keyed", func(t *testing.T) {
		eng := newEngine()
		if _, err := run(t, eng, loadConfig(t, ""), input(keyless, rec(1, "a"))); err != nil {
			t.Fatal(err)
		}
		_, err := run(t, eng, loadConfig(t, ""), input(schemaLine, rec(2, "b")))
		wantInputError(t, err, "key_properties changed from [] to [ID]")
		if !strings.Contains(err.Error(), `ADD CONSTRAINT "S_PK" PRIMARY KEY ("ID")`) || strings.Contains(err.Error(), "DROP PRIMARY KEY") {
			t.Fatalf("wrong manual procedure in %v", err)
		}
	})
	t.Run("keyed to keyless", func(t *testing.T) {
		eng := newEngine()
		if _, err := run(t, eng, loadConfig(t, ""), input(schemaLine, rec(1, "a"))); err != nil {
			t.Fatal(err)
		}
		_, err := run(t, eng, loadConfig(t, ""), input(keyless, rec(1, "b")))
		wantInputError(t, err, "key_properties changed from [ID] to []")
		if strings.Contains(err.Error(), "PRIMARY KEY ()") {
			t.Fatalf("wrong manual procedure in %v", err)
		}
		wantValues(t, eng, "S", "V", "a")
	})
	t.Run("append-only table, then upserts", func(t *testing.T) {
		eng := newEngine()
		if _, err := run(t, eng, loadConfig(t, `{"load_method": "append-only"}`), input(schemaLine, rec(1, "run1"))); err != nil {
			t.Fatal(err)
		}
		if pk := eng.Tables()["DRY_RUN.S"].PrimaryKey; len(pk) != 0 {
			t.Fatalf("append-only table got a key constraint %v", pk)
		}
		if _, err := run(t, eng, loadConfig(t, ""), input(schemaLine, rec(2, "b"), rec(3, "c"), rec(1, "run2"))); err != nil {
			t.Fatal(err)
		}
		if got := ids(eng, "S"); got != "1,2,3" {
			t.Fatalf("rows %s, want ids 1,2,3", got)
		}
		wantValues(t, eng, "S", "V", "run2", "b", "c")
	})
}
