package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
)

// Reusing a loaded batch's memory (text blocks: tablemap.Blocks; row slots:
// the pool, spares, takeAhead) must change no value that is loaded. A
// seeded simulation: random streams, schema changes, keys that repeat
// (folding), deletes, values of every size (past a block's, too), NULLs
// and STATE lines, under random batch sizes, parallelism, buffer limits
// and flush_all_streams, loaded once by an engine that keeps no value (so
// that memory is reused) and whose loads take random times (so that the
// next batch fills part of its chunks meanwhile), and once by the embedded
// engine keeping every row (no reuse). Both must leave the same tables and
// end with the same STATE line.
func TestReuseChangesNoLoadedValue(t *testing.T) {
	seeds := 30
	if testing.Short() {
		seeds = 8
	}
	for seed := range uint64(seeds) {
		rnd := rand.New(rand.NewPCG(seed, 0x5eed))
		in, settings := reuseSimInput(rnd)
		want, wantState := reuseSimLoad(t, settings, in, nil)
		got, gotState := reuseSimLoad(t, settings, in, rand.New(rand.NewPCG(seed, 1)))
		// Which STATE lines are written depends on when batches commit
		// (one that is passed before it is safe is not written); the last
		// is the same.
		if len(gotState) == 0 || gotState[len(gotState)-1] != wantState[len(wantState)-1] {
			t.Fatalf("seed %d (%s): STATE lines\n%q\nwant them to end as\n%q", seed, settings, gotState, wantState)
		}
		if !maps.EqualFunc(got, want, func(a, b []map[string]string) bool { return reflect.DeepEqual(a, b) }) {
			for name, rows := range want {
				for i := range max(len(rows), len(got[name])) {
					if i >= len(rows) || i >= len(got[name]) || !reflect.DeepEqual(rows[i], got[name][i]) {
						t.Fatalf("seed %d (%s): table %s differs at row %d (%d rows, want %d):\n%v\nwant\n%v",
							seed, settings, name, i, len(got[name]), len(rows), at(got[name], i), at(rows, i))
					}
				}
			}
			t.Fatalf("seed %d (%s): tables %v, want %v", seed, settings, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		}
	}
}

func at(rows []map[string]string, i int) map[string]string {
	if i < len(rows) {
		return rows[i]
	}
	return nil
}

// reuseSimInput returns a random input and settings for it.
func reuseSimInput(rnd *rand.Rand) (string, string) {
	streams := []int{1, 1, 2, 3, maxStreamsWithSpare + 3}[rnd.IntN(5)]
	records := 200 + rnd.IntN(3000)
	if streams > maxStreamsWithSpare {
		records = 40 + rnd.IntN(200)
	}
	keyRange := records * (1 + rnd.IntN(3))
	settings := fmt.Sprintf(`{"batch_size_rows": %d, "max_parallelism": %d, "flush_all_streams": %v, "max_buffered_bytes": %d, "hard_delete": %v}`,
		1+rnd.IntN(600), 1+rnd.IntN(3), rnd.IntN(4) == 0, []int{1 << 16, 1 << 20, 8 << 20, 128 << 20}[rnd.IntN(4)], rnd.IntN(2) == 0)

	var b strings.Builder
	extra := make([]bool, streams) // the stream's schema has column x
	schema := func(s int) {
		props := `"id":{"type":"integer"},"v":{"type":"string"},"n":{"type":["null","string"]},"m":{"type":["null","number"]},"d":{"type":["null","string"],"format":"date-time"}`
		if extra[s] {
			props += `,"x":{"type":["null","string"]}`
		}
		fmt.Fprintf(&b, `{"type":"SCHEMA","stream":"s%d","key_properties":["id"],"schema":{"properties":{%s}}}`+"\n", s, props)
	}
	for s := range streams {
		schema(s)
	}
	text := func(r int) string {
		switch rnd.IntN(40) {
		case 0:
			return strings.Repeat("L", 16<<10+rnd.IntN(3000)) // past a text block
		case 1:
			return ""
		}
		return fmt.Sprintf("r%d-%s", r, strings.Repeat("abcdefghij"[r%10:r%10+1], rnd.IntN(400)))
	}
	for r := range records {
		for s := range streams {
			if rnd.IntN(500) == 0 {
				extra[s] = !extra[s] // a new layout while batches of the old one load
				schema(s)
			}
			rec := map[string]any{"id": rnd.IntN(keyRange), "v": text(r)}
			if rnd.IntN(3) > 0 {
				rec["n"] = text(r + 1)
			}
			if rnd.IntN(2) == 0 {
				rec["m"] = json.Number(fmt.Sprintf("%d.%d", rnd.IntN(1e6), rnd.IntN(1000)))
			}
			if rnd.IntN(2) == 0 {
				rec["d"] = fmt.Sprintf("2025-%02d-%02dT%02d:%02d:%02d.%03d+02:00", 1+rnd.IntN(12), 1+rnd.IntN(28), rnd.IntN(24), rnd.IntN(60), rnd.IntN(60), rnd.IntN(1000))
			}
			if extra[s] && rnd.IntN(2) == 0 {
				rec["x"] = text(r + 2)
			}
			if rnd.IntN(20) == 0 {
				rec["_sdc_deleted_at"] = "2025-06-01T00:00:00Z"
			}
			line, _ := json.Marshal(map[string]any{"type": "RECORD", "stream": fmt.Sprintf("s%d", s), "record": rec})
			b.Write(line)
			b.WriteByte('\n')
		}
		if rnd.IntN(150) == 0 {
			fmt.Fprintf(&b, `{"type":"STATE","value":{"at":%d}}`+"\n", r)
		}
	}
	fmt.Fprintf(&b, `{"type":"STATE","value":{"at":"end"}}`+"\n")
	return b.String(), settings
}

// reuseSimLoad loads in: with slow, through an engine that copies values at
// Load (so memory is reused) and sleeps random times; without, through the
// embedded engine keeping rows (no reuse). It returns every table's rows
// and the STATE lines.
func reuseSimLoad(t *testing.T, settings, in string, slow *rand.Rand) (map[string][]map[string]string, []string) {
	t.Helper()
	now := func() time.Time { return time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC) }
	eng := memory.New(memory.Options{KeepRows: true, Now: now})
	var e engine.Engine = eng
	if slow != nil {
		e = jitterEngine{copyingEngine{eng}, &sync.Mutex{}, slow}
	}
	var state strings.Builder
	p, err := newPipeline(Options{
		Config: testConfig(t, settings), Engine: e, Input: strings.NewReader(in), StateOut: &state, Now: now,
		Server: Server{DefaultSchema: "DRY_RUN", IdentifierMaxBytes: 128, VarcharMaxBytes: 32767},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.run(context.Background()); err != nil {
		t.Fatalf("%s: %v", settings, err)
	}
	if slow != nil && (p.blocks == nil || p.bufs.reused+p.blocks.Reused+p.bufs.ahead == 0) && strings.Count(in, "\n") > 2000 {
		t.Fatalf("%s: no memory was reused", settings)
	}
	tables := map[string][]map[string]string{}
	for name := range eng.Tables() {
		tables[name] = eng.Rows(name)
	}
	return tables, stateLines(state.String())
}

func stateLines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

// jitterEngine is a copyingEngine whose loads take random times. Each
// session gets its own delay source, seeded under mu, so that workers
// never share one.
type jitterEngine struct {
	copyingEngine
	mu  *sync.Mutex
	rnd *rand.Rand
}

func (e jitterEngine) Session(ctx context.Context, name string) (engine.Session, error) {
	s, err := e.copyingEngine.Session(ctx, name)
	e.mu.Lock()
	seed := e.rnd.Uint64()
	e.mu.Unlock()
	return &jitterSession{Session: s, rnd: rand.New(rand.NewPCG(seed, 0))}, err
}

type jitterSession struct {
	engine.Session
	rnd *rand.Rand
}

func (s *jitterSession) Load(ctx context.Context, steps []engine.Step) (engine.Result, error) {
	time.Sleep(time.Duration(s.rnd.IntN(1500)) * time.Microsecond)
	return s.Session.Load(ctx, steps)
}
