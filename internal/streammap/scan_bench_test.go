package streammap

import "testing"

func BenchmarkScanObject(b *testing.B) {
	rec := benchRecord(1)
	var ms []member
	b.SetBytes(int64(len(rec)))
	for range b.N {
		var err error
		if ms, err = scanObject(ms[:0], rec); err != nil {
			b.Fatal(err)
		}
	}
}
