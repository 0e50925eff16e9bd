package cli

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/testkit"
	"github.com/target-oracle/target-oracle/internal/wirepeer"
	"github.com/target-oracle/target-oracle/internal/wirepeer/fakewire"
)

// TestPlanShowsMissingCustomIndexes: --plan on tables a first run made
// without custom_indexes reads ALL_INDEXES once for the table that has
// custom indexes (none for the other), shows the CREATE INDEX and CREATE
// UNIQUE INDEX it lacks, in the log and in statements.sql, and creates
// nothing; the real run that follows executes exactly those statements,
// and a plan after it shows none.
func TestPlanShowsMissingCustomIndexes(t *testing.T) {
	db := fake.New(fake.Options{Schema: "SCOTT"})
	p := testkit.Peer(t, wirepeer.Facts{Backend: fakewire.Backend(db)})
	host, port, _ := net.SplitHostPort(p.Addr())
	conn := `"host":"` + host + `","port":` + port + `,"service_name":"FREEPDB1","user":"scott","password":"tiger","connect_timeout_seconds":10`
	plain := writeFile(t, "plain.json", `{`+conn+`}`)
	indexed := writeFile(t, "indexed.json", `{`+conn+`,"custom_indexes":{"orders":[{"columns":["v"]},{"columns":["w"],"unique":true}]}}`)
	in := `{"type":"SCHEMA","stream":"orders","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"},"v":{"type":["null","string"],"maxLength":10},"w":{"type":["null","string"],"maxLength":10}}}}
{"type":"RECORD","stream":"orders","record":{"id":1,"v":"a","w":"b"}}
{"type":"SCHEMA","stream":"items","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"}}}}
{"type":"RECORD","stream":"items","record":{"id":1}}
`
	if _, errs, code := runMain(t, in, nil, "--config", plain); code != ExitOK {
		t.Fatalf("first run: exit %d: %s", code, errs)
	}
	before := len(db.Statements())
	dump := filepath.Join(t.TempDir(), "dump")
	_, errs, code := runMain(t, in, nil, "--config", indexed, "--plan", "--dry-run-dump", dump)
	if code != ExitOK {
		t.Fatalf("--plan: exit %d: %s", code, errs)
	}
	ran := db.Statements()[before:]
	reads := 0
	for _, st := range ran {
		if strings.Contains(st, "FROM ALL_INDEXES") {
			reads++
		}
		if strings.HasPrefix(st, "CREATE") {
			t.Errorf("--plan ran %s", st)
		}
	}
	if reads != 1 {
		t.Errorf("--plan read ALL_INDEXES %d times, want once (the table with custom indexes)", reads)
	}
	file, err := os.ReadFile(filepath.Join(dump, "statements.sql"))
	if err != nil {
		t.Fatal(err)
	}
	planned := indexDDL(strings.Split(string(file), "\n"))
	if len(planned) != 2 || !strings.HasPrefix(planned[0], `CREATE INDEX "SCOTT".`) || !strings.Contains(planned[0], `ON "SCOTT"."ORDERS" ("V")`) ||
		!strings.HasPrefix(planned[1], `CREATE UNIQUE INDEX "SCOTT".`) || !strings.Contains(planned[1], `ON "SCOTT"."ORDERS" ("W")`) {
		t.Fatalf("--plan's statements.sql index DDL %q, want CREATE INDEX on V and CREATE UNIQUE INDEX on W:\n%s", planned, file)
	}
	for _, st := range planned {
		if !strings.Contains(errs, strings.ReplaceAll(st, `"`, `\"`)) {
			t.Errorf("the plan log lacks %s:\n%s", st, errs)
		}
	}
	// The real run executes what the plan showed.
	before = len(db.Statements())
	if _, errs, code := runMain(t, in, nil, "--config", indexed); code != ExitOK {
		t.Fatalf("run with custom_indexes: exit %d: %s", code, errs)
	}
	if got := indexDDL(db.Statements()[before:]); !slices.Equal(got, planned) {
		t.Errorf("the run executed %q, the plan showed %q", got, planned)
	}
	// Now that the table has them, the plan shows none.
	again := filepath.Join(t.TempDir(), "again")
	if _, errs, code := runMain(t, in, nil, "--config", indexed, "--plan", "--dry-run-dump", again); code != ExitOK {
		t.Fatalf("second --plan: exit %d: %s", code, errs)
	}
	if file, err := os.ReadFile(filepath.Join(again, "statements.sql")); err != nil || len(indexDDL(strings.Split(string(file), "\n"))) > 0 {
		t.Errorf("second --plan (%v) shows index DDL for indexes the table has:\n%s", err, file)
	}
}

// indexDDL are the CREATE [UNIQUE] INDEX statements among lines.
func indexDDL(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, "CREATE INDEX ") || strings.HasPrefix(l, "CREATE UNIQUE INDEX ") {
			out = append(out, l)
		}
	}
	return out
}
