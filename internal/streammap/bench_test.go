package streammap

import (
	"strconv"
	"testing"
)

const benchSchema = `{"type":"object","properties":{"id":{"type":"integer"},"email":{"type":"string"},` +
	`"name":{"type":"string"},"status":{"type":"string"},"amount":{"type":"number"},"created_at":{"type":"string","format":"date-time"},` +
	`"city":{"type":"string"},"score":{"type":"integer"},"active":{"type":"boolean"},"tags":{"type":"array"}}}`

func benchRecord(i int) []byte {
	return []byte(`{"id":` + strconv.Itoa(i) + `,"email":"user` + strconv.Itoa(i) + `@example.com","name":"User Name","status":"active",` +
		`"amount":12345.678901234567890,"created_at":"2024-01-02T03:04:05Z","city":"Lisbon","score":42,"active":true,"tags":["a","b"]}`)
}

// BenchmarkApply measures the per-record cost of typical maps. Expressions
// are compiled by Schema, before the loop; allocs/op counts only the record
// scan, the values an expression reads, the Starlark call and the output.
func BenchmarkApply(b *testing.B) {
	cases := []struct{ name, maps string }{
		{"remove", `{"users":{"status":null,"city":null}}`},
		{"filter", `{"users":{"__filter__":"status != 'deleted'"}}`},
		{"hash_pii", `{"users":{"email":"md5(email)","__filter__":"status != 'deleted'"}}`},
		{"three_exprs", `{"users":{"email":"sha256(config['salt'] + email)","label":"str(id) + '-' + name",` +
			`"domain":"email.split('@')[-1]","status":null}}`},
		{"else_null", `{"users":{"__else__":null,"email":"email","name":"name.upper()"}}`},
	}
	records := make([][]byte, 64)
	for i := range records {
		records[i] = benchRecord(i)
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			m := compile(b, c.maps, `{"salt":"s"}`)
			sm := one(b, m, benchSchema, []string{"id"})
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if _, _, err := sm.Apply(records[i%len(records)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestApplyAllocs guards the per-record cost: a removal-only map allocates
// only its output, and an expression map stays within a small, fixed number
// of allocations (no compilation happens per record).
func TestApplyAllocs(t *testing.T) {
	rec := benchRecord(1)
	for _, c := range []struct {
		maps string
		max  float64
	}{
		{`{"users":{"status":null}}`, 1},
		{`{"users":{"__filter__":"status != 'deleted'"}}`, 6},
		{`{"users":{"email":"md5(email)"}}`, 14},
	} {
		sm := one(t, compile(t, c.maps, ""), benchSchema, nil)
		got := testing.AllocsPerRun(200, func() {
			if _, _, err := sm.Apply(rec); err != nil {
				t.Fatal(err)
			}
		})
		if got > c.max {
			t.Errorf("%s: %v allocs per record, want <= %v", c.maps, got, c.max)
		}
		t.Logf("%s: %v allocs per record", c.maps, got)
	}
}
