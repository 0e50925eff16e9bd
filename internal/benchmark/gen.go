package benchmark

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync/atomic"

	"github.com/target-oracle/target-oracle/internal/bench"
)

// streamName is the i-th synthetic stream (each maps to its own table).
func streamName(i int) string { return fmt.Sprintf("target_oracle_bench_%d", i) }

// schemaLine is the SCHEMA of stream for shape s: the §10 benchmark
// record (11 mixed columns, ~475 bytes) for append and upsert, an integer
// key and one long text for the others.
func schemaLine(s Shape, stream string) string {
	switch s.Name {
	case "text-10kb":
		return fmt.Sprintf(`{"type":"SCHEMA","stream":%q,"key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"body":{"type":["null","string"],"maxLength":10240}}}}`, stream)
	case "lob-100kb":
		return fmt.Sprintf(`{"type":"SCHEMA","stream":%q,"key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"doc":{"type":["null","string"],"maxLength":204800}}}}`, stream)
	}
	return strings.Replace(bench.Schema, `"stream": "bench_orders"`, fmt.Sprintf(`"stream": %q`, stream), 1)
}

// schemaLines are the SCHEMA messages alone of shape s over streams
// streams: the input of the run that creates the tables.
func schemaLines(s Shape, streams int) string {
	var b strings.Builder
	for i := 0; i < streams; i++ {
		b.WriteString(schemaLine(s, streamName(i)) + "\n")
	}
	return b.String()
}

var words = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"}

// text is n bytes of words, different for each id.
func text(id, n int) string {
	var b strings.Builder
	b.Grow(n + 16)
	fmt.Fprintf(&b, "%d ", id)
	for i := id; b.Len() < n; i++ {
		b.WriteString(words[i%len(words)])
		b.WriteByte(' ')
	}
	return b.String()[:n]
}

// generate writes the input of shape s over streams streams, records
// dealt round robin, counting the RECORD bytes in read. Upsert keys
// repeat: record i has key i mod (rows/2), so half the records update a
// row an earlier one wrote.
func generate(w io.Writer, s Shape, streams int, read *atomic.Int64) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	for i := 0; i < streams; i++ {
		fmt.Fprintln(bw, schemaLine(s, streamName(i)))
	}
	rnd := rand.New(rand.NewPCG(11, 11))
	keys := s.Rows
	if s.Method == "upsert" {
		keys = max(1, s.Rows/2)
	}
	var line []byte
	for i := 0; i < s.Rows; i++ {
		st := streamName(i % streams)
		id := i%keys + 1
		line = line[:0]
		switch s.Name {
		case "text-10kb":
			line = fmt.Appendf(line, `{"type":"RECORD","stream":%q,"record":{"id":%d,"body":%q}}`, st, id, text(id, 10*1024))
		case "lob-100kb":
			line = fmt.Appendf(line, `{"type":"RECORD","stream":%q,"record":{"id":%d,"doc":%q}}`, st, id, text(id, 100*1024))
		default:
			p := rnd.Perm(len(words))
			w0, w1, w2 := words[p[0]], words[p[1]], words[p[2]]
			line = fmt.Appendf(line, `{"type": "RECORD", "stream": %q, "record": {"id": %d, "uuid": "%08x-%04x-%04x-%04x-%012x", `+
				`"customer": "%s %s", "email": "%s.%s@example.com", "amount": %d.%02d, "qty": %d, "active": %t, `+
				`"created_at": "2024-%02d-%02dT%02d:%02d:%02d.%06dZ", "updated_at": "2025-%02d-%02dT%02d:%02d:%02d+02:00", `+
				`"address": {"street": "%d %s Street", "city": "%s", "zip": "%05d"}, "tags": ["%s", "%s", "%s"]}, "time_extracted": "2025-06-01T00:00:00Z"}`,
				st, id, rnd.Uint32(), rnd.Uint32()&0xffff, rnd.Uint32()&0xffff, rnd.Uint32()&0xffff, rnd.Uint64()&0xffffffffffff,
				w1, w0, w0, w1, rnd.IntN(100000), rnd.IntN(100), rnd.IntN(1000), rnd.IntN(2) == 0,
				1+rnd.IntN(12), 1+rnd.IntN(28), rnd.IntN(24), rnd.IntN(60), rnd.IntN(60), rnd.IntN(1000000),
				1+rnd.IntN(12), 1+rnd.IntN(28), rnd.IntN(24), rnd.IntN(60), rnd.IntN(60),
				1+rnd.IntN(998), w2, w1, rnd.IntN(100000), w0, w1, w2)
		}
		line = append(line, '\n')
		read.Add(int64(len(line)))
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}
