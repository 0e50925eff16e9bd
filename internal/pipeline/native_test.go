package pipeline_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/pipeline"
	"github.com/target-oracle/target-oracle/internal/table"
)

// runOn is run with the server facts srv, returning the log too.
func runOn(t *testing.T, eng *memory.Engine, cfg *config.Config, srv pipeline.Server, in string) (string, error) {
	t.Helper()
	var out strings.Builder
	var logs bytes.Buffer
	if srv.DefaultSchema == "" { // the other facts as given (VectorNative, MaxColumns)
		srv.DefaultSchema, srv.IdentifierMaxBytes, srv.VarcharMaxBytes = testServer.DefaultSchema, testServer.IdentifierMaxBytes, testServer.VarcharMaxBytes
	}
	o := runOptions(cfg, eng, in, &out)
	o.Server = srv
	o.Log = slog.New(slog.NewTextHandler(&logs, nil))
	err := pipeline.Run(context.Background(), o)
	return logs.String(), err
}

const binarySchema = `{"type":"SCHEMA","stream":"files","key_properties":["digest"],"schema":{"type":"object","properties":{` +
	`"digest":{"type":"string","contentEncoding":"base16","maxLength":32},` +
	`"thumb":{"type":["null","string"],"contentEncoding":"base64","maxLength":200},` +
	`"content":{"type":["null","string"],"contentEncoding":"base64"}}}}`

func fileRecord(digest, thumb, content string) string {
	return fmt.Sprintf(`{"type":"RECORD","stream":"files","record":{"digest":%q,"thumb":%q,"content":%q}}`, digest, thumb, content)
}

// TestBinaryColumns: with interpret_content_encoding, base16/base64
// strings load into RAW(n) (n from maxLength) and BLOB columns, stored as
// base64 of their bytes (SPEC §5.2); a value too long for its RAW widens
// it; an invalid encoding is invalid input naming the property and line;
// without the setting they stay text as received.
func TestBinaryColumns(t *testing.T) {
	on := loadConfig(t, `{"interpret_content_encoding": true, "add_record_metadata": false}`)
	eng := newEngine()
	if _, err := runOn(t, eng, on, pipeline.Server{}, input(binarySchema,
		fileRecord("00ff10AB", "AAEC", "aGVsbG8gd29ybGQ="),
		fileRecord("01", "", ""))); err != nil {
		t.Fatal(err)
	}
	tb := eng.Tables()["DRY_RUN.FILES"]
	if got := columnTypes(tb.Columns); got != "DIGEST RAW(16), THUMB RAW(150), CONTENT BLOB" {
		t.Errorf("columns: %s", got)
	}
	rows := eng.Rows("DRY_RUN.FILES")
	if len(rows) != 2 || rows[0]["DIGEST"] != "AP8Qqw==" || rows[0]["THUMB"] != "AAEC" || rows[0]["CONTENT"] != "aGVsbG8gd29ybGQ=" ||
		rows[1]["DIGEST"] != "AQ==" || rows[1]["THUMB"] != "" {
		t.Errorf("rows %v", rows)
	}

	// A longer maxLength widens RAW(150) in place; none makes it a BLOB
	// (a rewrite: RAW < RAW(m) < BLOB), and the stored values stay.
	for _, c := range []struct{ from, to, want string }{
		{`"maxLength":200}`, `"maxLength":400}`, "RAW(300)"},
		{`"maxLength":200}`, `"maxLength":-1}`, "BLOB"},
	} {
		s := strings.Replace(binarySchema, c.from, c.to, 1)
		s = strings.Replace(s, `,"maxLength":-1`, "", 1)
		if _, err := runOn(t, eng, on, pipeline.Server{}, input(s, fileRecord("02", "AAAA", ""))); err != nil {
			t.Fatal(err)
		}
		if got := eng.Tables()["DRY_RUN.FILES"].Column("THUMB").Type.String(); got != c.want {
			t.Errorf("THUMB after %s: %s, want %s", c.to, got, c.want)
		}
		if r := eng.Rows("DRY_RUN.FILES"); len(r) != 3 || r[0]["THUMB"] != "AAEC" || r[2]["THUMB"] != "AAAA" {
			t.Errorf("rows after %s: %v", c.to, r)
		}
	}

	_, err := runOn(t, newEngine(), on, pipeline.Server{}, input(binarySchema, fileRecord("03", "AAE", "")))
	wantInputError(t, err, `"thumb": not base64`)
	if !strings.Contains(err.Error(), "line 2") {
		t.Errorf("error lacks the line: %v", err)
	}
	_, err = runOn(t, newEngine(), on, pipeline.Server{}, input(binarySchema, fileRecord("xyz", "", "")))
	wantInputError(t, err, `"digest": not base16`)

	off := loadConfig(t, `{"add_record_metadata": false}`)
	eng = newEngine()
	if _, err := runOn(t, eng, off, pipeline.Server{}, input(binarySchema, fileRecord("00ff10AB", "AAEC", "aGVsbG8="))); err != nil {
		t.Fatal(err)
	}
	if got := columnTypes(eng.Tables()["DRY_RUN.FILES"].Columns); got != "DIGEST VARCHAR2(32 CHAR), THUMB VARCHAR2(200 CHAR), CONTENT VARCHAR2(4000 BYTE)" {
		t.Errorf("off: columns %s", got)
	}
	if r := eng.Rows("DRY_RUN.FILES"); len(r) != 1 || r[0]["DIGEST"] != "00ff10AB" {
		t.Errorf("off: rows %v", r)
	}

	// Binary joined with text stays text, with one warning: the table
	// made without the setting keeps its VARCHAR2 columns.
	logs, err := runOn(t, eng, on, pipeline.Server{}, input(binarySchema, fileRecord("00ff10AC", "AAEC", "aGVsbG8=")))
	if err != nil {
		t.Fatal(err)
	}
	if got := columnTypes(eng.Tables()["DRY_RUN.FILES"].Columns); !strings.HasPrefix(got, "DIGEST VARCHAR2(32 CHAR), THUMB VARCHAR2(200 CHAR)") {
		t.Errorf("joined with text: columns %s", got)
	}
	if n := strings.Count(logs, "stay text in their encoded form"); n != 3 {
		t.Errorf("want one warning per binary property, got %d:\n%s", n, logs)
	}
}

// TestBinaryBlobKeyIsInvalidInput: a key that would need a BLOB fails at
// its SCHEMA (SPEC §5.2).
func TestBinaryBlobKeyIsInvalidInput(t *testing.T) {
	cfg := loadConfig(t, `{"interpret_content_encoding": true}`)
	s := `{"type":"SCHEMA","stream":"f","key_properties":["k"],"schema":{"type":"object","properties":{"k":{"type":"string","contentEncoding":"base64"}}}}`
	_, err := runOn(t, newEngine(), cfg, pipeline.Server{}, input(s))
	wantInputError(t, err, "BLOB column, which Oracle cannot index")
}

func columnTypes(cols []table.Column) string {
	var out []string
	for _, c := range cols {
		if strings.HasPrefix(c.Name, "_SDC") {
			continue
		}
		out = append(out, c.Name+" "+c.Type.String())
	}
	return strings.Join(out, ", ")
}

const vectorSchema = `{"type":"SCHEMA","stream":"emb","key_properties":["id"],"schema":{"type":"object","properties":{` +
	`"id":{"type":"integer"},` +
	`"e":{"type":["null","array"],"items":{"type":"number"},"minItems":3,"maxItems":3,"x-sql-datatype":"vector","x-sql-datatype-properties":{"format":"float64"}},` +
	`"c":{"type":["null","array"],"items":{"type":"number"},"x-sql-datatype":"pgvector","x-sql-datatype-properties":{"dim":2,"format":"int8"}}}}}`

func embRecord(e, c string) string {
	return `{"type":"RECORD","stream":"emb","record":{"id":1,"e":` + e + `,"c":` + c + `}}`
}

// TestVectors (SPEC §5.2): with VECTOR on the server, vector properties
// are VECTOR(n, FORMAT) columns (dimension from minItems = maxItems or
// dim), elements rounded to the format; wrong lengths and INT8 out of
// range are invalid input naming the property. Without it the columns are
// JSON, the values as received, with one warning per property.
func TestVectors(t *testing.T) {
	cfg := loadConfig(t, `{"add_record_metadata": false}`)
	native := pipeline.Server{VectorNative: true}
	eng := newEngine()
	if _, err := runOn(t, eng, cfg, native, input(vectorSchema, embRecord("[0.1,1e-400,3]", "[1.4,-127.6]"))); err != nil {
		t.Fatal(err)
	}
	if got := columnTypes(eng.Tables()["DRY_RUN.EMB"].Columns); got != "ID NUMBER(38,0), E VECTOR(3, FLOAT64), C VECTOR(2, INT8)" {
		t.Errorf("columns %s", got)
	}
	if r := eng.Rows("DRY_RUN.EMB"); r[0]["E"] != "[0.1,0,3]" || r[0]["C"] != "[1,-128]" {
		t.Errorf("rows %v", r)
	}
	for _, c := range []struct{ e, c, want string }{
		{"[1,2]", "null", `"e": a vector of 2 elements, its column VECTOR(3, FLOAT64) has 3 dimensions`},
		{"null", "[1,128]", `"c": vector element 1: 128 is out of the INT8 range`},
		{"null", "[1,-128.6]", `"c": vector element 1: -128.6 is out of the INT8 range`},
		{"[1,2,1e309]", "null", `"e": vector element 2: 1e309 is out of the FLOAT64 range`},
	} {
		_, err := runOn(t, newEngine(), cfg, native, input(vectorSchema, embRecord(c.e, c.c)))
		if c.e == "[1,2]" {
			// minItems/maxItems: the validator refuses it first.
			wantInputError(t, err, `"e"`)
			continue
		}
		wantInputError(t, err, c.want)
	}

	eng = newEngine()
	logs, err := runOn(t, eng, cfg, pipeline.Server{}, input(vectorSchema, embRecord("[0.1,2,3]", "[1,2]"), vectorSchema))
	if err != nil {
		t.Fatal(err)
	}
	if got := columnTypes(eng.Tables()["DRY_RUN.EMB"].Columns); got != "ID NUMBER(38,0), E CLOB, C CLOB" {
		t.Errorf("fallback columns %s", got)
	}
	if n := strings.Count(logs, "needs Oracle's VECTOR type"); n != 2 {
		t.Errorf("want one warning per vector property over two SCHEMA messages, got %d:\n%s", n, logs)
	}
	bad := strings.Replace(vectorSchema, `"format":"int8"`, `"format":"binary"`, 1)
	_, err = runOn(t, newEngine(), cfg, native, input(bad))
	wantInputError(t, err, `"c": x-sql-datatype-properties.format "binary": float32, float64 or int8 expected`)
}

// TestMaxColumns (SPEC §5.2): the column limit follows max_columns (the
// server's MAX_COLUMNS): 4096 columns load where it is EXTENDED, and
// every check, the rewrite's temporary column included, uses that limit;
// 1000 stays the default.
func TestMaxColumns(t *testing.T) {
	cfg := loadConfig(t, `{"add_record_metadata": false}`)
	rec := `{"type":"RECORD","stream":"full","record":{"p0":1}}`
	wide := pipeline.Server{MaxColumns: 4096}
	wideEngine := func() *memory.Engine {
		return memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }, MaxColumns: 4096})
	}

	_, err := runOn(t, newEngine(), cfg, pipeline.Server{}, input(fullSchema(1001), rec))
	wantInputError(t, err, "the table would need 1001 columns, more than Oracle's 1000 (max_columns; 4096 needs MAX_COLUMNS=EXTENDED, 23ai)")

	eng := wideEngine()
	if _, err := runOn(t, eng, cfg, wide, input(fullSchema(4096), rec)); err != nil {
		t.Fatal(err)
	}
	if n := len(eng.Tables()["DRY_RUN.FULL"].Columns); n != 4096 {
		t.Fatalf("%d columns, want 4096", n)
	}
	_, err = runOn(t, wideEngine(), cfg, wide, input(fullSchema(4097), rec))
	wantInputError(t, err, "the table would need 4097 columns, more than the 4096 Oracle allows with MAX_COLUMNS=EXTENDED")

	// A rewrite on the full table needs a 4097th, temporary column.
	_, err = runOn(t, eng, cfg, wide, input(fullSchema(4096, 1), rec))
	wantInputError(t, err, "4097 columns")
	if !strings.Contains(err.Error(), "temporary column") {
		t.Errorf("error lacks the manual procedure: %v", err)
	}
	if n := strings.Count(err.Error(), "DRY_RUN.FULL"); n != 1 {
		t.Errorf("the error names the table %d times, want once: %v", n, err)
	}

	// The setting alone (as in a dry run): max_columns 4096.
	c4096 := loadConfig(t, `{"add_record_metadata": false, "max_columns": "4096"}`)
	if _, err := runOn(t, wideEngine(), c4096, pipeline.Server{}, input(fullSchema(2000), rec)); err != nil {
		t.Fatal(err)
	}
}
