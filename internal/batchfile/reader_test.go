package batchfile

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/singer"
)

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// batchMessage reads a BATCH message for manifest, placed on line 2.
func batchMessage(t *testing.T, compression string, manifest ...string) *singer.Message {
	t.Helper()
	enc := map[string]string{"format": "jsonl"}
	if compression != "" {
		enc["compression"] = compression
	}
	line, err := json.Marshal(map[string]any{"type": "BATCH", "stream": "orders", "encoding": enc, "manifest": manifest})
	if err != nil {
		t.Fatal(err)
	}
	r := singer.NewReader(strings.NewReader("\n"+string(line)+"\n"), singer.ReaderOptions{})
	m, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	return m.Clone()
}

type row struct {
	file     string
	fileLine int64
	record   string
}

func readBatch(t *testing.T, msg *singer.Message, opts Options) ([]row, error) {
	t.Helper()
	b, err := Open(msg, opts)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	var rows []row
	for {
		m, err := b.Next()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return rows, err
		}
		if m.Type != singer.TypeRecord || m.Stream != "orders" || m.Line != 2 {
			t.Errorf("row %d: got type %v stream %q line %d, want RECORD of orders on line 2", len(rows)+1, m.Type, m.Stream, m.Line)
		}
		rows = append(rows, row{m.File, m.FileLine, string(m.Record)})
	}
}

func TestBatch(t *testing.T) {
	exact := `{"id":3,"n":12345678901234567890.12345678901234567891,"e":1e400}`
	plain := writeFile(t, "a.jsonl", []byte(`{"id":1}`+"\r\n\n"+`  {"id": 2} `+"\n"+exact))
	gz := writeFile(t, "b.jsonl.gz", gzipped(t, `{"id":4,"s":"Köln"}`+"\n"+`{"id":5}`+"\n"))
	empty := writeFile(t, "c.jsonl", nil)
	for _, compression := range []string{"", "none"} {
		msg := batchMessage(t, compression, "file://"+plain, empty)
		rows, err := readBatch(t, msg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := []row{
			{"file://" + plain, 1, `{"id":1}`},
			{"file://" + plain, 3, `{"id": 2}`},
			{"file://" + plain, 4, exact},
		}
		if fmt.Sprint(rows) != fmt.Sprint(want) {
			t.Errorf("compression %q:\ngot  %v\nwant %v", compression, rows, want)
		}
	}
	msg := batchMessage(t, "gzip", gz, "file://localhost"+gz)
	rows, err := readBatch(t, msg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []row{
		{gz, 1, `{"id":4,"s":"Köln"}`},
		{gz, 2, `{"id":5}`},
		{"file://localhost" + gz, 1, `{"id":4,"s":"Köln"}`},
		{"file://localhost" + gz, 2, `{"id":5}`},
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("gzip:\ngot  %v\nwant %v", rows, want)
	}
	// The Singer SDK's JSON-lines batcher gzips every file whatever its
	// batch_config says, and its BATCH message says what the config
	// says: gzip data is read as such without "gzip" too, beside a plain
	// file in the same manifest.
	for _, compression := range []string{"", "none"} {
		msg := batchMessage(t, compression, gz, "file://"+plain)
		rows, err := readBatch(t, msg, Options{})
		if err != nil {
			t.Fatalf("compression %q over a gzip file: %v", compression, err)
		}
		want := []row{
			{gz, 1, `{"id":4,"s":"Köln"}`},
			{gz, 2, `{"id":5}`},
			{"file://" + plain, 1, `{"id":1}`},
			{"file://" + plain, 3, `{"id": 2}`},
			{"file://" + plain, 4, exact},
		}
		if fmt.Sprint(rows) != fmt.Sprint(want) {
			t.Errorf("compression %q over a gzip file:\ngot  %v\nwant %v", compression, rows, want)
		}
	}
}

// The manifest's URI forms: RFC 8089's file:///abs, file://localhost/abs
// and file:/abs, percent-escapes decoded (the Singer SDK since v0.46 writes
// pathlib's as_uri: a space is %20), and the path as written when only that
// exists (older SDKs wrote "file://" + the path, unescaped).
func TestBatchFileURIForms(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my dir")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := write("x.jsonl", `{"id":1}`)
	write("50%41.jsonl", `{"id":2}`) // as written; "%41" decodes to "A"
	write("100%.jsonl", `{"id":3}`)  // a % that is no escape
	escaped := strings.ReplaceAll(dir, " ", "%20")
	for _, tc := range []struct{ entry, want string }{
		{"file://" + escaped + "/x.jsonl", `{"id":1}`},
		{"file://" + dir + "/x.jsonl", `{"id":1}`}, // older SDKs: unescaped
		{"file:" + escaped + "/x.jsonl", `{"id":1}`},
		{"file://localhost" + escaped + "/x.jsonl", `{"id":1}`},
		{"FILE://LocalHost" + escaped + "/%78.jsonl", `{"id":1}`},
		{plain, `{"id":1}`},
		{"file://" + dir + "/50%41.jsonl", `{"id":2}`},
		{"file://" + dir + "/100%.jsonl", `{"id":3}`},
	} {
		rows, err := readBatch(t, batchMessage(t, "none", tc.entry), Options{})
		if err != nil || len(rows) != 1 || rows[0].record != tc.want {
			t.Errorf("%s: got %v, %v; want one row %s", tc.entry, rows, err, tc.want)
		}
	}
}

// Relative file: URIs and other hosts are refused: the Singer SDK writes
// neither (it resolves the storage root to an absolute path), and
// file://out/a.jsonl names the host "out" in RFC 8089.
func TestBatchRelativeFileURIRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "rel.jsonl"), []byte(`{"id":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, tc := range []struct{ entry, want string }{
		{"file://rel.jsonl", `line 2: stream "orders": BATCH manifest: file URI "file://rel.jsonl" names the host "rel.jsonl"`},
		{"file:rel.jsonl", `line 2: stream "orders": BATCH manifest: file URI "file:rel.jsonl" has a relative path`},
		{"file://db.example.com/tmp/a.jsonl", `file URI "file://db.example.com/tmp/a.jsonl" names the host "db.example.com"`},
		{"rel.jsonl", `"rel.jsonl" is neither a file: URI nor an absolute path`},
	} {
		_, err := Open(batchMessage(t, "none", tc.entry), Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.entry, err, tc.want)
		}
	}
}

func TestBatchErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.jsonl")
	notGzip := writeFile(t, "plain.jsonl.gz", []byte(`{"id":1}`+"\n"))
	emptyGzip := writeFile(t, "empty.jsonl.gz", nil)
	full := gzipped(t, strings.Repeat(`{"id":1}`+"\n", 1000))
	truncated := writeFile(t, "truncated.jsonl.gz", full[:len(full)/2])
	corrupt := bytes.Clone(full)
	corrupt[len(corrupt)-5] ^= 0xff // the length/CRC trailer
	badCRC := writeFile(t, "crc.jsonl.gz", corrupt)
	badRow := writeFile(t, "bad.jsonl", []byte(`{"id":1}`+"\n"+`[1]`+"\n"))
	badJSON := writeFile(t, "badjson.jsonl", []byte(`{"id":1}`+"\n\n"+`{"id":}`+"\n"))
	badUTF8 := writeFile(t, "utf8.jsonl", []byte("{\"s\":\"\xff\"}\n"))
	long := writeFile(t, "long.jsonl", []byte(`{"s":"`+strings.Repeat("x", 100)+`"}`))

	tests := []struct {
		name        string
		msg         *singer.Message
		opts        Options
		inputError  bool
		wantInError []string
	}{
		{"missing file", batchMessage(t, "none", "file://"+missing), Options{}, false,
			[]string{"line 2", `stream "orders"`, missing, "no such file"}},
		{"not gzip", batchMessage(t, "gzip", "file://"+notGzip), Options{}, false,
			[]string{"line 2", notGzip, `not gzip data, but the BATCH encoding says "gzip"`}},
		{"empty gzip", batchMessage(t, "gzip", emptyGzip), Options{}, false,
			[]string{"line 2", emptyGzip, "not gzip data"}},
		{"truncated gzip", batchMessage(t, "gzip", truncated), Options{}, false,
			[]string{"line 2", truncated, "unexpected EOF"}},
		{"bad gzip checksum", batchMessage(t, "gzip", badCRC), Options{}, false,
			[]string{"line 2", badCRC, "gzip"}},
		{"row not an object", batchMessage(t, "none", badRow), Options{}, true,
			[]string{`line 2: BATCH file "` + badRow + `" row 2: stream "orders": line is not a JSON object but an array at byte 1`}},
		{"row not JSON", batchMessage(t, "none", badJSON), Options{}, true,
			[]string{`BATCH file "` + badJSON + `" row 3: stream "orders": property "id": invalid JSON: unexpected '}', want a value at byte 7`}},
		{"row not UTF-8", batchMessage(t, "none", badUTF8), Options{}, true,
			[]string{`row 1: stream "orders": property "s": invalid UTF-8 at byte 7`}},
		{"row over the limit", batchMessage(t, "none", long), Options{MaxLineBytes: 50}, true,
			[]string{`row 1: stream "orders": longer than the limit of 50 bytes`}},
		{"a directory", batchMessage(t, "none", dir), Options{}, false,
			[]string{"line 2", dir, "not a regular file"}},
		{"a device", batchMessage(t, "none", os.DevNull), Options{}, false,
			[]string{"line 2", os.DevNull, "not a regular file"}},
		{"a FIFO nobody writes", batchMessage(t, "none", fifo(t, dir)), Options{}, false,
			[]string{"line 2", "not a regular file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readBatch(t, tt.msg, tt.opts)
			if err == nil {
				t.Fatal("no error")
			}
			var ie *inputerr.Error
			if got := errors.As(err, &ie); got != tt.inputError {
				t.Errorf("%v: *inputerr.Error is %v, want %v", err, got, tt.inputError)
			}
			for _, s := range tt.wantInError {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
		})
	}
}

func TestOpenBatchErrors(t *testing.T) {
	for _, tt := range []struct{ entry, want string }{
		{"s3://bucket/a.jsonl", `line 2: stream "orders": BATCH manifest: unsupported URL scheme "s3" in "s3://bucket/a.jsonl" (only local file: URIs are read)`},
		{"https://x/a.jsonl", `unsupported URL scheme "https" in "https://x/a.jsonl"`},
		{"gs://b/a.jsonl", `unsupported URL scheme "gs"`},
		{"a.jsonl", `"a.jsonl" is neither a file: URI nor an absolute path`},
		{"file://", `empty file URL "file://"`},
		{"file://localhost", `file URI "file://localhost" has no path`},
		{"file:///tmp/a%00b.jsonl", `decodes to a path with a NUL byte`},
	} {
		_, err := Open(batchMessage(t, "none", "/tmp/ok.jsonl", tt.entry), Options{})
		var ie *inputerr.Error
		if err == nil || errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want a plain error containing %q", tt.entry, err, tt.want)
		}
	}
	if _, err := Open(&singer.Message{Type: singer.TypeRecord, Line: 7}, Options{}); err == nil {
		t.Error("Open of a RECORD: no error")
	}
}

func TestBatchNextAfterClose(t *testing.T) {
	path := writeFile(t, "a.jsonl", []byte(`{"id":1}`+"\n"+`{"id":2}`+"\n"))
	b, err := Open(batchMessage(t, "none", path), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Next(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := b.Next(); err == nil || err == io.EOF {
		t.Errorf("Next after Close: got %v, want an error", err)
	}
}

// fifo makes a named pipe (opening it for reading blocks until a writer
// comes), or skips where there are none.
func fifo(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "fifo.jsonl")
	if err := mkfifo(p); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	return p
}
