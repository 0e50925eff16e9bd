package singer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/target-oracle/target-oracle/internal/inputerr"
)

// readAll reads every message of input, cloning each, up to the first error.
func readAll(t *testing.T, input string, opts ReaderOptions) ([]*Message, error) {
	t.Helper()
	r := NewReader(strings.NewReader(input), opts)
	var msgs []*Message
	for {
		m, err := readNext(r)
		if err == io.EOF {
			return msgs, nil
		}
		if err != nil {
			return msgs, err
		}
		msgs = append(msgs, m.Clone())
	}
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func TestReaderMessages(t *testing.T) {
	const exact = `{"a":12345678901234567890.12345678901234567891,"b":1e400,"c":-0.0E-0}`
	tests := []struct {
		name string
		line string
		want Message
	}{{
		name: "schema",
		line: `{"type":"SCHEMA","stream":"users","schema":{"type":"object","properties":{"id":{"type":"integer"}}},"key_properties":["id","tenant"],"bookmark_properties":["updated"]}`,
		want: Message{Type: TypeSchema, Stream: "users",
			Schema:        raw(`{"type":"object","properties":{"id":{"type":"integer"}}}`),
			KeyProperties: []string{"id", "tenant"}, HasKeyProperties: true},
	}, {
		name: "schema without key_properties",
		line: `{"type":"SCHEMA","stream":"s","schema":{}}`,
		want: Message{Type: TypeSchema, Stream: "s", Schema: raw(`{}`)},
	}, {
		name: "schema with null key_properties",
		line: `{"type":"SCHEMA","stream":"s","schema":{},"key_properties":null}`,
		want: Message{Type: TypeSchema, Stream: "s", Schema: raw(`{}`)},
	}, {
		name: "schema with empty key_properties",
		line: `{"type":"SCHEMA","stream":"s","schema":{},"key_properties":[]}`,
		want: Message{Type: TypeSchema, Stream: "s", Schema: raw(`{}`), KeyProperties: []string{}, HasKeyProperties: true},
	}, {
		name: "record",
		line: `{"type":"RECORD","stream":"s","record":{"id":1,"n":[1,2.5e3,{"x":null}]},"time_extracted":"2024-01-02T03:04:05.123456Z","version":1700000000000}`,
		want: Message{Type: TypeRecord, Stream: "s", Record: raw(`{"id":1,"n":[1,2.5e3,{"x":null}]}`),
			TimeExtracted: "2024-01-02T03:04:05.123456Z", HasTimeExtracted: true, Version: "1700000000000"},
	}, {
		name: "record with spaces, null time_extracted and version",
		line: "  { \"type\" : \"RECORD\" ,\t\"stream\": \"s\", \"record\" : { \"id\" : 1 } , \"time_extracted\": null, \"version\": null }  ",
		want: Message{Type: TypeRecord, Stream: "s", Record: raw(`{ "id" : 1 }`)},
	}, {
		name: "exact numbers in record",
		line: `{"type":"RECORD","stream":"s","record":` + exact + `}`,
		want: Message{Type: TypeRecord, Stream: "s", Record: raw(exact)},
	}, {
		name: "state compacted, numbers and strings kept",
		line: `{"type":"STATE","value":{ "bookmarks" : { "s" : [ 12345678901234567890.12345678901234567891 , 1e400, "a \" b\\" ] } } }`,
		want: Message{Type: TypeState, Value: raw(`{"bookmarks":{"s":[12345678901234567890.12345678901234567891,1e400,"a \" b\\"]}}`)},
	}, {
		name: "state null",
		line: `{"type":"STATE","value":null}`,
		want: Message{Type: TypeState, Value: raw(`null`)},
	}, {
		name: "activate version",
		line: `{"type":"ACTIVATE_VERSION","stream":"s","version":-17}`,
		want: Message{Type: TypeActivateVersion, Stream: "s", Version: "-17"},
	}, {
		name: "batch",
		line: `{"type":"BATCH","stream":"s","encoding":{"format":"jsonl","compression":"gzip"},"manifest":["file:///tmp/a.jsonl.gz","file:///tmp/b.jsonl.gz"]}`,
		want: Message{Type: TypeBatch, Stream: "s", Encoding: BatchEncoding{"jsonl", "gzip"},
			Manifest: []string{"file:///tmp/a.jsonl.gz", "file:///tmp/b.jsonl.gz"}},
	}, {
		name: "batch without compression",
		line: `{"type":"BATCH","stream":"s","encoding":{"format":"parquet"},"manifest":[]}`,
		want: Message{Type: TypeBatch, Stream: "s", Encoding: BatchEncoding{Format: "parquet"}, Manifest: []string{}},
	}, {
		name: "escaped stream and keys",
		line: `{"typ\u0065":"REC\u004fRD","stream":"a\u00e9\"\\\/\ud83d\ude00\n","record":{}}`,
		want: Message{Type: TypeRecord, Stream: "aé\"\\/😀\n", Record: raw(`{}`)},
	}, {
		name: "unknown keys ignored, last duplicate wins",
		line: `{"type":"STATE","x":{"deep":[1,{"y":true}]},"stream":"t","record":{"a":1},"record":{"b":2},"type":"RECORD","stream":"s"}`,
		want: Message{Type: TypeRecord, Stream: "s", Record: raw(`{"b":2}`)},
	}, {
		name: "utf-8 strings",
		line: `{"type":"RECORD","stream":"σ","record":{"t":"简单的字串 chaîne"}}`,
		want: Message{Type: TypeRecord, Stream: "σ", Record: raw(`{"t":"简单的字串 chaîne"}`)},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs, err := readAll(t, "\n"+tt.line+"\n", ReaderOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(msgs) != 1 {
				t.Fatalf("got %d messages, want 1", len(msgs))
			}
			tt.want.Line = 2
			if !reflect.DeepEqual(*exported(msgs[0]), tt.want) {
				t.Errorf("got  %+v\nwant %+v", *msgs[0], tt.want)
			}
		})
	}
}

func TestReaderErrors(t *testing.T) {
	deep := `{"type":"RECORD","stream":"s","record":` + strings.Repeat(`[`, MaxDepth) + strings.Repeat(`]`, MaxDepth) + `}`
	okDeep := `{"type":"RECORD","stream":"s","record":{"a":` + strings.Repeat(`[`, MaxDepth-2) + strings.Repeat(`]`, MaxDepth-2) + `}}`
	if _, err := readAll(t, okDeep, ReaderOptions{}); err != nil {
		t.Fatalf("nesting of exactly %d levels: %v", MaxDepth, err)
	}
	tests := []struct {
		line string
		want string // the whole error text; the bad line is line 3
	}{
		// required fields
		{`{"stream":"s","record":{}}`, `line 3: stream "s": missing required field "type"`},
		{`{"type":null}`, `line 3: missing required field "type"`},
		{`{"type":5}`, `line 3: "type" must be a string`},
		{`{"type":"record","stream":"s"}`, `line 3: stream "s": unknown message type "record"`},
		{`{"type":"RECORD","record":{}}`, `line 3: missing required field "stream"`},
		{`{"type":"RECORD","stream":null,"record":{}}`, `line 3: missing required field "stream"`},
		{`{"type":"RECORD","stream":1,"record":{}}`, `line 3: "stream" must be a string`},
		{`{"type":"RECORD","stream":"s"}`, `line 3: stream "s": missing required field "record"`},
		{`{"type":"RECORD","stream":"s","record":null}`, `line 3: stream "s": missing required field "record"`},
		{`{"type":"RECORD","stream":"s","record":[1]}`, `line 3: stream "s": "record" must be an object`},
		{`{"type":"RECORD","stream":"s","record":{},"time_extracted":5}`, `line 3: stream "s": "time_extracted" must be a string`},
		{`{"type":"RECORD","stream":"s","record":{},"version":1.5}`, `line 3: stream "s": "version" must be an integer, not 1.5`},
		{`{"type":"RECORD","stream":"s","record":{},"version":1e3}`, `line 3: stream "s": "version" must be an integer, not 1e3`},
		{`{"type":"SCHEMA","schema":{}}`, `line 3: missing required field "stream"`},
		{`{"type":"SCHEMA","stream":"s"}`, `line 3: stream "s": missing required field "schema"`},
		{`{"type":"SCHEMA","stream":"s","schema":true}`, `line 3: stream "s": "schema" must be an object`},
		{`{"type":"SCHEMA","stream":"s","schema":{},"key_properties":"id"}`, `line 3: stream "s": "key_properties" must be an array of strings`},
		{`{"type":"SCHEMA","stream":"s","schema":{},"key_properties":["id",1]}`, `line 3: stream "s": "key_properties" must be an array of strings`},
		{`{"type":"STATE"}`, `line 3: missing required field "value"`},
		{`{"type":"ACTIVATE_VERSION","version":1}`, `line 3: missing required field "stream"`},
		{`{"type":"ACTIVATE_VERSION","stream":"s"}`, `line 3: stream "s": missing required field "version"`},
		{`{"type":"ACTIVATE_VERSION","stream":"s","version":"1"}`, `line 3: stream "s": "version" must be an integer, not "1"`},
		{`{"type":"ACTIVATE_VERSION","stream":"s","version":1.0}`, `line 3: stream "s": "version" must be an integer, not 1.0`},
		{`{"type":"BATCH","encoding":{"format":"jsonl"},"manifest":[]}`, `line 3: missing required field "stream"`},
		{`{"type":"BATCH","stream":"s","manifest":[]}`, `line 3: stream "s": missing required field "encoding"`},
		{`{"type":"BATCH","stream":"s","encoding":"jsonl","manifest":[]}`, `line 3: stream "s": "encoding" must be an object`},
		{`{"type":"BATCH","stream":"s","encoding":{},"manifest":[]}`, `line 3: stream "s": missing required field "encoding.format"`},
		{`{"type":"BATCH","stream":"s","encoding":{"format":"csv"},"manifest":[]}`, `line 3: stream "s": unsupported BATCH format "csv" (want "jsonl" or "parquet")`},
		{`{"type":"BATCH","stream":"s","encoding":{"format":"jsonl","compression":"zstd"},"manifest":[]}`, `line 3: stream "s": unsupported BATCH compression "zstd" (want "gzip" or "none")`},
		{`{"type":"BATCH","stream":"s","encoding":{"format":"jsonl"}}`, `line 3: stream "s": missing required field "manifest"`},
		{`{"type":"BATCH","stream":"s","encoding":{"format":"jsonl"},"manifest":["a",2]}`, `line 3: stream "s": "manifest" must be an array of strings`},
		// not an object
		{`[{"type":"STATE","value":1}]`, `line 3: line is not a JSON object but an array at byte 1`},
		{` "x"`, `line 3: line is not a JSON object but a string at byte 2`},
		{`42`, `line 3: line is not a JSON object but a number at byte 1`},
		{`null`, `line 3: line is not a JSON object but null at byte 1`},
		// syntax
		{`hello`, `line 3: invalid JSON: unexpected 'h', want a value at byte 1`},
		{`{"type":`, `line 3: invalid JSON: unexpected end of line, want a value at byte 9`},
		{`{"type":"STATE","value":1,}`, `line 3: invalid JSON: unexpected '}', want a string (object key) at byte 27`},
		{`{"type":"STATE" "value":1}`, `line 3: invalid JSON: unexpected '"', want ',' or '}' at byte 17`},
		{`{"type":"STATE","value":01}`, `line 3: invalid JSON: unexpected '1', want ',' or '}' at byte 26`},
		{`{"type":"STATE","value":1.}`, `line 3: invalid JSON: invalid number at byte 25`},
		{`{"type":"STATE","value":-}`, `line 3: invalid JSON: invalid number at byte 25`},
		{`{"type":"STATE","value":1e+}`, `line 3: invalid JSON: invalid number at byte 25`},
		{`{"type":"STATE","value":tru}`, `line 3: invalid JSON: unexpected 't', want a value at byte 25`},
		{`{"type":"STATE","value":"a\x"}`, `line 3: invalid JSON: invalid escape sequence in string at byte 27`},
		{`{"type":"STATE","value":"\u12G4"}`, `line 3: invalid JSON: invalid \u escape in string at byte 26`},
		{`{"type":"STATE","value":"\ud800"}`, `line 3: invalid UTF-16 in string: unpaired surrogate escape at byte 26`},
		{`{"type":"STATE","value":"\ud800\u0041"}`, `line 3: invalid UTF-16 in string: unpaired surrogate escape at byte 26`},
		{`{"type":"STATE","value":"\udc00"}`, `line 3: invalid UTF-16 in string: unpaired surrogate escape at byte 26`},
		{"{\"type\":\"STATE\",\"value\":\"a\tb\"}", `line 3: invalid JSON: control character in string at byte 27`},
		{`{"type":"STATE","value":"abc`, `line 3: invalid JSON: unterminated string at byte 29`},
		{`{"type":"STATE","value":1} x`, `line 3: invalid JSON: unexpected data after the top-level object at byte 28`},
		{`{"type":"STATE","value":1}{}`, `line 3: invalid JSON: unexpected data after the top-level object at byte 27`},
		{`{"type":"RECORD","stream":"s","record":{"a":[1,2}}`, `line 3: stream "s": property "a": invalid JSON: unexpected '}', want ',' or ']' at byte 49`},
		{deep, `line 3: stream "s": JSON nesting deeper than 1000 levels at byte 1039`},
		// UTF-8
		{"{\"a\":\"\xff\"}", `line 3: invalid UTF-8 at byte 7`},
		{"{\"a\":\"\xc3\"}", `line 3: invalid UTF-8 at byte 7`},
		{"{\"a\":\"\xed\xa0\x80\"}", `line 3: invalid UTF-8 at byte 7`}, // encoded surrogate
		{"{\"a\":x\xff}", `line 3: invalid UTF-8 at byte 7`},
		{"{\"a\":1}\xff", `line 3: invalid UTF-8 at byte 8`},
		{"{\"\xff\":1}", `line 3: invalid UTF-8 at byte 3`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			input := `{"type":"STATE","value":1}` + "\n\r\n" + tt.line + "\n" + `{"type":"STATE","value":2}`
			r := NewReader(strings.NewReader(input), ReaderOptions{})
			if _, err := readNext(r); err != nil {
				t.Fatal(err)
			}
			_, err := readNext(r)
			var ie *inputerr.Error
			if !errors.As(err, &ie) {
				t.Fatalf("got %v (%T), want *inputerr.Error", err, err)
			}
			if ie.Line != 3 || err.Error() != tt.want {
				t.Errorf("got  %s (Line %d)\nwant %s", err, ie.Line, tt.want)
			}
			// The bad line is consumed; reading goes on with the next one.
			m, err := readNext(r)
			if err != nil || m.Line != 4 || string(m.Value) != "2" {
				t.Errorf("after the error: got %+v, %v; want the STATE of line 4", m, err)
			}
		})
	}
}

func TestReaderLineEndings(t *testing.T) {
	input := "\r\n" +
		`{"type":"STATE","value":1}` + "\r\n" +
		"  \t \r\n" +
		"\n" +
		`{"type":"STATE","value":2}` + "\n" +
		`{"type":"STATE","value":3}` + " \r\n" +
		`{"type":"STATE","value":4}` // no newline at the end
	r := NewReader(strings.NewReader(input), ReaderOptions{})
	want := []struct {
		line  int64
		value string
	}{{2, "1"}, {5, "2"}, {6, "3"}, {7, "4"}}
	for _, w := range want {
		m, err := readNext(r)
		if err != nil {
			t.Fatal(err)
		}
		if m.Line != w.line || r.Line() != w.line || string(m.Value) != w.value {
			t.Errorf("got line %d (Line() %d) value %s, want line %d value %s", m.Line, r.Line(), m.Value, w.line, w.value)
		}
	}
	if _, err := readNext(r); err != io.EOF {
		t.Errorf("at the end: got %v, want io.EOF", err)
	}
}

func TestReaderEmptyAndBlankInput(t *testing.T) {
	for _, input := range []string{"", "\n", "\r\n\r\n", "   ", "\n\t\n  "} {
		msgs, err := readAll(t, input, ReaderOptions{})
		if err != nil || len(msgs) != 0 {
			t.Errorf("%q: got %d messages, %v; want none", input, len(msgs), err)
		}
	}
}

// recordLine returns a RECORD line whose string property has n bytes.
func recordLine(n int) string {
	return `{"type":"RECORD","stream":"s","record":{"t":"` + strings.Repeat("x", n) + `"}}`
}

func TestReaderLineLengths(t *testing.T) {
	overhead := len(recordLine(0))
	// Lengths around the bufio buffer size exercise the gathering of long
	// lines; each line is checked whole.
	var sizes []int
	for _, base := range []int{100, readBufferSize, 2 * readBufferSize} {
		for d := -2; d <= 2; d++ {
			sizes = append(sizes, base+d-overhead)
		}
	}
	sizes = append(sizes, 20<<20) // tens of MB must work
	for _, eol := range []string{"\n", "\r\n"} {
		var in strings.Builder
		for _, n := range sizes {
			in.WriteString(recordLine(n) + eol)
		}
		r := NewReader(strings.NewReader(in.String()), ReaderOptions{})
		for i, n := range sizes {
			m, err := readNext(r)
			if err != nil {
				t.Fatalf("line %d: %v", i+1, err)
			}
			if want := `{"t":"` + strings.Repeat("x", n) + `"}`; string(m.Record) != want || m.Line != int64(i+1) {
				t.Fatalf("line %d (%d bytes): record of %d bytes differs", i+1, n+overhead, len(m.Record))
			}
		}
	}
}

func TestReaderLimit(t *testing.T) {
	const limit = 1000
	line := func(n int) string { return recordLine(n - len(recordLine(0))) }
	for _, tt := range []struct {
		name   string
		input  string
		tooBig bool
	}{
		{"exactly the limit", line(limit) + "\n", false},
		{"exactly the limit, CRLF", line(limit) + "\r\n", false},
		{"exactly the limit, last line", line(limit), false},
		{"one over", line(limit+1) + "\n", true},
		{"one over, CRLF", line(limit+1) + "\r\n", true},
		{"one over, last line", line(limit + 1), true},
		{"far over", line(10*readBufferSize) + "\n", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			input := "\n" + tt.input
			last := !strings.HasSuffix(input, "\n")
			if !last {
				input += `{"type":"STATE","value":1}`
			}
			r := NewReader(strings.NewReader(input), ReaderOptions{MaxLineBytes: limit})
			_, err := readNext(r)
			if !tt.tooBig {
				if err != nil {
					t.Fatal(err)
				}
			} else {
				var ie *inputerr.Error
				if !errors.As(err, &ie) || err.Error() != "line 2: line is longer than the limit of 1000 bytes" {
					t.Fatalf("got %v, want an *inputerr.Error about the limit on line 2", err)
				}
			}
			if last {
				if _, err := readNext(r); err != io.EOF {
					t.Errorf("after the last line: got %v, want io.EOF", err)
				}
			} else if m, err := readNext(r); err != nil || m.Line != 3 {
				t.Errorf("next line: got %+v, %v; want the STATE of line 3", m, err)
			}
		})
	}
}

// endless yields n bytes of 'x' and then tail.
type endless struct {
	n    int64
	tail []byte
}

func (e *endless) Read(p []byte) (int, error) {
	if e.n > 0 {
		k := min(int64(len(p)), e.n)
		for i := range p[:k] {
			p[i] = 'x'
		}
		e.n -= k
		return int(k), nil
	}
	if len(e.tail) == 0 {
		return 0, io.EOF
	}
	k := copy(p, e.tail)
	e.tail = e.tail[k:]
	return k, nil
}

func TestReaderOverLimitBoundedMemory(t *testing.T) {
	const limit = 1 << 20
	src := &endless{n: 200 << 20, tail: []byte("\n" + `{"type":"STATE","value":1}` + "\n")}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := NewReader(src, ReaderOptions{MaxLineBytes: limit})
	_, err := readNext(r)
	runtime.ReadMemStats(&after)
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.Line != 1 || !strings.Contains(err.Error(), "limit of 1048576 bytes") {
		t.Fatalf("got %v, want an *inputerr.Error about the limit on line 1", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*limit {
		t.Errorf("a 200 MiB line over a 1 MiB limit allocated %d bytes", alloc)
	}
	if m, err := readNext(r); err != nil || m.Line != 2 {
		t.Errorf("next line: got %+v, %v; want the STATE of line 2", m, err)
	}
}

func TestReaderReadError(t *testing.T) {
	boom := errors.New("boom")
	src := io.MultiReader(strings.NewReader(`{"type":"STATE","value":1}`+"\n"+`{"type"`), iotest.ErrReader(boom))
	r := NewReader(src, ReaderOptions{})
	if _, err := readNext(r); err != nil {
		t.Fatal(err)
	}
	_, err := readNext(r)
	var ie *inputerr.Error
	if !errors.Is(err, boom) || errors.As(err, &ie) || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("got %v, want the read error for line 2, not an *inputerr.Error", err)
	}
}

func TestReaderReusesBuffers(t *testing.T) {
	// The documented contract: a Message is valid until the next Next.
	// Clone must survive it.
	r := NewReader(strings.NewReader(recordLine(3)+"\n"+recordLine(5)+"\n"), ReaderOptions{})
	m, _ := readNext(r)
	kept := m.Clone()
	if _, err := readNext(r); err != nil {
		t.Fatal(err)
	}
	if string(kept.Record) != `{"t":"xxx"}` {
		t.Errorf("clone changed: %s", kept.Record)
	}
}

func TestReaderNoAllocsPerRecord(t *testing.T) {
	line := []byte(benchLine(1) + "\n")
	var in bytes.Buffer
	for range 200 {
		in.Write(line)
	}
	r := NewReader(&in, ReaderOptions{})
	readNext(r) // warm up the caches
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := readNext(r); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Next allocated %v times per RECORD, want 0", allocs)
	}
}

// chunkReader returns its chunks one Read at a time.
type chunkReader struct{ chunks []string }

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.chunks[0])
	if c.chunks[0] = c.chunks[0][n:]; c.chunks[0] == "" {
		c.chunks = c.chunks[1:]
	}
	return n, nil
}

func TestLineBuffered(t *testing.T) {
	r := NewReader(&chunkReader{[]string{
		`{"type":"STATE","value":1}` + "\n" + `{"type":"STATE","value":2}` + "\n\n" + `{"type":"STATE","value":3}` + "\n" + `{"type":"STA`,
		`TE","value":4}` + "\n",
	}}, ReaderOptions{})
	for i, want := range []bool{true, true, false, false} {
		if _, err := readNext(r); err != nil {
			t.Fatal(err)
		}
		if got := r.LineBuffered(); got != want {
			t.Fatalf("after message %d: LineBuffered %v, want %v", i+1, got, want)
		}
	}
	if _, err := readNext(r); err != io.EOF {
		t.Fatalf("got %v, want io.EOF", err)
	}
}

// Lines of one shape: the second reuses the first's envelope, the third
// (another time_extracted) its head; what they give is what a reader
// checking everything gives (FuzzDeferredRecord holds that in general).
func TestSameShape(t *testing.T) {
	lines := []string{
		`{"type":"RECORD","stream":"s","record":{"a":1},"time_extracted":"2025-01-01T00:00:00Z"}`,
		`{"type":"RECORD","stream":"s","record":{"a":2},"time_extracted":"2025-01-01T00:00:00Z"}`,
		`{"type":"RECORD","stream":"s","record":{"a":3},"time_extracted":"2025-01-01T00:00:09Z"}`,
	}
	r := NewReader(strings.NewReader(strings.Join(lines, "\n")), ReaderOptions{})
	for i, line := range lines {
		var env envelope
		if err := r.scan([]byte(line), &env, true); i > 0 && err != nil {
			t.Fatal(err)
		}
		if i == 1 && !env.same {
			t.Error("line 2 does not reuse line 1's envelope")
		}
		if i == 2 && (env.same || r.shapes.resume([]byte(line)) == 0) {
			t.Error("line 3 does not read on from its record")
		}
		m, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if err := m.DecodeRecord(declineAll); err != errDeclined {
			t.Fatal(err)
		}
		want := `{"a":` + strconv.Itoa(i+1) + `}`
		if string(m.Record) != want || m.Stream != "s" || m.TimeExtracted != lines[i][len(lines[i])-22:len(lines[i])-2] {
			t.Errorf("line %d: record %s stream %q time_extracted %q", i+1, m.Record, m.Stream, m.TimeExtracted)
		}
	}
}

// Interleaved streams are remembered each by its head (the bytes before
// the record): a line resumes from its own stream's head, whatever came
// between, and gives what a reader checking everything gives, also when
// a stream's envelope or line shape changes mid-stream.
func TestInterleavedShapes(t *testing.T) {
	var lines []string
	for i := range 30 {
		lines = append(lines,
			fmt.Sprintf(`{"type":"RECORD","stream":"a","record":{"a":%d},"version":1}`, i),
			fmt.Sprintf(`{"type":"RECORD","stream":"bb","record":{"b":%d},"version":%d}`, i, 1+i/10),
			fmt.Sprintf(`{"type":"RECORD","stream":"cc","record":{"c":%d}}`, i))
		if i == 15 { // a stream's line shape changes: another head
			lines = append(lines, `{"stream":"a","type":"RECORD","record":{"a":-1},"version":1}`)
		}
	}
	data := strings.Join(lines, "\n")
	sameAsFullReader(t, []byte(data), 1<<16)

	r := NewReader(strings.NewReader(data), ReaderOptions{})
	same := 0
	for _, line := range lines {
		var env envelope
		if err := r.scan([]byte(line), &env, true); err != nil {
			t.Fatal(err)
		}
		if env.same {
			same++
		}
		m, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if err := m.DecodeRecord(declineAll); err != errDeclined {
			t.Fatal(err)
		}
	}
	// All but the first line of each head, and those of "bb" whose
	// version changed, reuse their stream's envelope.
	if want := len(lines) - 4 - 2; same != want {
		t.Errorf("%d lines reused their stream's envelope, want %d", same, want)
	}
	if n := len(r.shapes.byHead); n != 4 {
		t.Errorf("%d heads kept, want 4", n)
	}
}

// 10,000 interleaved stream names keep at most maxShapes heads holding
// at most maxShapesBytes (counted exactly), maxHeadLens head lengths and
// maxNames interned names, and every line still gives its own stream.
func TestShapesBounded(t *testing.T) {
	var in strings.Builder
	const n = 10000
	for i := range n {
		fmt.Fprintf(&in, `{"type":"RECORD","stream":"s%d","record":{"id":%d}}`+"\n", i*7919%100003, i)
	}
	r := NewReader(strings.NewReader(in.String()), ReaderOptions{})
	for i := range n {
		m, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("s%d", i*7919%100003); m.Stream != want {
			t.Fatalf("line %d: stream %q, want %q", i+1, m.Stream, want)
		}
		if len(r.shapes.byHead) > maxShapes || r.shapes.bytes > maxShapesBytes || len(r.shapes.lens) > maxHeadLens || len(r.names) > maxNames {
			t.Fatalf("line %d: %d heads (%d bytes), %d head lengths, %d names kept", i+1, len(r.shapes.byHead), r.shapes.bytes, len(r.shapes.lens), len(r.names))
		}
		if i%997 == 0 {
			held := 0
			for k, sh := range r.shapes.byHead {
				held += len(k) + sh.size()
			}
			if held != r.shapes.bytes {
				t.Fatalf("line %d: the shapes hold %d bytes, counted %d", i+1, held, r.shapes.bytes)
			}
		}
	}
	// A thousand streams' heads at least (what a database tap's tables
	// need), as many as the bytes bound lets in.
	if n := len(r.shapes.byHead); n < 2000 || r.shapes.bytes+1000 < maxShapesBytes && n < maxShapes {
		t.Errorf("%d heads kept (%d bytes), want as many as the bounds allow", n, r.shapes.bytes)
	}
}

// Twenty interleaved streams whose names have twenty lengths (a tap's
// tables): after each stream's first line every line resumes from its
// head. With 8 head lengths kept, every line was read in full.
func TestManyHeadLengthsResume(t *testing.T) {
	var lines []string
	for i := range 400 {
		name := "s" + strings.Repeat("x", i%20)
		lines = append(lines, fmt.Sprintf(`{"type":"RECORD","stream":"%s","record":{"id":%d}}`, name, i))
	}
	data := strings.Join(lines, "\n")
	sameAsFullReader(t, []byte(data), 1<<16)
	r := NewReader(strings.NewReader(data), ReaderOptions{})
	resumed := 0
	for _, line := range lines {
		if r.shapes.resume([]byte(line)) > 0 {
			resumed++
		}
		m, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if err := m.DecodeRecord(declineAll); err != errDeclined {
			t.Fatal(err)
		}
	}
	if want := len(lines) - 20; resumed != want {
		t.Errorf("%d lines resumed from their head, want %d", resumed, want)
	}
}
