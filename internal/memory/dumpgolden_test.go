package memory_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/cli"
	"github.com/target-oracle/target-oracle/internal/memory"
)

// TestDumpGolden runs generated inputs through the whole target
// (--dry-run --dry-run-dump) and compares every file of the dump with the
// one recorded under testdata/dumps before the dump's rows moved to a
// compact form (issue 18): the dump must stay byte for byte what it was.
// The inputs mix keyed streams whose keys arrive out of order and are
// updated, hard and soft deletes (_sdc_deleted_at), a key-less stream, a
// history stream, ACTIVATE_VERSION, a property added mid-stream and
// several tables in small batches; one run fails at the database in a
// later batch, so its dump holds what was committed until then and the
// failed batch is rolled back.
func TestDumpGolden(t *testing.T) {
	cases := []struct {
		name   string
		config string
		input  func() string
		fails  bool
	}{
		{"mixed", `{"max_parallelism": 1, "batch_size_rows": 37, "stream_overrides": {"orders": {"hard_delete": true}, "customers": {"load_method": "history"}}}`, mixedInput, false},
		{"sorted", `{"max_parallelism": 1, "batch_size_rows": 50}`, sortedInput, false},
		{"failed", `{"max_parallelism": 1, "batch_size_rows": 20, "schema_evolution": "fail"}`, failedInput, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			dump := filepath.Join(tmp, "dump")
			cfg := filepath.Join(tmp, "config.json")
			if err := os.WriteFile(cfg, []byte(c.config), 0o600); err != nil {
				t.Fatal(err)
			}
			var out, errs strings.Builder
			code := cli.Main([]string{"--dry-run", "--config", cfg, "--dry-run-dump", dump},
				cli.IO{Stdin: strings.NewReader(c.input()), State: &out, Stderr: &errs, Env: []string{cli.ClockEnv + "=2025-06-01T12:00:00Z"}, Dir: tmp})
			if (code != 0) != c.fails {
				t.Fatalf("exit %d, want failure %v\n%s", code, c.fails, errs.String())
			}
			golden := filepath.Join("testdata", "dumps", c.name)
			if *memory.UpdateDumps {
				if err := os.RemoveAll(golden); err != nil {
					t.Fatal(err)
				}
				if err := os.CopyFS(golden, os.DirFS(dump)); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := readTree(t, golden)
			got := readTree(t, dump)
			for name, w := range want {
				g, ok := got[name]
				if !ok {
					t.Errorf("%s: missing from the dump", name)
					continue
				}
				if !bytes.Equal(g, w) {
					t.Errorf("%s differs from %s:\n%s", name, filepath.Join(golden, name), firstDiff(g, w))
				}
			}
			for name := range got {
				if _, ok := want[name]; !ok {
					t.Errorf("%s: not in the recorded dump", name)
				}
			}
			if len(want) < 3 {
				t.Fatalf("recorded dump %s holds %d files", golden, len(want))
			}
		})
	}
}

func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// firstDiff shows the first line where got and want part.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d\n got  %s\n want %s", i+1, a, b)
		}
	}
	return "(same lines)"
}

// msg renders one Singer message.
func msg(b *strings.Builder, m map[string]any) {
	j, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	b.Write(j)
	b.WriteByte('\n')
}

func schema(b *strings.Builder, stream string, keys []string, props map[string]any) {
	msg(b, map[string]any{"type": "SCHEMA", "stream": stream, "key_properties": keys, "schema": map[string]any{"type": "object", "properties": props}})
}

var (
	intProp  = map[string]any{"type": "integer"}
	numProp  = map[string]any{"type": []string{"number", "null"}}
	strProp  = map[string]any{"type": []string{"string", "null"}}
	timeProp = map[string]any{"type": []string{"string", "null"}, "format": "date-time"}
)

// names holds values the dump must escape or keep as they are.
var names = []string{"plain", `quote "q"`, `back\slash`, "tab\tthere", "naïve", "<b>&", "", "\u2028", "long " + strings.Repeat("x", 120)}

func mixedInput() string {
	rng := rand.New(rand.NewPCG(18, 11))
	var b strings.Builder
	schema(&b, "orders", []string{"id"}, map[string]any{"id": intProp, "amount": numProp, "name": strProp, "at": timeProp, "_sdc_deleted_at": timeProp})
	schema(&b, "events", nil, map[string]any{"kind": strProp, "n": intProp})
	schema(&b, "customers", []string{"id"}, map[string]any{"id": intProp, "name": strProp})
	schema(&b, "accounts", []string{"code", "region"}, map[string]any{"code": map[string]any{"type": "string"}, "region": intProp, "balance": numProp, "_sdc_deleted_at": timeProp})
	schema(&b, "items", []string{"sku"}, map[string]any{"sku": intProp, "label": strProp})
	version := 1
	msg(&b, map[string]any{"type": "ACTIVATE_VERSION", "stream": "items", "version": version})
	for i := range 3000 {
		if i == 1500 { // a property added mid-stream
			schema(&b, "orders", []string{"id"}, map[string]any{"id": intProp, "amount": numProp, "name": strProp, "at": timeProp, "_sdc_deleted_at": timeProp, "note": strProp})
		}
		switch i % 5 {
		case 0:
			rec := map[string]any{"id": rng.IntN(400), "amount": fmt.Sprintf("%d.%02d", rng.IntN(100000)-500, rng.IntN(100)), "name": names[rng.IntN(len(names))],
				"at": fmt.Sprintf("2024-%02d-%02dT%02d:%02d:%02d.%03d+02:00", 1+rng.IntN(12), 1+rng.IntN(28), rng.IntN(24), rng.IntN(60), rng.IntN(60), rng.IntN(1000))}
			if rng.IntN(9) == 0 {
				rec["_sdc_deleted_at"] = "2025-01-01T00:00:00Z"
			}
			if i >= 1500 && rng.IntN(2) == 0 {
				rec["note"] = names[rng.IntN(len(names))]
			}
			var amount json.Number = json.Number(rec["amount"].(string))
			rec["amount"] = amount
			msg(&b, map[string]any{"type": "RECORD", "stream": "orders", "record": rec})
		case 1:
			msg(&b, map[string]any{"type": "RECORD", "stream": "events", "record": map[string]any{"kind": names[rng.IntN(len(names))], "n": rng.IntN(7)}})
		case 2:
			msg(&b, map[string]any{"type": "RECORD", "stream": "customers", "record": map[string]any{"id": rng.IntN(60), "name": fmt.Sprintf("c%d", rng.IntN(4))},
				"time_extracted": fmt.Sprintf("2024-03-01T00:%02d:%02dZ", i/60%60, i%60)})
		case 3:
			rec := map[string]any{"code": fmt.Sprintf("A%03d", rng.IntN(150)), "region": rng.IntN(3), "balance": json.Number(fmt.Sprint(rng.IntN(1000)))}
			if rng.IntN(7) == 0 {
				rec["_sdc_deleted_at"] = "2025-02-01T00:00:00Z"
			}
			msg(&b, map[string]any{"type": "RECORD", "stream": "accounts", "record": rec})
		case 4:
			msg(&b, map[string]any{"type": "RECORD", "stream": "items", "version": version, "record": map[string]any{"sku": rng.IntN(200), "label": names[rng.IntN(len(names))]}})
			if i%1000 == 999 { // a full-table sync ends, the next begins
				msg(&b, map[string]any{"type": "ACTIVATE_VERSION", "stream": "items", "version": version})
				version++
			}
		}
		if i%250 == 249 {
			msg(&b, map[string]any{"type": "STATE", "value": map[string]any{"n": i}})
		}
	}
	msg(&b, map[string]any{"type": "ACTIVATE_VERSION", "stream": "items", "version": version})
	msg(&b, map[string]any{"type": "STATE", "value": map[string]any{"n": "end"}})
	return b.String()
}

// sortedInput sends keys in increasing order (the dump's order without a
// sort), with updates of earlier keys and deletes, and a second table
// whose keys decrease.
func sortedInput() string {
	rng := rand.New(rand.NewPCG(18, 12))
	var b strings.Builder
	schema(&b, "up", []string{"id"}, map[string]any{"id": intProp, "v": strProp, "_sdc_deleted_at": timeProp})
	schema(&b, "down", []string{"id"}, map[string]any{"id": intProp, "v": strProp})
	for i := range 2000 {
		id := i
		if i > 100 && rng.IntN(6) == 0 {
			id = rng.IntN(i) // an update of an earlier key
		}
		rec := map[string]any{"id": id, "v": fmt.Sprint("v", rng.IntN(1000))}
		if rng.IntN(15) == 0 {
			rec["_sdc_deleted_at"] = "2025-01-01T00:00:00Z"
		}
		msg(&b, map[string]any{"type": "RECORD", "stream": "up", "record": rec})
		msg(&b, map[string]any{"type": "RECORD", "stream": "down", "record": map[string]any{"id": 5000 - i, "v": names[i%len(names)]}})
	}
	msg(&b, map[string]any{"type": "STATE", "value": map[string]any{"n": "end"}})
	return b.String()
}

// failedInput fails at the database (a value longer than its column,
// which schema_evolution fail does not widen) in its eighth batch: the
// dump holds the batches before, and stream u's buffered records, which
// the drain after the refusal commits (SPEC §8, as after any refusal).
func failedInput() string {
	var b strings.Builder
	schema(&b, "t", []string{"id"}, map[string]any{"id": intProp, "v": strProp})
	schema(&b, "u", nil, map[string]any{"n": intProp})
	for i := range 300 {
		v := fmt.Sprint("v", i%7)
		if i == 150 {
			v = strings.Repeat("y", 4001)
		}
		msg(&b, map[string]any{"type": "RECORD", "stream": "t", "record": map[string]any{"id": (i * 37) % 211, "v": v}})
		msg(&b, map[string]any{"type": "RECORD", "stream": "u", "record": map[string]any{"n": i}})
		if i%20 == 19 {
			msg(&b, map[string]any{"type": "STATE", "value": map[string]any{"n": i}})
		}
	}
	return b.String()
}
