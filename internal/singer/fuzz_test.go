package singer

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/target-oracle/target-oracle/internal/inputerr"
)

// conformanceFiles returns the shared Singer conformance streams, or nil
// when the folder is absent (it lives outside the module).
func conformanceFiles(tb testing.TB) []string {
	tb.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "conformance", "*", "*.singer"))
	if len(files) == 0 {
		tb.Log("../shared/conformance not found from the project root: conformance streams not used")
	}
	return files
}

func FuzzReader(f *testing.F) {
	for _, s := range []string{
		`{"type":"SCHEMA","stream":"s","schema":{"type":"object","properties":{"id":{"type":"integer"}}},"key_properties":["id"]}`,
		`{"type":"RECORD","stream":"s","record":{"id":12345678901234567890.12345678901234567891,"x":[1e400,null,true,"\ud83d\ude00"]},"version":3}`,
		`{"type":"STATE","value":{ "a" : [ 1 , 2 ] }}` + "\r\n\n" + `{"type":"ACTIVATE_VERSION","stream":"s","version":1}`,
		`{"type":"BATCH","stream":"s","encoding":{"format":"jsonl","compression":"gzip"},"manifest":["file:///x"]}`,
		`{"type":"RECORD","stream":"s","record":[1]}`,
		`{"type":"RECORD","stream":"s","record":{"a":"\ud800"}}`,
		"{\"type\":\"RECORD\",\"stream\":\"s\",\"record\":{\"a\":\"\xff\"}}",
		`{"type":"STATE","value":1} x`,
		`[` + strings.Repeat(`{"a":[`, 600),
		`{"type":"RECORD","stream":"s","record":{"a":-01.5e}}`,
		"\n\n  \r\n",
		// Hostile review: duplicate envelope keys, a NUL, a lone CR.
		`{"type":"RECORD","type":"STATE","stream":"s","stream":"t","record":{"id":1,"id":2},"value":2}`,
		"{\"type\":\"RECORD\",\"stream\":\"s\",\"record\":{\"a\":\"\x00\",\"\\u0000\":1}}",
		`{"type":"STATE","value":1}` + "\r" + `{"type":"STATE","value":2}`,
		`{"type":"ACTIVATE_VERSION","stream":"s","version":1e999999999}`,
	} {
		f.Add([]byte(s))
	}
	for _, path := range conformanceFiles(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Split(data, []byte("\n"))
		r := NewReader(bytes.NewReader(data), ReaderOptions{MaxLineBytes: 1 << 16})
		for range len(lines) + 1 {
			m, err := readNext(r)
			if err == io.EOF {
				return
			}
			line := lines[r.Line()-1]
			if err != nil {
				checkFuzzError(t, err, r.Line(), line)
				continue
			}
			if !json.Valid(line) || !utf8.Valid(line) {
				t.Fatalf("accepted an invalid line %q", line)
			}
			if m.Type == TypeRecord && (!json.Valid(m.Record) || m.Record[0] != '{') {
				t.Fatalf("RECORD of line %d is not a JSON object: %q", m.Line, m.Record)
			}
			checkFuzzMessage(t, m, line)
		}
		t.Fatal("Next did not reach io.EOF")
	})
}

// checkFuzzMessage compares an accepted message with what encoding/json
// makes of the same line (it also lets the last duplicate key win).
func checkFuzzMessage(t *testing.T, m *Message, line []byte) {
	var env map[string]json.RawMessage
	if err := json.Unmarshal(line, &env); err != nil {
		t.Fatalf("encoding/json rejects accepted line %q: %v", line, err)
	}
	if m.Stream != "" {
		var stream string
		if err := json.Unmarshal(env["stream"], &stream); err != nil || stream != m.Stream {
			t.Fatalf("stream %q, encoding/json says %q (%v)", m.Stream, stream, err)
		}
	}
	if m.Type == TypeState {
		var want bytes.Buffer
		if err := json.Compact(&want, env["value"]); err != nil || !bytes.Equal(want.Bytes(), m.Value) {
			t.Fatalf("STATE value %q, json.Compact gives %q (%v)", m.Value, want.Bytes(), err)
		}
	}
}

func checkFuzzError(t *testing.T, err error, lineNo int64, line []byte) {
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.Line <= 0 || ie.Line != lineNo {
		t.Fatalf("got %v (%T), want an *inputerr.Error for line %d", err, err, lineNo)
	}
	// A syntax error must agree with encoding/json, except where this
	// reader is stricter on purpose: UTF-8, surrogates, nesting, length.
	if strings.Contains(ie.Msg, "invalid JSON") && json.Valid(line) && utf8.Valid(line) {
		t.Fatalf("rejected a valid line %q: %v", line, err)
	}
}

// TestConformanceStreams reads every shared conformance stream: each is
// well-formed at the message level (their faults are for later stages).
func TestConformanceStreams(t *testing.T) {
	files := conformanceFiles(t)
	if len(files) == 0 {
		t.Skip("conformance streams absent")
	}
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		r := NewReader(f, ReaderOptions{})
		n := 0
		for {
			m, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Errorf("%s: %v", path, err)
				break
			}
			if m.Type == TypeRecord && !json.Valid(m.Record) {
				t.Errorf("%s line %d: invalid record bytes", path, m.Line)
			}
			n++
		}
		f.Close()
		if n == 0 {
			t.Errorf("%s: no messages", path)
		}
	}
}

// FuzzDeferredRecord reads the same input with a reader that checks every
// byte and with one that leaves records to DecodeRecord: a deferred record
// must pass DecodeRecord exactly when the full check accepts its line,
// with the same error, and every other outcome must be the same
// (sameAsFullReader).
func FuzzDeferredRecord(f *testing.F) {
	for _, s := range deferredSeeds {
		f.Add([]byte(s))
	}
	for _, c := range deferredCases {
		f.Add([]byte(c.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsFullReader(t, data, 1<<16)
	})
}

// sameAsFullReader reads data with a reader checking every byte and with
// one that leaves records to DecodeRecord (as for a caller walking them,
// and, from a record read without a decoder, checking them itself), line
// by line, and fails unless each line gives the same message, or the
// same error (line, stream, text with its byte offset), once DecodeRecord
// has run with a decoder that declines every record (the one pass's
// fallback; one that accepts is trusted with the syntax).
func sameAsFullReader(t *testing.T, data []byte, maxLine int) {
	t.Helper()
	full := newCheckingReader(bytes.NewReader(data), ReaderOptions{MaxLineBytes: maxLine})
	lazy := NewReader(bytes.NewReader(data), ReaderOptions{MaxLineBytes: maxLine})
	lazy.use.walksToDefer = 2 // so that lines are read both ways
	var model useModel
	for {
		want, werr := full.Next()
		got, gerr := lazy.Next()
		if werr == io.EOF || gerr == io.EOF {
			if werr != gerr {
				t.Fatalf("full read ends with %v, deferred with %v", werr, gerr)
			}
			return
		}
		if gerr == nil && got.Type == TypeRecord {
			// Every fourth line is read without a decoder, which turns
			// the reader to checking records itself until a decoder
			// reads one again: lines are read both ways, and neither may
			// change what a line gives.
			decode, walked := declineAll, lazy.Line()%4 != 0
			if !walked {
				decode = nil
			}
			left := got.unchecked // the reader left the record to DecodeRecord
			if gerr = got.DecodeRecord(decode); gerr == errDeclined {
				gerr = nil
			}
			if gerr == nil && got.unchecked {
				t.Fatal("DecodeRecord found the record valid but did not mark it checked")
			}
			model.read(walked, left, lazy.use.walksToDefer)
			if checks := lazy.use.check.Load(); checks != model.check {
				t.Fatalf("line %d: read with a decoder %v (record left unchecked: %v): the reader checks records itself: %v, want %v", lazy.Line(), walked, left, checks, model.check)
			}
		}
		switch {
		case werr != nil && gerr != nil:
			var wie, gie *inputerr.Error
			if !errors.As(werr, &wie) || !errors.As(gerr, &gie) || wie.Line != gie.Line || wie.Msg != gie.Msg || wie.Stream != gie.Stream {
				t.Fatalf("errors differ:\nfull     %v\ndeferred %v", werr, gerr)
			}
		case werr != nil || gerr != nil:
			t.Fatalf("full read: %v, deferred read: %v", werr, gerr)
		default:
			if !reflect.DeepEqual(exported(want), exported(got)) {
				t.Fatalf("messages differ:\nfull     %+v\ndeferred %+v", want, got)
			}
		}
	}
}

// useModel is what recordUse must do: check records once one left
// unchecked is read without a decoder, and stop after walksToDefer in a
// row read by a decoder.
type useModel struct {
	check bool
	walks int32
}

func (u *useModel) read(walked, left bool, walksToDefer int32) {
	switch {
	case walked && u.check:
		if u.walks++; u.walks >= walksToDefer {
			u.check = false
		}
	case !walked:
		u.walks = 0
		u.check = u.check || left
	}
}

var deferredSeeds = []string{
	`{"type":"RECORD","stream":"s","record":{"id":1,"a":"x\"}y","b":[1,{"c":null}]},"time_extracted":"2025-01-01T00:00:00Z"}`,
	`{"type":"RECORD","stream":"s","record":{"a":"\ud800"}}`,
	`{"type":"RECORD","stream":"s","record":{"a":"\ud83d\ude00","b":"\\"}}`,
	"{\"type\":\"RECORD\",\"stream\":\"s\",\"record\":{\"a\":\"\xff\"}}",
	"{\"type\":\"RECORD\",\"stream\":\"s\",\"record\":{\"a\":\"\t\"}}",
	`{"type":"RECORD","stream":"s","record":{"a":1,}}`,
	`{"type":"RECORD","stream":"s","record":{"a":01}}`,
	`{"type":"RECORD","stream":"s","record":{"a":[1,]}}`,
	`{"type":"RECORD","stream":"s","record":{"a":tru}}`,
	`{"type":"RECORD","stream":"s","record":{"a":1]}`,
	`{"type":"RECORD","stream":"s","record":{"a":1}} x`,
	`{"record":{"a":1},"type":"RECORD","stream":"s"}`,
	`{"type":"RECORD","record":{"a":01}}`,
	`{"type":"RECORD","stream":"s","record":{"a":01},"record":{"a":1}}`,
	`{"type":"SCHEMA","stream":"s","schema":{},"record":{"a":01}}`,
	`{"type":"RECORD","stream":"s","record":{"a":"unterminated}}`,
	`{"type":"RECORD","stream":"s","record":` + strings.Repeat(`{"a":`, 998) + `1` + strings.Repeat(`}`, 998) + `}`,
	`{"type":"RECORD","stream":"s","record":` + strings.Repeat(`[`, 999) + strings.Repeat(`]`, 999) + `}`,
	`{"type":"RECORD","stream":"s","record":{"a":"\u00e9\u0041"},"version":2}`,
	`{"type":"RECORD","stream":"s","record":{"a":"é"}, "time_extracted": 5}`,
	// Found by a probe: a stream only after the record (once hidden by a
	// guess of the record's end);
	// the stream an error names is the one read before the fault.
	`{"type":"RECORD","record":{"a":1},"stream":"s","x":{}}`,
	`{"type":"RECORD","record":{"a":tru},"stream":"s","x":[1]}`,
	`{"type":"RECORD","stream":"t","record":{"a":},"version":1,"y":[1],"stream":"s"}`,
	`{"type":"RECORD","stream":"s","record":{"a":1},"type":"STATE","value":{"b":2}}`,
	`{"type":"RECORD","stream":5,"record":{"a":1},"stream":"s","x":{}}`,
	// Members holding objects after the record.
	`{"type":"RECORD","stream":"s","record":{"a":1},"x":{"b":2}}`,
	`{"type":"RECORD","stream":"s","record":{"a":1},"x":{"b":2},"time_extracted":"2025-01-01T00:00:00Z","version":1}`,
	`{"type":"RECORD","stream":"s","record":{"a":1} , "x" : [ {"b":"}"} ] , "version" : 1 }`,
	`{"type":"RECORD","stream":"s","record":{"a":01},"x":{"b":2}}`,
	`{"type":"RECORD","stream":"s","record":{"a":"\\"},"t":"\"}\\","n":-1.5e3,"b":true,"z":null}`,
	`{"type":"RECORD","stream":"s","record":{"a":1},"time_extracted":"x\"},\"y"}`,
	// Lines of one shape: the envelope is remembered, not read again.
	`{"type":"RECORD","stream":"s","record":{"a":1},"version":2}` + "\n" +
		`{"type":"RECORD","stream":"s","record":{"a":2},"version":2}` + "\n" +
		`{"type":"RECORD","stream":"s","record":{"a":3},"x":{},"version":2}` + "\n" +
		`{"type":"RECORD","stream":"s","record":{"a":01},"version":2}` + "\n" +
		`{"type":"RECORD","stream":"s","record":{"a":4},"version":{},"version":2}` + "\n" +
		`{"type":"RECORD","stream":"s","record":{"a":5}}` + "\n" +
		`{"type":"RECORD","stream":"s","record":{"a":6},"b":{}}` + "\n" +
		`{"type":"RECORD","stream":"s","record":{"a":7} }` + "\n" +
		`{"type":"RECORD","stream":"s","record":{"a":8},"b":{"c":"}"}}` + "\n" +
		// The same head, other tails: the envelope reads on from the record.
		`{"type":"RECORD","stream":"s","record":{"a":9},"time_extracted":"2025-01-01T00:00:01Z"}` + "\n" +
		`{"type":"RECORD","stream":"s","record":{"a":10},"time_extracted":"2025-01-01T00:00:02Z"}` + "\n" +
		`{"type":"RECORD","stream":"s","record":{"a":11},"time_extracted":"2025-01-01T00:00:03Z","x":{}}` + "\n" +
		`{"type":"RECORD","stream":"s","record":{"a":12,},"time_extracted":"2025-01-01T00:00:04Z"}` + "\n" +
		`{"type":"RECORD","stream":"s","record":[1],"time_extracted":"2025-01-01T00:00:04Z"}` + "\n" +
		`{"type":"RECORD","stream":"s","record":{"a":13}` + "\n" +
		`{"type":"RECORD","stream":"t","record":{"a":14},"time_extracted":"2025-01-01T00:00:05Z"}`,
	// Interleaved streams, each remembered by its head: names of one
	// length and of others, envelopes that change mid-stream.
	`{"type":"RECORD","stream":"a","record":{"a":1},"version":1}` + "\n" +
		`{"type":"RECORD","stream":"b","record":{"b":1},"version":1}` + "\n" +
		`{"type":"RECORD","stream":"long","record":{"c":1}}` + "\n" +
		`{"type":"RECORD","stream":"a","record":{"a":2},"version":1}` + "\n" +
		`{"type":"RECORD","stream":"b","record":{"b":2},"version":2}` + "\n" +
		`{"type":"RECORD","stream":"long","record":{"c":2}}` + "\n" +
		`{"type":"RECORD","stream":"a","record":{"a":03},"version":1}` + "\n" +
		`{"stream":"b","type":"RECORD","record":{"b":3},"version":2}` + "\n" +
		`{"type":"RECORD","stream":"long","record":{"c":3},"type":"STATE","value":1}` + "\n" +
		`{"type":"RECORD","stream":"b","record":{"b":4},"version":2}` + "\n" +
		`{"type":"RECORD","stream":"a","record":{"a":4},"version":1}`,
}

// exported is a copy of m with only its exported fields: the others are
// the reader's notes for the deferred check.
func exported(m *Message) *Message {
	c := m.Clone()
	c.unchecked, c.recordAt, c.errStream, c.use = false, 0, "", nil
	return c
}
