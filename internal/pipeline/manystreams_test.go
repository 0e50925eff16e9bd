package pipeline_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/pipeline"
)

// manyStreams is the input of a tap with many small tables (a database
// tap): n streams, each a SCHEMA of four properties with a key and
// records RECORDs, a STATE after every stateEvery streams and one at the
// end.
func manyStreams(n, records, stateEvery int) []byte {
	var b bytes.Buffer
	for i := range n {
		s := fmt.Sprintf("tbl_%05d", i)
		fmt.Fprintf(&b, `{"type":"SCHEMA","stream":%q,"key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":["null","string"]},"amount":{"type":["null","number"]},"updated_at":{"type":["null","string"],"format":"date-time"}}}}`+"\n", s)
		for r := range records {
			fmt.Fprintf(&b, `{"type":"RECORD","stream":%q,"record":{"id":%d,"name":"n%d","amount":1.5,"updated_at":"2024-01-01T00:00:00Z"}}`+"\n", s, r, i)
		}
		if i%stateEvery == stateEvery-1 {
			fmt.Fprintf(&b, `{"type":"STATE","value":{"bookmarks":{%q:{"i":%d}}}}`+"\n", s, i)
		}
	}
	fmt.Fprintf(&b, `{"type":"STATE","value":{"done":%d}}`+"\n", n)
	return b.Bytes()
}

// BenchmarkManyStreams shows how a run scales with its streams when each
// has one record (SPEC §10): ns/stream should stay about flat from 1,000
// to 10,000 streams. A scan of every stream per commit, per STATE, per
// flush past max_buffered_bytes, or of every table per CREATE TABLE in the
// embedded engine, made it grow with the streams (10,000 streams: 17.5 s,
// 1,250: 0.23 s).
func BenchmarkManyStreams(b *testing.B) {
	defer pipeline.VerifyFrontier(pipeline.VerifyFrontier(false))
	for _, n := range []int{1000, 10000} {
		in := manyStreams(n, 1, 100)
		b.Run(fmt.Sprintf("streams=%d", n), func(b *testing.B) {
			cfg := loadConfig(b, `{}`)
			b.SetBytes(int64(len(in)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				err := pipeline.Run(context.Background(), pipeline.Options{
					Config: cfg, Engine: memory.New(memory.Options{}),
					Server: testServer,
					Input:  bytes.NewReader(in), StateOut: io.Discard,
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n)/float64(b.N), "ns/stream")
		})
	}
}

// Thousands of streams with a STATE after each (the frontier's lines and
// the pending states' gaps are kept as they change, checked against a
// scan of every stream throughout: verify_test.go): every table gets its
// rows, the states come in input order, the last is the input's last, and
// a stream whose states are held (overwrite) lets none through before the
// end.
func TestManyStreamsKeepTheStateContract(t *testing.T) {
	const n = 1000
	in := string(manyStreams(n, 2, 1))
	for _, tc := range []struct {
		name, settings string
		held           bool
	}{
		{"upsert", `{}`, false},
		{"upsert, max_buffered_bytes 64 KiB", `{"max_buffered_bytes": 65536}`, false},
		{"overwrite", `{"load_method": "overwrite"}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := memory.New(memory.Options{KeepRows: true})
			states, err := run(t, eng, loadConfig(t, tc.settings), in)
			if err != nil {
				t.Fatal(err)
			}
			tables := eng.Tables()
			if len(tables) != n {
				t.Fatalf("%d tables, want %d", len(tables), n)
			}
			for _, i := range []int{0, n / 2, n - 1} {
				q := fmt.Sprintf("DRY_RUN.TBL_%05d", i)
				if rows := eng.Rows(q); len(rows) != 2 || rows[1]["NAME"] != fmt.Sprintf("n%d", i) {
					t.Fatalf("%s: rows %v", q, rows)
				}
			}
			if len(states) == 0 || states[len(states)-1] != fmt.Sprintf(`{"done":%d}`, n) {
				t.Fatalf("last state %q", states[len(states)-1:])
			}
			if tc.held && len(states) != 1 {
				t.Fatalf("%d states written while overwrite held them, want only the last: %q", len(states), states[:2])
			}
			last := -1
			for _, s := range states[:len(states)-1] {
				var i int
				if _, err := fmt.Sscanf(s[strings.LastIndex(s, `"i":`):], `"i":%d}}}`, &i); err != nil || i <= last {
					t.Fatalf("state %q after the one of stream %d", s, last)
				}
				last = i
			}
		})
	}
}
