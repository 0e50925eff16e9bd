package tablemap

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"

	"github.com/target-oracle/target-oracle/internal/bench"
	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/table"
)

// BenchmarkRowOnePassShapes runs RowOnePass over the records of SPEC §10's
// shapes (internal/bench), as the pipeline calls it: the benchmark stream,
// 200 columns, objects nested 3 and 6 levels deep and flattened. One
// iteration is one record; the time per value is the time per op divided
// by the columns the shape fills.
func BenchmarkRowOnePassShapes(b *testing.B) {
	for _, c := range []struct {
		name, shape string
		n, depth    int
		mode        string
	}{
		{"bench", "bench", 20000, 0, ""},
		{"wide", "wide", 2000, 0, ""},
		{"nested3", "nested:3", 20000, 3, table.ModeFlattened},
		{"nested6", "nested:6", 20000, 6, table.ModeFlattened},
	} {
		b.Run(c.name, func(b *testing.B) {
			var out bytes.Buffer
			if err := bench.GenerateShape(&out, c.shape, c.n); err != nil {
				b.Fatal(err)
			}
			var l *Layout
			var records [][]byte
			sc := bufio.NewScanner(&out)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				var m struct {
					Type   string
					Schema json.RawMessage
					Keys   []string `json:"key_properties"`
					Record json.RawMessage
				}
				if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
					b.Fatal(err)
				}
				switch {
				case m.Type == "SCHEMA" && l == nil:
					sch, err := schema.Compile(m.Schema)
					if err != nil {
						b.Fatal(err)
					}
					opts := table.Options{Schema: "S", IdentifierUpper: true, AddRecordMetadata: true, TimestampTZ: true,
						StorageMode: c.mode, FlatteningMaxDepth: c.depth}
					if l, err = NewLayout("s", sch.Root, m.Keys, opts, nil); err != nil {
						b.Fatal(err)
					}
					sch.KeepNumberText(l.NumberTextPaths())
					if !l.UseOnePass(sch) {
						b.Fatal("UseOnePass declined the shape's schema")
					}
				case m.Type == "RECORD":
					records = append(records, m.Record)
				}
			}
			row := make([]string, l.Columns())
			stats := make([]table.Stats, l.Columns())
			meta := &Meta{ReceivedAt: "2025-01-01T00:00:00Z", Sequence: 1}
			var size int
			for _, r := range records {
				size += len(r)
			}
			b.SetBytes(int64(size / len(records)))
			i := 0
			for b.Loop() {
				if err := l.RowOnePass(records[i], meta, row, stats, nil); err != nil {
					b.Fatal(err)
				}
				if i++; i == len(records) {
					i = 0
				}
			}
		})
	}
}
