package oravalue

import "testing"

// benchRow is the benchmark stream's row as the embedded engine checks it
// (SPEC §10 bench shape: keys, text, numbers, a boolean, date-times, two
// JSON documents, metadata date-times).
var benchRow = []struct {
	c Column
	v string
}{
	{Column{Kind: KindNumber, Precision: 38}, "123456"},
	{Column{Kind: KindVarchar, Length: 4000}, "90460516-7e96-173f-00fe-11771fb28879"},
	{Column{Kind: KindVarchar, Length: 4000}, "Charlie Hotel"},
	{Column{Kind: KindVarchar, Length: 4000}, "charlie.hotel@example.com"},
	{Column{Kind: KindNumber}, "70106.37"},
	{Column{Kind: KindNumber, Precision: 38}, "597"},
	{Column{Kind: KindNumber, Precision: 1, BoolNumber: true}, "0"},
	{Column{Kind: KindTimestamp, Frac: 6, TZ: true}, "2024-11-28T00:37:26.19592Z"},
	{Column{Kind: KindTimestamp, Frac: 6, TZ: true}, "2025-10-22T21:01:14Z"},
	{Column{Kind: KindJSON}, `{"street":"778 India Street","city":"Hotel","zip":"55087"}`},
	{Column{Kind: KindJSON}, `["charlie","hotel","india"]`},
	{Column{Kind: KindTimestamp, Frac: 6, TZ: true}, "2025-06-01T00:00:00Z"},
	{Column{Kind: KindTimestamp, Frac: 6, TZ: true}, "2025-06-01T12:00:00.123456Z"},
	{Column{Kind: KindTimestamp, Frac: 6, TZ: true}, "2025-06-01T12:00:00.123456Z"},
	{Column{Kind: KindNumber, Precision: 38}, "1748779200000000001"},
}

// BenchmarkAssignRow is the value rules' cost per benchmark record in the
// embedded engine.
func BenchmarkAssignRow(b *testing.B) {
	for i := 0; i < b.N; i++ {
		for j := range benchRow {
			benchRow[j].c.Assign(benchRow[j].v)
		}
	}
}

// BenchmarkKeptRow is BenchmarkAssignRow through the fast path first, as
// the embedded engine checks values.
func BenchmarkKeptRow(b *testing.B) {
	for i := 0; i < b.N; i++ {
		for j := range benchRow {
			if !benchRow[j].c.Kept(benchRow[j].v) {
				benchRow[j].c.Assign(benchRow[j].v)
			}
		}
	}
}
