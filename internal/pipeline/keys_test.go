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
