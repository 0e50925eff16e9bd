package singer

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// Interleaved RECORD lines of more streams than maxShapes, with many
// head lengths (more than maxHeadLens), huge heads and tails (over
// maxShape and the bytes bound), and tails that change between lines of
// one stream: every line gives its own stream, record, version and
// time_extracted, whatever the shape cache kept or evicted.
func TestAttackShapeCacheResumedLinesExact(t *testing.T) {
	rng := rand.New(rand.NewSource(10))
	type want struct{ stream, record, version, te string }
	var b strings.Builder
	var wants []want
	const streams = maxShapes + 700
	for i := 0; i < 40000; i++ {
		s := rng.Intn(streams)
		if i%3 == 0 {
			s = rng.Intn(20) // some hot streams, resumed from cur
		}
		stream := fmt.Sprintf("s%d", s)
		pad := ""
		switch s % 13 {
		case 0:
			pad = `,"x":"` + strings.Repeat("p", 5000+s%7) + `"` // a head over maxShape
		case 1, 2, 3, 4, 5, 6, 7, 8, 9, 10:
			pad = `,"x":"` + strings.Repeat("p", s%11) + `"` // eleven head lengths
		}
		w := want{stream: stream, record: fmt.Sprintf(`{"id":%d,"k":"%d"}`, i, s)}
		tail := ""
		switch rng.Intn(4) {
		case 1:
			w.version = fmt.Sprint(rng.Intn(3))
			tail = `,"version":` + w.version
		case 2:
			w.te = fmt.Sprintf("2026-01-0%dT00:00:00Z", 1+rng.Intn(3))
			tail = `,"time_extracted":"` + w.te + `"`
		case 3:
			if s%5 == 0 {
				tail = `,"y":"` + strings.Repeat("t", 600) + `"` // many bytes kept
			}
		}
		fmt.Fprintf(&b, `{"type":"RECORD","stream":"%s"%s,"record":%s%s}`+"\n", stream, pad, w.record, tail)
		wants = append(wants, w)
	}
	r := NewReader(strings.NewReader(b.String()), ReaderOptions{})
	for i, w := range wants {
		m, err := r.Next()
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if m.Line != int64(i+1) || m.Stream != w.stream || string(m.Record) != w.record ||
			m.Version != w.version || m.TimeExtracted != w.te || m.HasTimeExtracted != (w.te != "") {
			t.Fatalf("line %d: got line %d stream %q record %s version %q te %q, want %+v",
				i+1, m.Line, m.Stream, m.Record, m.Version, m.TimeExtracted, w)
		}
		if err := m.DecodeRecord(nil); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if r.shapes.bytes > maxShapesBytes || len(r.shapes.byHead) > maxShapes {
			t.Fatalf("line %d: %d shapes, %d bytes: over the bounds", i+1, len(r.shapes.byHead), r.shapes.bytes)
		}
	}
}
