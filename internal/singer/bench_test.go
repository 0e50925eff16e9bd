package singer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

// benchLine returns a realistic RECORD line of about 475 bytes: nested
// object, array, integers, decimals, date-times, an escape and non-ASCII.
func benchLine(i int) string {
	return fmt.Sprintf(`{"type":"RECORD","stream":"orders","record":{"id":%d,"customer_id":%d,`+
		`"status":"shipped","total":"%d.99","amount":1234.56,"discount":0.125,`+
		`"created_at":"2024-03-%02dT10:%02d:33.123456Z","updated_at":"2024-03-%02d 11:15:00+02:00",`+
		`"customer":{"name":"Zoë O\"Brien","email":"zoe%d@example.com","city":"Köln"},`+
		`"items":[{"sku":"A-1","qty":2,"price":19.99},{"sku":"B-22","qty":1}],`+
		`"tags":["gift"],"notes":null,"paid":true},`+
		`"version":1711922400000,"time_extracted":"2024-04-01T00:00:00.000000Z"}`,
		100000+i, 5000+i%977, i%1000, 1+i%28, i%60, 1+i%28, i)
}

func BenchmarkReader(b *testing.B) {
	// As for a caller reading records without a decoder of its own.
	b.Run("checked", func(b *testing.B) { benchReader(b, true, benchLine) })
	// What the pipeline gets: the record's syntax is left to the one pass.
	b.Run("deferred", func(b *testing.B) { benchReader(b, false, benchLine) })
	// As the Singer SDK writes: a time_extracted of its own per record,
	// so no line has the envelope of the one before.
	b.Run("deferred-own-time", func(b *testing.B) {
		benchReader(b, false, func(i int) string {
			line := benchLine(i)
			return line[:len(line)-10] + fmt.Sprintf("%06d", i%1000000) + line[len(line)-4:]
		})
	})
	// 200 streams, line by line in turn: each line's envelope is its
	// stream's, not the last line's.
	b.Run("deferred-200-streams", func(b *testing.B) {
		benchReader(b, false, func(i int) string {
			return strings.Replace(benchLine(i), `"orders"`, fmt.Sprintf(`"orders_%03d"`, i%200), 1)
		})
	})
}

func benchReader(b *testing.B, check bool, benchLine func(int) string) {
	const lines = 10000
	var in bytes.Buffer
	for i := range lines {
		in.WriteString(benchLine(i))
		in.WriteByte('\n')
	}
	data := in.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	rd := bytes.NewReader(data)
	cpu0 := processCPU()
	for b.Loop() {
		rd.Reset(data)
		r := NewReader(rd, ReaderOptions{})
		r.use.check.Store(check)
		n := 0
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != lines {
			b.Fatalf("read %d lines, want %d", n, lines)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*lines), "ns/line")
	if cpu := processCPU() - cpu0; cpu > 0 {
		// Wall time suffers on a shared machine; CPU time less so.
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*lines), "cpu-ns/line")
	}
	b.ReportMetric(float64(len(data))/lines, "bytes/line")
}

// BenchmarkValidate compares the scanner with encoding/json.Valid on the
// same lines, which calibrates BenchmarkReader on a given machine.
func BenchmarkValidate(b *testing.B) {
	var lines [][]byte
	size := 0
	for i := range 10000 {
		lines = append(lines, []byte(benchLine(i)))
		size += len(lines[i])
	}
	for _, bb := range []struct {
		name  string
		valid func([]byte) bool
	}{
		{"scanObject", func(l []byte) bool { _, err := scanObject(l); return err == nil }},
		{"encoding-json-Valid", json.Valid},
	} {
		b.Run(bb.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, l := range lines {
					if !bb.valid(l) {
						b.Fatalf("invalid: %s", l)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(lines)), "ns/line")
		})
	}
}
