package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/batch"
	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/memory"
)

// collectingReader hands the input out in small pieces and, before each,
// runs the collector and then allocates garbage of the sizes the buffered
// values have, filled with '#': a value the collector freed while a
// buffer's slots (which it does not scan, slots.go) still pointed at it
// would read back as '#'s or as another value.
type collectingReader struct {
	r    io.Reader
	junk [][]byte
}

func (c *collectingReader) Read(p []byte) (int, error) {
	runtime.GC()
	c.junk = c.junk[:0]
	for i := 0; i < 64; i++ {
		c.junk = append(c.junk, []byte(strings.Repeat("#", 8+i%40)))
	}
	return c.r.Read(p[:min(len(p), 2048)])
}

// Every value of every buffered row survives collections while its
// stream's rows wait for the end of the input: values cut from the row
// builder's text blocks, metadata strings that change every few records
// (time_extracted, the receive time of each piece of input, the table
// version), and what a job writes (batch time). Forty interleaved streams
// keep every row buffered until the end, as with 200 streams.
func TestBufferedValuesOutliveCollections(t *testing.T) {
	const streams, records = 40, 120
	var in strings.Builder
	for s := 0; s < streams; s++ {
		fmt.Fprintf(&in, `{"type":"SCHEMA","stream":"s%d","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"},"v":{"type":"string"},"n":{"type":"number"},"at":{"type":"string","format":"date-time"},"ok":{"type":"boolean"}}}}`+"\n", s)
	}
	extracted := func(r int) string { return fmt.Sprintf("2024-01-02T03:04:%02d.%06dZ", r/10%60, r*10+1) }
	for r := 0; r < records; r++ {
		for s := 0; s < streams; s++ {
			fmt.Fprintf(&in, `{"type":"RECORD","stream":"s%d","version":%d,"time_extracted":%q,"record":{"id":%d,"v":"value %d of s%d","n":%d.25,"at":"2025-03-04T05:06:07+02:00","ok":%v}}`+"\n",
				s, 1000+r/30, extracted(r), r, r, s, r*7, r%2 == 0)
		}
	}
	cfg := testConfig(t, `{"batch_size_rows": 100000, "max_parallelism": 2}`)
	p, eng := dryPipeline(t, cfg, &collectingReader{r: strings.NewReader(in.String())})
	if err := p.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for s := 0; s < streams; s++ {
		for _, row := range streamRows(t, eng, s, records) {
			var r int
			fmt.Sscan(row["ID"], &r)
			want := map[string]string{
				"V":                  fmt.Sprintf("value %d of s%d", r, s),
				"N":                  fmt.Sprintf("%d.25", r*7),
				"AT":                 "2025-03-04T03:06:07Z",
				"OK":                 map[bool]string{true: "1", false: "0"}[r%2 == 0],
				"_SDC_EXTRACTED_AT":  extracted(r),
				"_SDC_TABLE_VERSION": fmt.Sprint(1000 + r/30),
			}
			for c, v := range want {
				if got := row[c]; got != v {
					t.Fatalf("stream s%d, id %d: %s = %q, want %q", s, r, c, got, v)
				}
			}
			for _, c := range []string{"_SDC_RECEIVED_AT", "_SDC_BATCHED_AT"} {
				if _, err := time.Parse(time.RFC3339Nano, row[c]); err != nil || strings.Contains(row[c], "#") {
					t.Fatalf("stream s%d, id %d: %s = %q, not a time", s, r, c, row[c])
				}
			}
		}
	}
}

// checkHeld finds a value written into a buffered row without
// buffer.set: the check the race build runs on every job.
func TestCheckHeldFindsAnUnheldValue(t *testing.T) {
	b := &buffer{width: 2, chunking: batch.Chunks{Rows: 2}}
	block := strings.Repeat("x", 64)
	for i := 0; i < 3; i++ {
		row := b.next()
		row[0], row[1] = block[i:i+2], block[i:i] // cut from a block, as the row builder does
		n := len(b.lines)
		if k, _ := b.chunkOf(n); k == len(b.chunks) {
			b.chunks = append(b.chunks, b.newChunk(k))
		}
		b.owners.keep(b.row(n), row, block, "")
		clear(row)
		b.lines = append(b.lines, int64(i+1))
	}
	if err := b.checkHeld(); err != nil {
		t.Fatalf("held values reported: %v", err)
	}
	b.set(b.row(1), 1, fmt.Sprint("set ", 1))
	if err := b.checkHeld(); err != nil {
		t.Fatalf("a value written through set reported: %v", err)
	}
	b.row(2)[1] = fmt.Sprint("bypass ", 2)
	err := b.checkHeld()
	if err == nil || !strings.Contains(err.Error(), `line 3`) || !strings.Contains(err.Error(), "buffer.set") {
		t.Fatalf("a value written around set: error %v", err)
	}
}

// A row wider than a text block (the row builder starts new blocks in the
// middle of it) with the collector running all the time: the values of a
// row written before a new block was started stay alive until the row is
// committed (the scratch row, slots.go), and none reads back as another
// value. Before the scratch row, the earlier block was referenced only from
// slots the collector does not scan and was freed and reused mid-row.
func TestWideRowValuesOutliveCollectionsMidRow(t *testing.T) {
	const streams, records, cols = 3, 40, 200
	value := func(s, r, c int) string {
		return fmt.Sprintf("s%d r%d c%d %s\\n%s", s, r, c, strings.Repeat("v", 100+c%7), strings.Repeat("w", c%13))
	}
	var in strings.Builder
	for s := 0; s < streams; s++ {
		fmt.Fprintf(&in, `{"type":"SCHEMA","stream":"s%d","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"}`, s)
		for c := 0; c < cols; c++ {
			fmt.Fprintf(&in, `,"c%d":{"type":"string"}`, c)
		}
		in.WriteString("}}}\n")
	}
	for r := 0; r < records; r++ {
		for s := 0; s < streams; s++ {
			fmt.Fprintf(&in, `{"type":"RECORD","stream":"s%d","record":{"id":%d`, s, r)
			for c := 0; c < cols; c++ {
				fmt.Fprintf(&in, `,"c%d":%q`, c, value(s, r, c))
			}
			in.WriteString("}}\n")
		}
	}
	cfg := testConfig(t, `{"batch_size_rows": 100000, "max_parallelism": 1}`)
	p, eng := dryPipeline(t, cfg, strings.NewReader(in.String()))
	// A collection, and garbage of the row's size, between each row being
	// built and committed.
	var junk []byte
	p.afterFill = func() {
		runtime.GC()
		junk = bytes.Repeat([]byte("#"), 24<<10+len(junk)%3)
	}
	if err := p.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for s := 0; s < streams; s++ {
		for _, row := range streamRows(t, eng, s, records) {
			var r int
			fmt.Sscan(row["ID"], &r)
			for c := 0; c < cols; c++ {
				want := value(s, r, c)
				if got := row[fmt.Sprintf("C%d", c)]; got != want {
					t.Fatalf("stream s%d, id %d, column c%d: %.60q, want %.60q", s, r, c, got, want)
				}
			}
		}
	}
}

// dryPipeline is a pipeline reading in into an embedded engine that keeps
// its rows; the caller runs it.
func dryPipeline(t *testing.T, cfg *config.Config, in io.Reader) (*pipeline, *memory.Engine) {
	t.Helper()
	eng := memory.New(memory.Options{KeepRows: true})
	p, err := newPipeline(Options{
		Config: cfg, Engine: eng, Input: in, StateOut: &strings.Builder{},
		Server: Server{DefaultSchema: "DRY_RUN", IdentifierMaxBytes: 128, VarcharMaxBytes: 4000},
	})
	if err != nil {
		t.Fatal(err)
	}
	return p, eng
}

// streamRows returns the rows of stream s<s>'s table, which must be n.
func streamRows(t *testing.T, eng *memory.Engine, s, n int) []map[string]string {
	t.Helper()
	rows := eng.Rows(fmt.Sprintf("DRY_RUN.S%d", s))
	if len(rows) != n {
		t.Fatalf("stream s%d: %d rows, want %d", s, len(rows), n)
	}
	return rows
}
