// Package bench measures target-oracle against the yardstick of SPEC §10:
// the benchmark stream and the decode-into-maps baseline, run alternately
// on the same file, reporting records/s and peak memory.
package bench

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
)

// Schema is the benchmark stream's SCHEMA line, the same shape as
// ../shared/bench/gen.py writes.
const Schema = `{"type": "SCHEMA", "stream": "bench_orders", "key_properties": ["id"], "schema": {"type": "object", "properties": {` +
	`"id": {"type": "integer"}, "uuid": {"type": "string", "maxLength": 36}, "customer": {"type": ["null", "string"]}, ` +
	`"email": {"type": ["null", "string"], "format": "email"}, "amount": {"type": ["null", "number"], "multipleOf": 0.01}, ` +
	`"qty": {"type": ["null", "integer"]}, "active": {"type": ["null", "boolean"]}, ` +
	`"created_at": {"type": ["null", "string"], "format": "date-time"}, "updated_at": {"type": ["null", "string"], "format": "date-time"}, ` +
	`"address": {"type": ["null", "object"], "properties": {"street": {"type": "string"}, "city": {"type": "string"}, "zip": {"type": "string"}}}, ` +
	`"tags": {"type": ["null", "array"], "items": {"type": "string"}}}}}`

var words = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"}

// Generate writes the benchmark stream of n records: one SCHEMA, records of
// ~475 bytes with 11 mixed columns, a STATE every 10,000 records. The output
// is deterministic for a given n (it is not byte-identical to gen.py's,
// whose random source is Python's, but has the same shape and sizes).
func Generate(w io.Writer, n int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	rnd := rand.New(rand.NewPCG(7, 7))
	fmt.Fprintln(bw, Schema)
	for i := 1; i <= n; i++ {
		p := rnd.Perm(len(words))
		w0, w1, w2 := words[p[0]], words[p[1]], words[p[2]]
		fmt.Fprintf(bw, `{"type": "RECORD", "stream": "bench_orders", "record": {"id": %d, "uuid": "%08x-%04x-%04x-%04x-%012x", `+
			`"customer": "%s %s", "email": "%s.%s@example.com", "amount": %d.%02d, "qty": %d, "active": %t, `+
			`"created_at": "2024-%02d-%02dT%02d:%02d:%02d.%06dZ", "updated_at": "2025-%02d-%02dT%02d:%02d:%02d+02:00", `+
			`"address": {"street": "%d %s Street", "city": "%s", "zip": "%05d"}, "tags": ["%s", "%s", "%s"]}, "time_extracted": "2025-06-01T00:00:00Z"}`+"\n",
			i, rnd.Uint32(), rnd.Uint32()&0xffff, rnd.Uint32()&0xffff, rnd.Uint32()&0xffff, rnd.Uint64()&0xffffffffffff,
			title(w0), title(w1), w0, w1, rnd.IntN(100000), rnd.IntN(100), rnd.IntN(1000), rnd.IntN(2) == 0,
			1+rnd.IntN(12), 1+rnd.IntN(28), rnd.IntN(24), rnd.IntN(60), rnd.IntN(60), rnd.IntN(1000000),
			1+rnd.IntN(12), 1+rnd.IntN(28), rnd.IntN(24), rnd.IntN(60), rnd.IntN(60),
			1+rnd.IntN(998), title(w2), title(w1), rnd.IntN(100000), w0, w1, w2)
		if i%10000 == 0 {
			fmt.Fprintf(bw, `{"type": "STATE", "value": {"bookmarks": {"bench_orders": {"id": %d}}}}`+"\n", i)
		}
	}
	return bw.Flush()
}

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
