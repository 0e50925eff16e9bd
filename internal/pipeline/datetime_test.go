package pipeline_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/conformance"
)

// The Meltano tutorial's tap (tap-carbon-intensity) writes date-times
// without seconds ("2018-05-15T11:30Z"): its output loads, every instant
// exact.
func TestTutorialTapLoads(t *testing.T) {
	path := filepath.Join(conformance.MoreDir(t), "target-bigquery-z3z1ma", "tap-carbon-intensity.jsonl")
	for _, settings := range []string{"", `{"validate_records": false}`} {
		t.Run("settings "+settings, func(t *testing.T) {
			eng := newEngine()
			if _, err := run(t, eng, loadConfig(t, settings), readFile(t, path)); err != nil {
				t.Fatal(err)
			}
			for tbl, n := range map[string]int{"REGION": 17, "ENTRY": 833, "GENERATIONMIX": 7497} {
				if got := len(eng.Rows("DRY_RUN." + tbl)); got != n {
					t.Errorf("DRY_RUN.%s has %d rows, want %d", tbl, got, n)
				}
			}
			wantColumnType(t, eng, "ENTRY", "FROM", "TIMESTAMP(6) WITH TIME ZONE")
			want := tutorialInstants(t, path)
			rows := eng.Rows("DRY_RUN.ENTRY")
			for _, r := range rows {
				w, ok := want[r["ID"]]
				if !ok || r["FROM"] != w[0] || r["TO"] != w[1] {
					t.Fatalf("entry %s: from %q to %q, want %q", r["ID"], r["FROM"], r["TO"], w)
				}
			}
			if len(want) != len(rows) {
				t.Fatalf("%d entries in the stream, %d rows", len(want), len(rows))
			}
		})
	}
}

// tutorialInstants reads the entry stream's from/to instants with the time
// package, as canonical UTC text.
func tutorialInstants(t *testing.T, path string) map[string][2]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string][2]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m struct {
			Type, Stream string
			Record       struct{ ID, From, To string }
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.Type != "RECORD" || m.Stream != "entry" {
			continue
		}
		var out [2]string
		for i, s := range []string{m.Record.From, m.Record.To} {
			ts, err := time.Parse("2006-01-02T15:04Z07:00", s)
			if err != nil {
				t.Fatalf("entry %s: %v", m.Record.ID, err)
			}
			out[i] = ts.UTC().Format("2006-01-02T15:04:05Z")
		}
		want[m.Record.ID] = out
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return want
}

// Date-times without seconds are the instants with seconds 00 everywhere
// a date-time is read: a key ("11:30Z" and "11:30:00Z" are one row),
// time_extracted and _sdc_deleted_at.
func TestDateTimeWithoutSeconds(t *testing.T) {
	schema := `{"type":"SCHEMA","stream":"s","key_properties":["at"],"schema":{"type":"object","properties":{` +
		`"at":{"type":"string","format":"date-time"},"v":{"type":["null","string"]},` +
		`"_sdc_deleted_at":{"type":["null","string"],"format":"date-time"}}}}`
	in := input(schema,
		`{"type":"RECORD","stream":"s","record":{"at":"2018-05-15T11:30Z","v":"a"}}`,
		`{"type":"RECORD","stream":"s","record":{"at":"2018-05-15T11:30:00Z","v":"b"}}`,
		`{"type":"RECORD","stream":"s","record":{"at":"2018-05-15 12:30+01:00","v":"c"}}`,
		`{"type":"RECORD","stream":"s","record":{"at":"2018-05-15T11:31","v":"d","_sdc_deleted_at":"2018-05-16t08:15z"},"time_extracted":"2018-05-16T09:45+02:00"}`,
	)
	for _, settings := range []string{`{"hard_delete": false}`, `{"hard_delete": false, "validate_records": false}`,
		`{"hard_delete": false, "stream_maps": {"s": {"v": "v.upper()"}}}`} {
		t.Run(settings, func(t *testing.T) {
			eng := newEngine()
			if _, err := run(t, eng, loadConfig(t, settings), in); err != nil {
				t.Fatal(err)
			}
			rows := eng.Rows("DRY_RUN.S")
			if len(rows) != 2 {
				t.Fatalf("%d rows, want 2: %v", len(rows), rows)
			}
			byAt := map[string]map[string]string{}
			for _, r := range rows {
				byAt[r["AT"]] = r
			}
			r := byAt["2018-05-15T11:30:00Z"]
			if r == nil || r["V"] != "c" && r["V"] != "C" {
				t.Errorf("row of 11:30: %v", r)
			}
			r = byAt["2018-05-15T11:31:00Z"]
			if r == nil || r["_SDC_DELETED_AT"] != "2018-05-16T08:15:00Z" || r["_SDC_EXTRACTED_AT"] != "2018-05-16T07:45:00Z" {
				t.Errorf("row of 11:31: %v", r)
			}
		})
	}
}
