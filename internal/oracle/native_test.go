package oracle_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/pipeline"
)

// runOn runs input through the pipeline on eng with the server facts srv.
func runOn(t testing.TB, eng engine.Engine, srv pipeline.Server, settings, input string) error {
	t.Helper()
	srv.DefaultSchema, srv.IdentifierMaxBytes, srv.VarcharMaxBytes = schemaName, 128, 4000
	var out strings.Builder
	return pipeline.Run(context.Background(), pipeline.Options{
		Config: loadConfig(t, settings), Engine: eng, Server: srv,
		Input: strings.NewReader(input), StateOut: &out, Now: clock,
	})
}

const filesSchema = `{"type":"SCHEMA","stream":"files","key_properties":["digest"],"schema":{"type":"object","properties":{` +
	`"digest":{"type":"string","contentEncoding":"base16","maxLength":32},` +
	`"thumb":{"type":["null","string"],"contentEncoding":"base64","maxLength":400},` +
	`"content":{"type":["null","string"],"contentEncoding":"base64"}}}}`

// filesInput is n records whose CONTENT has each size in sizes in turn
// (0: NULL), as base64.
func filesInput(n int, sizes ...int) string {
	lines := []string{filesSchema}
	for i := 0; i < n; i++ {
		content := "null"
		if size := sizes[i%len(sizes)]; size > 0 {
			b := make([]byte, size)
			for j := range b {
				b[j] = byte(i + j)
			}
			content = `"` + base64.StdEncoding.EncodeToString(b) + `"`
		}
		lines = append(lines, fmt.Sprintf(`{"type":"RECORD","stream":"files","record":{"digest":"%08x","thumb":"AAEC","content":%s}}`, i, content))
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestBinaryOnTheWire (SPEC §6.1): RAW and BLOB columns land on the fake
// server as on the embedded engine. Values within the RAW limit travel as
// RAW binds, never as temporary LOBs; longer ones in an INSERT as LONG
// RAW binds above go-ora's RAW switch (4000 bytes) and as temporary BLOBs
// between 2001 and 4000 bytes, where go-ora would still send a RAW; in an
// upsert the split shape carries values above 4000 bytes as LONG RAW
// too, and the MERGE's select list takes temporary BLOBs for the rest.
// The executes per batch do not grow with its rows.
func TestBinaryOnTheWire(t *testing.T) {
	for _, c := range []struct {
		name     string
		settings string
		sizes    []int
		tempLOBs func(n int) int // for n records
	}{
		{"short, upsert", `{"interpret_content_encoding": true}`, []int{1, 2000, 0}, func(int) int { return 0 }},
		{"short, append-only", `{"interpret_content_encoding": true, "load_method": "append-only"}`, []int{1, 2000, 0}, func(int) int { return 0 }},
		{"long, append-only", `{"interpret_content_encoding": true, "load_method": "append-only"}`, []int{10, 3000, 5000, 0}, func(n int) int { return n / 4 }},
		{"long, upsert", `{"interpret_content_encoding": true}`, []int{10, 3000, 5000, 0}, func(n int) int { return n / 4 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			executes := map[int]int{}
			for _, n := range []int{8, 80} {
				in := filesInput(n, c.sizes...)
				r := defaultRig(t)
				if err := runOn(t, r.eng, pipeline.Server{}, c.settings, in); err != nil {
					t.Fatal(err)
				}
				m := newMemory()
				if err := runOn(t, m, pipeline.Server{}, c.settings, in); err != nil {
					t.Fatal(err)
				}
				compare(t, oracleSnapshot(t, r, runMetadata), memorySnapshot(m, runMetadata))
				if got, want := r.db.LOBs().TempLOBs, c.tempLOBs(n); got != want {
					t.Errorf("%d records: %d temporary LOBs, want %d", n, got, want)
				}
				executes[n] = r.db.Calls(fake.OpInsert) + r.db.Calls(fake.OpMerge) + r.db.Calls(fake.OpUpdate)
			}
			if executes[8] != executes[80] {
				t.Errorf("executes grow with the rows: %v", executes)
			}
		})
	}
}

const vectorsSchema = `{"type":"SCHEMA","stream":"emb","key_properties":["id"],"schema":{"type":"object","properties":{` +
	`"id":{"type":"integer"},` +
	`"embedding":{"type":["null","array"],"items":{"type":"number"},"x-sql-datatype":"vector","x-sql-datatype-properties":{"dimensions":3}},` +
	`"codes":{"type":["null","array"],"items":{"type":"integer"},"x-sql-datatype":"pgvector","x-sql-datatype-properties":{"format":"int8"}}}}}`

// TestVectorsOnTheWire: on a server with VECTOR (23ai), vector
// properties are VECTOR columns bound as text through TO_VECTOR, with the
// elements rounded to the format, on the fake as on the embedded engine;
// a long vector text takes a temporary CLOB only above the VARCHAR limit.
// A second run adopts the VECTOR columns without a change.
func TestVectorsOnTheWire(t *testing.T) {
	long := strings.TrimSuffix(strings.Repeat("1,", 2100), ",") // 4199 bytes: above the VARCHAR limit
	in := vectorsSchema + "\n" +
		`{"type":"RECORD","stream":"emb","record":{"id":1,"embedding":[0.1,2,-3.14159265358979],"codes":[1,-128,127]}}` + "\n" +
		`{"type":"RECORD","stream":"emb","record":{"id":2,"embedding":null,"codes":[` + long + `]}}` + "\n"
	srv := pipeline.Server{VectorNative: true}
	r := defaultRig(t)
	if err := runOn(t, r.eng, srv, "", in); err != nil {
		t.Fatal(err)
	}
	m := newMemory()
	if err := runOn(t, m, srv, "", in); err != nil {
		t.Fatal(err)
	}
	// ALL_TAB_COLS shows no vector shape: the Oracle engine's Describe
	// reads a bare VECTOR (see nativeFromCatalog).
	got, want := oracleSnapshot(t, r, runMetadata), memorySnapshot(m, runMetadata)
	for q, w := range want {
		want[q] = strings.NewReplacer("VECTOR(3, FLOAT32)", "VECTOR", "VECTOR(*, INT8)", "VECTOR").Replace(w)
	}
	compare(t, got, want)
	rows := m.Rows(schemaName + ".EMB")
	if rows[0]["EMBEDDING"] != "[0.1,2,-3.1415927]" || rows[0]["CODES"] != "[1,-128,127]" {
		t.Errorf("stored vectors %v", rows[0])
	}
	if tb := m.Tables()[schemaName+".EMB"]; tb.Column("EMBEDDING").Type.String() != "VECTOR(3, FLOAT32)" || tb.Column("CODES").Type.String() != "VECTOR(*, INT8)" {
		t.Errorf("columns %+v", tb.Columns)
	}
	if n := r.db.LOBs().TempLOBs; n != 1 {
		t.Errorf("%d temporary LOBs, want 1 (the 4199-byte vector text)", n)
	}
	ddl := r.db.Calls(fake.OpDDL)
	if err := runOn(t, r.eng, srv, "", in); err != nil {
		t.Fatal(err)
	}
	if n := r.db.Calls(fake.OpDDL); n != ddl {
		t.Errorf("the second run ran %d DDL statements on the adopted table", n-ddl)
	}
}
