package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/metrics"
	"github.com/target-oracle/target-oracle/internal/pipeline"
	"github.com/target-oracle/target-oracle/internal/singer"
)

// readError is the reader's error for line: from Next, or from
// DecodeRecord for a RECORD's record.
func readError(line string) error {
	m, err := singer.NewReader(strings.NewReader(line), singer.ReaderOptions{}).Next()
	if err == nil && m.Type == singer.TypeRecord {
		err = m.DecodeRecord(nil)
	}
	return err
}

// The reader leaves a record's syntax to the one-pass decoder
// (singer.Message.DecodeRecord). Whatever path a malformed
// record takes — one pass, fallback to the general validator, conversion
// error, invalid time_extracted, stream maps, no validation, any
// on_invalid_record — it must end the run with the reader's own error for
// the line, after committing what came before and writing its state.
func TestMalformedRecordEndsTheRun(t *testing.T) {
	bad := []string{
		`{"type":"RECORD","stream":"s","record":{"id":4,"v":"x",}}`,
		`{"type":"RECORD","stream":"s","record":{"id":4,"v":"\ud800"}}`,
		"{\"type\":\"RECORD\",\"stream\":\"s\",\"record\":{\"id\":4,\"v\":\"\xff\"}}",
		"{\"type\":\"RECORD\",\"stream\":\"s\",\"record\":{\"id\":4,\"v\":\"a\tb\"}}",
		`{"type":"RECORD","stream":"s","record":{"id":4,"w":01}}`,
		`{"type":"RECORD","stream":"s","record":{"id":"four","v":"\ud800"}}`,                     // a broken rule too
		`{"type":"RECORD","stream":"s","record":{"id":4,"v":"\ud800"},"time_extracted":"never"}`, // bad metadata too
		`{"type":"RECORD","stream":"s","record":{"id":4,"v":"\ud800"},"version":1}`,
		`{"type":"RECORD","stream":"s","record":{"id":4,"v":[1,]}}`,
		`{"type":"RECORD","stream":"s","record":{"id":4}x}`,
	}
	settings := map[string]string{
		"default":     `{}`,
		"skip":        `{"on_invalid_record": "skip"}`,
		"reject":      `{"on_invalid_record": "reject", "reject_path": "REJECTS"}`,
		"no validate": `{"validate_records": false}`,
		"stream map":  `{"stream_maps": {"s": {"extra": "1"}}}`,
	}
	for name, set := range settings {
		for _, line := range bad {
			want := readError(line)
			if want == nil {
				t.Fatalf("test line is valid: %s", line)
			}
			set := strings.Replace(set, "REJECTS", t.TempDir()+"/rejects.jsonl", 1)
			eng := newEngine()
			in := input(schemaLine, rec(1, "a"), rec(2, "b"), state(2), line, rec(5, "e"), state(5))
			states, err := run(t, eng, loadConfig(t, set), in)
			var ie *inputerr.Error
			if !errors.As(err, &ie) || ie.Line != 5 || !strings.Contains(err.Error(), want.(*inputerr.Error).Msg) {
				t.Errorf("%s: %s:\ngot  %v\nwant %v", name, line, err, want)
			}
			if strings.Join(states, "|") != `{"n":2}` || ids(eng, "S") != "1,2" {
				t.Errorf("%s: %s: states %q rows %s, want the state and rows before the line", name, line, states, ids(eng, "S"))
			}
		}
	}
}

// Upserts of one batch collapse per key whatever the order of the keys:
// in increasing order no key is looked up (they cannot repeat), and the
// first key out of order switches to the map with every key before it.
func TestUpsertDedupeAnyKeyOrder(t *testing.T) {
	for _, c := range []struct {
		ids  []int
		want string // id=v by id
	}{
		{[]int{1, 2, 3}, "1=v0,2=v1,3=v2"},
		{[]int{9, 10, 11, 9}, "9=v3,10=v1,11=v2"},
		{[]int{1, 2, 10, 3, 10, 2, 11}, "1=v0,2=v5,3=v3,10=v4,11=v6"},
		{[]int{5, 4, 3, 5}, "3=v2,4=v1,5=v3"},
		{[]int{7, 7}, "7=v1"},
	} {
		lines := []string{schemaLine}
		for i, id := range c.ids {
			lines = append(lines, rec(id, "v"+strconv.Itoa(i)))
		}
		eng := newEngine()
		if _, err := run(t, eng, loadConfig(t, ""), input(lines...)); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range eng.Rows("DRY_RUN.S") {
			got = append(got, r["ID"]+"="+r["V"])
		}
		if strings.Join(got, ",") != c.want {
			t.Errorf("ids %v: rows %s, want %s", c.ids, strings.Join(got, ","), c.want)
		}
	}
}

// A member holding an object after the record (once, the reader's guess
// of where the record ends went wrong there; it now finds the end forward)
// loads as any other line, whatever path it takes.
func TestObjectMemberAfterRecord(t *testing.T) {
	lines := []string{
		`{"type":"RECORD","stream":"s","record":{"id":3,"v":"c"},"x":{"k":1},"time_extracted":"2025-01-02T03:04:05Z"}`,
		`{"type":"RECORD","stream":"s","record":{"id":4,"v":"d"},"x":{"k":{}}}`,
		`{"type":"RECORD","stream":"s","record":{"id":5,"v":"e"},"x":{},"version":1}`,
	}
	for name, set := range map[string]string{
		"default":     `{}`,
		"no validate": `{"validate_records": false}`,
		"stream map":  `{"stream_maps": {"s": {"extra": "1"}}}`,
	} {
		eng := newEngine()
		in := input(schemaLine, rec(1, "a"), lines[0], lines[1], lines[2], state(5))
		states, err := run(t, eng, loadConfig(t, set), in)
		if err != nil || strings.Join(states, "|") != `{"n":5}` || ids(eng, "S") != "1,3,4,5" {
			t.Fatalf("%s: err %v states %q rows %s", name, err, states, ids(eng, "S"))
		}
		for _, r := range eng.Rows("DRY_RUN.S") {
			if r["ID"] == "3" && r["_SDC_EXTRACTED_AT"] != "2025-01-02T03:04:05Z" || r["ID"] == "5" && r["_SDC_TABLE_VERSION"] != "1" {
				t.Errorf("%s: row %v: metadata of the line's members after the record lost", name, r)
			}
		}
	}
}

func TestUpsertDedupeCompositeKey(t *testing.T) {
	schema := `{"type":"SCHEMA","stream":"c","key_properties":["a","b"],"schema":{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"},"v":{"type":"integer"}}}}`
	recs := [][3]any{{1, "x", 1}, {1, "y", 2}, {2, "x", 3}, {1, "y", 4}, {2, "x", 6}}
	lines := []string{schema}
	for _, r := range recs {
		lines = append(lines, fmt.Sprintf(`{"type":"RECORD","stream":"c","record":{"a":%d,"b":%q,"v":%d}}`, r[0], r[1], r[2]))
	}
	eng := newEngine()
	if _, err := run(t, eng, loadConfig(t, ""), input(lines...)); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range eng.Rows("DRY_RUN.C") {
		got = append(got, r["A"]+r["B"]+"="+r["V"])
	}
	if want := "1x=1,1y=4,2x=6"; strings.Join(got, ",") != want {
		t.Errorf("rows %s, want %s", strings.Join(got, ","), want)
	}
}

// A later "stream" member behind an object after the record (the last of
// duplicate keys counts; a guess of the record's end once hid it): the
// record goes to the stream it names, whether or not the first name has a
// SCHEMA.
func TestHiddenStreamAfterRecord(t *testing.T) {
	u := strings.Replace(schemaLine, `"stream":"s"`, `"stream":"u"`, 1)
	for name, lines := range map[string][]string{
		"both streams":  {schemaLine, u, `{"type":"RECORD","stream":"s","record":{"id":1,"v":"a"},"stream":"u","x":{}}`},
		"first unknown": {u, `{"type":"RECORD","stream":"s","record":{"id":1,"v":"a"},"stream":"u","x":{}}`},
		"not a RECORD": {schemaLine, u, `{"type":"RECORD","stream":"u","record":{"id":1,"v":"a"}}`,
			`{"type":"RECORD","stream":"s","record":{"id":2},"type":"STATE","value":{"n":0},"x":{}}`},
		"not a RECORD, unknown stream": {u, `{"type":"RECORD","stream":"u","record":{"id":1,"v":"a"}}`,
			`{"type":"RECORD","stream":"t","record":{"id":2},"type":"STATE","value":{"n":0},"x":{}}`},
	} {
		eng := newEngine()
		if _, err := run(t, eng, loadConfig(t, ""), input(append(lines, state(1))...)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if ids(eng, "U") != "1" || ids(eng, "S") != "" {
			t.Errorf("%s: rows in U %q, in S %q; want the record in U only", name, ids(eng, "U"), ids(eng, "S"))
		}
	}
}

// The properties of a malformed record are not warned about: the reader
// would have refused the line before any walk. A valid record's are.
func TestNoUnknownPropertyWarningForMalformedRecord(t *testing.T) {
	valid := `{"type":"RECORD","stream":"s","record":{"id":1,"w":1,"v":"a"}}`
	for in, want := range map[string]int{
		`{"type":"RECORD","stream":"s","record":{"id":1,"w":1,"v":"a",}}`: 0,
		valid: 1,
		// Found by a probe (when the reader guessed the record's end): a
		// line whose later "type" makes it a STATE is no record of s, but
		// the next one reports w.
		`{"type":"RECORD","stream":"s","record":{"id":3,"w":2},"type":"STATE","value":{"y":1}}`:                0,
		`{"type":"RECORD","stream":"s","record":{"id":3,"w":2},"type":"STATE","value":{"y":1}}` + "\n" + valid: 1,
	} {
		var logs strings.Builder
		reg := metrics.New(io.Discard, 0, fixedNow)
		pipeline.Run(context.Background(), pipeline.Options{Config: loadConfig(t, ""), Engine: newEngine(),
			Server: testServer,
			Input:  strings.NewReader(input(schemaLine, in)), StateOut: io.Discard, Metrics: reg,
			Log: slog.New(slog.NewTextHandler(&logs, nil))})
		if got := strings.Count(logs.String(), "is not in the schema"); got != want {
			t.Errorf("%s: %d warnings about unknown properties, want %d:\n%s", in, got, want, logs.String())
		}
		// A malformed record is not counted as read, as when the reader
		// refused it.
		wantRead := int64(strings.Count(in, valid))
		if sum := reg.Finish(fixedNow, nil); sum.Records != wantRead {
			t.Errorf("%s: %d records read, want %d", in, sum.Records, wantRead)
		}
	}
}

// Once a stream has its version columns, records with a version take the
// one pass too; a malformed one still ends the run with the reader's error.
func TestMalformedVersionedRecord(t *testing.T) {
	bad := `{"type":"RECORD","stream":"s","record":{"id":2,"v":"x",},"version":1}`
	want := readError(bad)
	for _, set := range []string{`{}`, `{"on_invalid_record": "skip"}`} {
		eng := newEngine()
		in := input(schemaLine, `{"type":"RECORD","stream":"s","record":{"id":1,"v":"a"},"version":1}`, state(1), bad, state(2))
		states, err := run(t, eng, loadConfig(t, set), in)
		if err == nil || !strings.Contains(err.Error(), want.(*inputerr.Error).Msg) || strings.Join(states, "|") != `{"n":1}` || ids(eng, "S") != "1" {
			t.Errorf("%s: err %v states %q rows %s; want %v", set, err, states, ids(eng, "S"), want)
		}
	}
}
