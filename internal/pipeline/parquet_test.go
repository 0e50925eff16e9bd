package pipeline_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"
)

type pqAddress struct {
	City string `parquet:"city"`
	Zip  string `parquet:"zip"`
}

type pqOrder struct {
	ID      int64      `parquet:"id"`
	Amount  int64      `parquet:"amount,decimal(2:12)"`
	Address *pqAddress `parquet:"address,optional"`
	Tags    []string   `parquet:"tags,list"`
}

// A Parquet BATCH file with nested and decimal columns loads the same
// rows as the equivalent JSONL BATCH file.
func TestParquetBatchLoadsLikeJSONL(t *testing.T) {
	dir := t.TempDir()
	rows := []pqOrder{
		{ID: 1, Amount: 123450, Address: &pqAddress{City: "Oslo", Zip: "0150"}, Tags: []string{"a", "b"}},
		{ID: 2, Amount: -5, Tags: []string{}},
	}
	pq := filepath.Join(dir, "orders.parquet")
	if err := parquet.WriteFile(pq, rows); err != nil {
		t.Fatal(err)
	}
	jl := filepath.Join(dir, "orders.jsonl")
	if err := os.WriteFile(jl, []byte(`{"id":1,"amount":1234.50,"address":{"city":"Oslo","zip":"0150"},"tags":["a","b"]}`+"\n"+
		`{"id":2,"amount":-0.05,"address":null,"tags":[]}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	schema := `{"type":"SCHEMA","stream":"orders","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"amount":{"type":"number"},"address":{"type":["null","object"],"properties":{"city":{"type":"string"},"zip":{"type":"string"}}},"tags":{"type":"array","items":{"type":"string"}}}}}`
	load := func(format, path string) []map[string]string {
		eng := newEngine()
		batch := `{"type":"BATCH","stream":"orders","encoding":{"format":"` + format + `","compression":"none"},"manifest":["file://` + path + `"]}`
		if _, err := run(t, eng, loadConfig(t, ""), input(schema, batch)); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		out := eng.Rows("DRY_RUN.ORDERS")
		for _, r := range out {
			for _, c := range runDependent {
				delete(r, c)
			}
		}
		return out
	}
	fromParquet, fromJSONL := load("parquet", pq), load("jsonl", jl)
	if !reflect.DeepEqual(fromParquet, fromJSONL) {
		a, _ := json.Marshal(fromParquet)
		b, _ := json.Marshal(fromJSONL)
		t.Fatalf("parquet rows:\n%s\njsonl rows:\n%s", a, b)
	}
	if fromParquet[0]["AMOUNT"] != "1234.5" || fromParquet[1]["AMOUNT"] != "-0.05" || fromParquet[0]["ADDRESS"] != `{"city":"Oslo","zip":"0150"}` {
		t.Fatalf("rows %v", fromParquet)
	}
}
