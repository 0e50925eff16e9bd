package schema

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// benchSchema is the schema of the SPEC §10 benchmark stream
// (../shared/bench/gen.py).
const benchSchema = `{"type": "object", "properties": {
	"id": {"type": "integer"}, "uuid": {"type": "string", "maxLength": 36}, "customer": {"type": ["null", "string"]},
	"email": {"type": ["null", "string"], "format": "email"}, "amount": {"type": ["null", "number"], "multipleOf": 0.01},
	"qty": {"type": ["null", "integer"]}, "active": {"type": ["null", "boolean"]},
	"created_at": {"type": ["null", "string"], "format": "date-time"}, "updated_at": {"type": ["null", "string"], "format": "date-time"},
	"address": {"type": ["null", "object"], "properties": {"street": {"type": "string"}, "city": {"type": "string"}, "zip": {"type": "string"}}},
	"tags": {"type": ["null", "array"], "items": {"type": "string"}}}}`

// benchRecords writes n records shaped like gen.py's, in Python's
// json.dumps layout (", " and ": "), deterministically.
func benchRecords(n int) [][]byte {
	rnd := rand.New(rand.NewPCG(7, 7))
	words := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"}
	title := func(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
	out := make([][]byte, n)
	for i := range out {
		p := rnd.Perm(len(words))
		w := []string{words[p[0]], words[p[1]], words[p[2]]}
		out[i] = fmt.Appendf(nil, `{"id": %d, "uuid": "%08x-%04x-%04x-%04x-%012x", "customer": "%s %s", `+
			`"email": "%s.%s@example.com", "amount": %d.%02d, "qty": %d, "active": %t, `+
			`"created_at": "2024-%02d-%02dT%02d:%02d:%02d.%06dZ", "updated_at": "2025-%02d-%02dT%02d:%02d:%02d+02:00", `+
			`"address": {"street": "%d %s Street", "city": "%s", "zip": "%05d"}, "tags": ["%s", "%s", "%s"]}`,
			i+1, rnd.Uint32(), rnd.IntN(1<<16), rnd.IntN(1<<16), rnd.IntN(1<<16), rnd.Int64N(1<<48),
			title(w[0]), title(w[1]), w[0], w[1], rnd.IntN(100000), rnd.IntN(100), rnd.IntN(1000), rnd.IntN(2) == 0,
			1+rnd.IntN(12), 1+rnd.IntN(28), rnd.IntN(24), rnd.IntN(60), rnd.IntN(60), rnd.IntN(1000000),
			1+rnd.IntN(12), 1+rnd.IntN(28), rnd.IntN(24), rnd.IntN(60), rnd.IntN(60),
			1+rnd.IntN(998), title(w[2]), title(w[1]), rnd.IntN(100000), w[0], w[1], w[2])
	}
	return out
}

func TestBenchRecordsValid(t *testing.T) {
	sch := mustCompile(t, benchSchema)
	if !sch.Fast() {
		t.Fatalf("benchmark schema not covered: %s", sch.fast.why)
	}
	for _, r := range benchRecords(200) {
		if differential(t, sch, r) != fastAccept {
			t.Errorf("record %s: not accepted", r)
		}
	}
}

// BenchmarkValidateRaw validates benchmark records from their bytes with
// the fast plan.
func BenchmarkValidateRaw(b *testing.B) {
	sch := mustCompile(b, benchSchema)
	recs := benchRecords(1024)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := sch.ValidateRaw(recs[i&1023]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkValidateDecoded is the path ValidateRaw replaces: decode the
// record into maps, then Validate.
func BenchmarkValidateDecoded(b *testing.B) {
	sch := mustCompile(b, benchSchema)
	recs := benchRecords(1024)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := sch.validateDecoded(recs[i&1023]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkValidateBench is Validate alone on pre-decoded benchmark records.
func BenchmarkValidateBench(b *testing.B) {
	sch := mustCompile(b, benchSchema)
	recs := benchRecords(1024)
	decoded := make([]any, len(recs))
	for i, r := range recs {
		decoded[i] = decode(b, string(r))
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := sch.Validate(decoded[i&1023]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
