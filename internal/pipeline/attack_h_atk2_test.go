package pipeline_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/pipeline"
)

// TestAttackTimeExtractedNamesTheField (finding, wrong message): a RECORD
// whose message field time_extracted is not a date-time is refused naming
// `property "time_extracted"`, as if the record's own property of that
// name were wrong (cd166f2 fixed the same for "version": `field "version"
// of the message`). With a schema that has a property time_extracted and
// a record whose property is a valid string, the message points at the
// wrong value. Reproduction:
//
//	SCHEMA s {id, time_extracted: string}
//	{"type":"RECORD","stream":"s","record":{"id":1,"time_extracted":"x"},"time_extracted":"garbage"}
//
// target-oracle --dry-run: exit 3, `line 2: stream "s": property
// "time_extracted": invalid date-time "garbage": …`.
func TestAttackTimeExtractedNamesTheField(t *testing.T) {
	t.Skip(`finding: an invalid message field time_extracted is reported as property "time_extracted" (not the message's field)`)
	in := `{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"},"time_extracted":{"type":["null","string"]}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":1,"time_extracted":"x"},"time_extracted":"garbage"}
{"type":"STATE","value":1}
`
	_, err := run(t, newEngine(), loadConfig(t, ""), in)
	if err == nil {
		t.Fatal("an invalid time_extracted was accepted")
	}
	if msg := err.Error(); strings.Contains(msg, `property "time_extracted"`) || !strings.Contains(msg, `field "time_extracted"`) {
		t.Errorf("error %q names the record's property, not the message's field time_extracted", msg)
	}
}

// stateChecker is the StateOut of an attack run: at each STATE line it
// reads the engine's tables and checks that every record read before
// that STATE is in effect (SPEC §7 rule 1). States are the input line of
// the STATE message; records carry their line in q.
type stateChecker struct {
	t   *testing.T
	eng interface {
		Rows(string) []map[string]string
	}
	lines   map[int64]attackRec // input line → record
	tables  map[string]bool     // table → upsert
	written []int64
	bad     int
}

type attackRec struct {
	table string
	id    int
}

func (c *stateChecker) Write(p []byte) (int, error) {
	for _, l := range strings.Split(strings.TrimSuffix(string(p), "\n"), "\n") {
		var st int64
		if _, err := fmt.Sscan(l, &st); err != nil {
			c.t.Errorf("state line %q is not a line number", l)
			continue
		}
		c.written = append(c.written, st)
		c.check(st)
	}
	return len(p), nil
}

// check verifies that the records before line st are in effect.
func (c *stateChecker) check(st int64) {
	have := map[string]map[string]int64{} // table → id or q → q
	for tb, upsert := range c.tables {
		m := map[string]int64{}
		for _, r := range c.eng.Rows("DRY_RUN." + tb) {
			q, _ := strconv.ParseInt(r["Q"], 10, 64)
			if upsert {
				m[r["ID"]] = max(m[r["ID"]], q)
			} else {
				m[r["Q"]] = q
			}
		}
		have[tb] = m
	}
	for line, rec := range c.lines {
		if line >= st {
			continue
		}
		m := have[rec.table]
		ok := false
		if c.tables[rec.table] {
			ok = m[strconv.Itoa(rec.id)] >= line
		} else {
			_, ok = m[strconv.FormatInt(line, 10)]
		}
		if !ok {
			c.bad++
			if c.bad < 5 {
				c.t.Errorf("STATE of line %d written while the record of line %d (table %s, id %d) is not in effect", st, line, rec.table, rec.id)
			}
		}
	}
}

// TestAttackSharedTablesKeepTheStateContract: random inputs where
// several streams load one table (table_name_mappings), with schema
// changes (a widened v, a new property w), small batches,
// max_buffered_bytes flushes (flushLargest), flush_all_streams and up to
// 4 sessions; every STATE line is checked against the tables at the
// moment it is written, and the last against the whole input.
// TARGET_ORACLE_ATTACK_SEEDS sets the number of seeds (default 60).
func TestAttackSharedTablesKeepTheStateContract(t *testing.T) {
	n := 60
	if v := os.Getenv("TARGET_ORACLE_ATTACK_SEEDS"); v != "" {
		fmt.Sscan(v, &n)
	}
	for seed := 1; seed <= n; seed++ {
		attackSharedSeed(t, uint64(seed))
		if t.Failed() {
			t.Fatalf("seed %d fails", seed)
		}
	}
}

func attackSharedSeed(t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	nTables := 1 + r.IntN(4)
	nStreams := nTables + r.IntN(6)
	upsert := map[string]bool{}
	tableOf := map[string]string{}
	mappings := map[string]string{}
	overrides := map[string]any{}
	for i := 0; i < nTables; i++ {
		upsert[fmt.Sprintf("T%d", i)] = r.IntN(2) == 0
	}
	var streams []string
	for i := 0; i < nStreams; i++ {
		s := fmt.Sprintf("s%d", i)
		tb := fmt.Sprintf("T%d", i%nTables)
		if i >= nTables {
			tb = fmt.Sprintf("T%d", r.IntN(nTables))
		}
		streams = append(streams, s)
		tableOf[s] = tb
		mappings[s] = tb
		m := "append-only"
		if upsert[tb] {
			m = "upsert"
		}
		overrides[s] = map[string]any{"load_method": m}
	}
	settings := map[string]any{
		"table_name_mappings":      mappings,
		"stream_overrides":         overrides,
		"batch_size_rows":          1 + r.IntN(8),
		"max_buffered_bytes":       []int{1, 300, 1500, 100000}[r.IntN(4)],
		"max_parallelism":          1 + r.IntN(4),
		"flush_all_streams":        r.IntN(4) == 0,
		"batch_wait_limit_seconds": 86400,
	}
	sb, _ := json.Marshal(settings)
	var in strings.Builder
	line := int64(0)
	emit := func(s string) int64 { line++; in.WriteString(s + "\n"); return line }
	vmax := map[string]int{}
	withW := map[string]bool{}
	schema := func(s string) {
		w := ""
		if withW[s] {
			w = `,"w":{"type":["null","string"]}`
		}
		keys := `[]`
		if upsert[tableOf[s]] {
			keys = `["id"]`
		}
		emit(fmt.Sprintf(`{"type":"SCHEMA","stream":%q,"schema":{"properties":{"id":{"type":"integer"},"q":{"type":"integer"},"v":{"type":["null","string"],"maxLength":%d}%s}},"key_properties":%s}`, s, vmax[s], w, keys))
	}
	ck := &stateChecker{t: t, lines: map[int64]attackRec{}, tables: upsert}
	for _, s := range streams {
		vmax[s] = 5
		schema(s)
	}
	steps := 50 + r.IntN(150)
	for i := 0; i < steps; i++ {
		s := streams[r.IntN(len(streams))]
		switch x := r.IntN(100); {
		case x < 65:
			id := 1 + r.IntN(6)
			v := strings.Repeat("x", r.IntN(min(vmax[s], 300)+1))
			w := ""
			if withW[s] && r.IntN(2) == 0 {
				w = `,"w":"w"`
			}
			l := line + 1
			emit(fmt.Sprintf(`{"type":"RECORD","stream":%q,"record":{"id":%d,"q":%d,"v":%q%s}}`, s, id, l, v, w))
			ck.lines[l] = attackRec{table: tableOf[s], id: id}
		case x < 88:
			emit(fmt.Sprintf(`{"type":"STATE","value":%d}`, line+1))
		case x < 95:
			vmax[s] = min(vmax[s]*3, 5000)
			schema(s)
		default:
			withW[s] = true
			schema(s)
		}
	}
	last := emit(fmt.Sprintf(`{"type":"STATE","value":%d}`, line+1))
	eng := newEngine()
	ck.eng = eng
	o := runOptions(loadConfig(t, string(sb)), eng, in.String(), ck)
	if err := pipeline.Run(context.Background(), o); err != nil {
		t.Errorf("seed %d: settings %s: %v\n%s", seed, sb, err, in.String())
		return
	}
	if len(ck.written) == 0 || ck.written[len(ck.written)-1] != last {
		t.Errorf("seed %d: states %v, want the last %d", seed, ck.written, last)
	}
	if ck.bad > 0 {
		t.Errorf("seed %d: settings %s: %d records not in effect at a STATE\n%s", seed, sb, ck.bad, in.String())
	}
}

// TestAttackBatchRowSyntaxFaultNamesTheProperty (finding, wrong
// message): a syntax fault inside a RECORD line names its property
// (33a67e2, pathAt: `property "v": invalid UTF-8 at byte 53`), but the
// same fault in a row of a BATCH file does not: `BATCH file "…" line 2:
// invalid UTF-8 at byte 14` and `… line 2: invalid JSON: unexpected 't',
// want a value at byte 13` name no property (SPEC §8: line, stream,
// property), and call the row "line 2" where a schema fault in the same
// file says "row 2". Reproduction: b.jsonl = {"id":1,"v":"a"} /
// {"id":2,"v":"<0xff>"} (or "v":tru), input SCHEMA s {id, v} then
// {"type":"BATCH","stream":"s","encoding":{"format":"jsonl","compression":"none"},"manifest":["file:///…/b.jsonl"]}.
func TestAttackBatchRowSyntaxFaultNamesTheProperty(t *testing.T) {
	t.Skip("finding: a syntax fault (invalid UTF-8, bad literal) in a BATCH file row names no property, unlike the same fault in a RECORD line")
	for _, row := range []string{`{"id":2,"v":"` + "\xff" + `"}`, `{"id":2,"v":tru}`} {
		f := t.TempDir() + "/b.jsonl"
		if err := os.WriteFile(f, []byte(`{"id":1,"v":"a"}`+"\n"+row+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		in := `{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}},"key_properties":["id"]}
{"type":"BATCH","stream":"s","encoding":{"format":"jsonl","compression":"none"},"manifest":["file://` + f + `"]}
{"type":"STATE","value":1}
`
		_, err := run(t, newEngine(), loadConfig(t, ""), in)
		if err == nil || !strings.Contains(err.Error(), `property "v"`) {
			t.Errorf("row %q: error %v; want it to name property \"v\"", row, err)
		}
	}
}
