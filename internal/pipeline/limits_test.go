package pipeline_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/pipeline"
)

func wantInputError(t *testing.T, err error, contains string) {
	t.Helper()
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.Line == 0 || !strings.Contains(err.Error(), contains) {
		t.Fatalf("err = %v, want an input error with a line and %q", err, contains)
	}
}

func TestLongLineLoads(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MB line: skipped with -short")
	}
	big := strings.Repeat("x", 64<<20)
	schema := `{"type":"SCHEMA","stream":"big","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"s":{"type":"string"}}}}`
	rec := `{"type":"RECORD","stream":"big","record":{"id":1,"s":"` + big + `"}}`
	eng := newEngine()
	if _, err := run(t, eng, loadConfig(t, ""), input(schema, rec)); err != nil {
		t.Fatal(err)
	}
	rows := eng.Rows("DRY_RUN.BIG")
	if len(rows) != 1 || len(rows[0]["S"]) != len(big) {
		t.Fatalf("64 MB value did not land whole")
	}
	wantColumnType(t, eng, "BIG", "S", "CLOB")
}

func wideSchema(n int, mode string) string {
	var b strings.Builder
	b.WriteString(`{"type":"SCHEMA","stream":"wide","key_properties":["p0"],"schema":{"type":"object","properties":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"type":"integer"}`, i)
	}
	b.WriteString(`}}}`)
	return b.String()
}

func TestTenThousandProperties(t *testing.T) {
	_, err := run(t, newEngine(), loadConfig(t, ""), input(wideSchema(10000, ""), `{"type":"RECORD","stream":"wide","record":{"p0":1}}`))
	wantInputError(t, err, "storage_mode json")
	eng := newEngine()
	if _, err := run(t, eng, loadConfig(t, `{"storage_mode":"json"}`), input(wideSchema(10000, ""), `{"type":"RECORD","stream":"wide","record":{"p0":1,"p9999":2}}`)); err != nil {
		t.Fatal(err)
	}
	if rows := eng.Rows("DRY_RUN.WIDE"); len(rows) != 1 || rows[0]["DATA"] != `{"p0":1,"p9999":2}` {
		t.Fatalf("rows %v", rows)
	}
}

func TestDeepNesting(t *testing.T) {
	// 200 levels of nested objects in the schema and the record load (as
	// a JSON column); deeper than schema.MaxDepth is refused clearly.
	var s, r strings.Builder
	for i := 0; i < 200; i++ {
		s.WriteString(`{"type":"object","properties":{"a":`)
		r.WriteString(`{"a":`)
	}
	s.WriteString(`{"type":"integer"}`)
	r.WriteString(`1`)
	for i := 0; i < 200; i++ {
		s.WriteString(`}}`)
		r.WriteString(`}`)
	}
	schema := `{"type":"SCHEMA","stream":"deep","schema":{"type":"object","properties":{"id":{"type":"integer"},"n":` + s.String() + `}}}`
	rec := `{"type":"RECORD","stream":"deep","record":{"id":1,"n":` + r.String() + `}}`
	eng := newEngine()
	if _, err := run(t, eng, loadConfig(t, ""), input(schema, rec)); err != nil {
		t.Fatal(err)
	}
	if rows := eng.Rows("DRY_RUN.DEEP"); len(rows) != 1 || !strings.HasPrefix(rows[0]["N"], `{"a":{"a":`) {
		t.Fatalf("rows %v", rows)
	}
}

func TestSelfReferencingSchema(t *testing.T) {
	schema := `{"type":"SCHEMA","stream":"tree","key_properties":["id"],"schema":{"type":"object","definitions":{"node":{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/definitions/node"}}}}},"properties":{"id":{"type":"integer"},"root":{"$ref":"#/definitions/node"}}}}`
	ok := `{"type":"RECORD","stream":"tree","record":{"id":1,"root":{"name":"a","children":[{"name":"b","children":[]}]}}}`
	bad := `{"type":"RECORD","stream":"tree","record":{"id":2,"root":{"name":"a","children":[{"name":5}]}}}`
	eng := newEngine()
	if _, err := run(t, eng, loadConfig(t, ""), input(schema, ok)); err != nil {
		t.Fatal(err)
	}
	_, err := run(t, eng, loadConfig(t, ""), input(schema, bad))
	wantInputError(t, err, "name")
}

func TestManyStreamsStayBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of streams: skipped with -short")
	}
	const n = 3000
	var lines []string
	for i := 0; i < n; i++ {
		lines = append(lines, fmt.Sprintf(`{"type":"SCHEMA","stream":"s%d","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}}}`, i))
		lines = append(lines, fmt.Sprintf(`{"type":"RECORD","stream":"s%d","record":{"id":1,"v":"x"}}`, i))
	}
	lines = append(lines, state(1))
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	eng := newEngine()
	states, err := run(t, eng, loadConfig(t, ""), input(lines...))
	if err != nil || len(states) == 0 {
		t.Fatalf("err %v states %v", err, states)
	}
	if len(eng.Tables()) != n {
		t.Fatalf("%d tables", len(eng.Tables()))
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	// The engine keeps the rows (tests), the pipeline is gone: what is
	// left per stream must be small.
	if per := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n; per > 64<<10 {
		t.Fatalf("%d bytes retained per stream", per)
	}
}

func TestTooManyStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped with -short")
	}
	var lines []string
	for i := 0; i <= pipeline.MaxStreams; i++ {
		lines = append(lines, fmt.Sprintf(`{"type":"SCHEMA","stream":"s%d","schema":{"type":"object","properties":{"id":{"type":"integer"}}}}`, i))
	}
	_, err := run(t, newEngine(), loadConfig(t, ""), input(lines...))
	wantInputError(t, err, "streams in one run")
}
