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

// Two stream names that load into one table must have the same key: the
// second SCHEMA fails, at its own line, before anything is loaded.
func TestStreamsIntoOneTableMustAgreeOnKeys(t *testing.T) {
	a := `{"type":"SCHEMA","stream":"Orders","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"a":{"type":"integer"}}}}`
	b := `{"type":"SCHEMA","stream":"orders","key_properties":["a"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"a":{"type":"integer"}}}}`
	_, err := run(t, newEngine(), loadConfig(t, ""), input(a, b, `{"type":"RECORD","stream":"orders","record":{"id":1,"a":2}}`))
	wantInputError(t, err, "keys must agree")
	if !strings.HasPrefix(err.Error(), `line 2: stream "orders"`) {
		t.Fatalf("error %q does not name line 2 and stream orders", err)
	}
}
