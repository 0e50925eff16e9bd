package oracle_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/wirepeer"
)

var update = flag.Bool("update", false, "rewrite the golden files of internal/oracle")

// mixedTable is allTypes with a RAW and a BLOB column: every bind class.
func mixedTable() *table.Table {
	t := allTypes()
	t.Name = "MIXED"
	t.Columns = append(t.Columns[:len(t.Columns)-1:len(t.Columns)-1],
		prop("BIN", table.Type{Kind: table.KindRaw, Length: 16}, true),
		prop("BLOB_V", table.Type{Kind: table.KindBlob}, true),
		meta("_SDC_LOADED_AT", tsTZ))
	return t
}

// mixedRows are n rows cycling through short, NULL and long values of
// every column, so that each chunk of a few rows mixes bind classes.
func mixedRows(n int) []map[string]string {
	base := roundTripRows()
	b64 := func(n int) string { return base64.StdEncoding.EncodeToString([]byte(strings.Repeat("\x01\xfe", n/2))) }
	var rows []map[string]string
	for i := range n {
		r := map[string]string{}
		for k, v := range base[i%len(base)] {
			r[k] = v
		}
		r["ID"] = fmt.Sprint(i + 1)
		switch i % 4 {
		case 0:
			r["BIN"], r["BLOB_V"] = b64(8), b64(10)
		case 1:
			r["BLOB_V"] = b64(5000)
		case 2:
			r["BIN"] = b64(16)
		}
		rows = append(rows, r)
	}
	return rows
}

// TestMixedBatchOnTheWireIsUnchanged is the record of what go-ora sends
// for a mixed batch, as the wire peer decodes it: every execute's SQL,
// rows, bind declarations (type, length, character set form and id) and
// every value (its bytes, hashed when long). It runs an INSERT and an
// upsert batch in chunks of 5 rows, so that the binder's buffers are
// reused across chunks and executes. The golden file was written before
// bind building was reworked (issue #18); `go test ./internal/oracle
// -run TestMixedBatchOnTheWireIsUnchanged -update` rewrites it.
func TestMixedBatchOnTheWireIsUnchanged(t *testing.T) {
	var sb strings.Builder
	for _, method := range []engine.Method{engine.Insert, engine.Upsert} {
		db := fake.New(fake.Options{Schema: schemaName, Now: clock})
		o := oracle.Options{Sleep: instant, MaxArrayRows: 5}
		dial, p := wirePeer(t, db, o, nil)
		eng := oracle.New(dial, oraclesql.New(oraclesql.Options{}), o)
		tbl := mixedTable()
		s := session(t, &rig{db: db, eng: eng}, tbl)
		calls := len(p.Executes())
		rows := mixedRows(13)
		if _, err := s.Load(context.Background(), []engine.Step{write(tbl, method, rows...)}); err != nil {
			t.Fatalf("%v: %v", method, err)
		}
		if got := len(db.Rows(schemaName + ".MIXED")); got != len(rows) {
			t.Errorf("%v: %d rows landed, want %d", method, got, len(rows))
		}
		fmt.Fprintf(&sb, "== %v\n", method)
		for _, e := range p.Executes()[calls:] {
			if !strings.HasPrefix(e.SQL, "INSERT") && !strings.HasPrefix(e.SQL, "MERGE") && !strings.HasPrefix(e.SQL, "UPDATE") {
				continue
			}
			writeExecute(&sb, e)
		}
	}
	path := filepath.Join("testdata", "mixed_batch_wire.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if sb.String() != string(want) {
		t.Errorf("what go-ora sends changed; got:\n%s", goldenDiff(string(want), sb.String()))
	}
}

// writeExecute renders one execute as the peer decoded it.
func writeExecute(sb *strings.Builder, e *wirepeer.Execute) {
	sql := e.SQL
	if len(sql) > 60 {
		sql = sql[:60] + "…"
	}
	fmt.Fprintf(sb, "execute %q iterations=%d arraydml=%d options=%#x\n", sql, e.Iterations, e.ArrayDML, e.Options)
	for j, b := range e.Binds {
		fmt.Fprintf(sb, "  bind %d: type=%d maxlen=%d form=%d charset=%d maxchars=%d flags=%#x\n", j+1, b.Type, b.MaxLen, b.CSForm, b.CharsetID, b.MaxCharLen, b.Flags)
	}
	for i, r := range e.Rows {
		var vals []string
		for _, v := range r {
			switch {
			case v.Null:
				vals = append(vals, "NULL")
			case len(v.Bytes) > 24:
				vals = append(vals, fmt.Sprintf("%d:%x", len(v.Bytes), sha256.Sum256(v.Bytes))[:16])
			default:
				vals = append(vals, fmt.Sprintf("%x", v.Bytes))
			}
		}
		fmt.Fprintf(sb, "  row %d: %s\n", i+1, strings.Join(vals, " "))
	}
}

// goldenDiff shows the first lines where got differs from want.
func goldenDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var out []string
	for i := 0; i < max(len(w), len(g)) && len(out) < 20; i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			out = append(out, fmt.Sprintf("line %d:\n  want %s\n  got  %s", i+1, a, b))
		}
	}
	return strings.Join(out, "\n")
}
