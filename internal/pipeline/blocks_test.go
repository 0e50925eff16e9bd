package pipeline

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
)

// copyingEngine is the embedded engine keeping rows for the test to read,
// made an engine that keeps no value past Load (engine.ValueKeeper): each
// Load hands it copies of the batch's values. So the loader gives loaded
// batches' text blocks to later rows (tablemap.Blocks).
type copyingEngine struct{ *memory.Engine }

func (copyingEngine) KeepsValues() bool { return false }

func (e copyingEngine) Session(ctx context.Context, name string) (engine.Session, error) {
	s, err := e.Engine.Session(ctx, name)
	return copyingSession{s}, err
}

type copyingSession struct{ engine.Session }

func (s copyingSession) Load(ctx context.Context, steps []engine.Step) (engine.Result, error) {
	copied := make([]engine.Step, len(steps))
	for i, st := range steps {
		copied[i] = st
		if w, ok := st.(*engine.Write); ok {
			cw := *w
			cw.Rows = make([]engine.Row, len(w.Rows))
			for j, r := range w.Rows {
				cw.Rows[j] = r
				cw.Rows[j].Values = make([]string, len(r.Values))
				for k, v := range r.Values {
					cw.Rows[j].Values[k] = strings.Clone(v)
				}
			}
			copied[i] = &cw
		}
	}
	return s.Session.Load(ctx, copied)
}

// A loaded batch's text blocks go to the rows read after it, of its
// stream (a spare buffer, few streams) or of any (the pool, many
// streams), while the next batch loads: every row must still be loaded
// as read. A block given back while a batch cut from it still waited or
// loaded (the block a flush left half full holds the next batch's first
// rows: Layout.Seal) shows here as wrong values; under -race every block
// given back is overwritten first (Blocks.Poison).
func TestRecycledTextBlocksLoadEveryRowAsRead(t *testing.T) {
	for _, c := range []struct {
		name             string
		streams, records int
		settings         string
	}{
		{"one stream", 1, 5000, `{"batch_size_rows": 700, "max_parallelism": 2}`},
		{"few streams", 3, 3000, `{"batch_size_rows": 450, "max_parallelism": 2}`},
		{"many streams", maxStreamsWithSpare + 6, 400, `{"batch_size_rows": 150, "max_parallelism": 2}`},
		{"flush all streams", 4, 1500, `{"batch_size_rows": 300, "flush_all_streams": true}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := recycledInput(c.streams, c.records, 1000, func(int, int) string { return strings.Repeat("y", 20<<10) })
			eng := memory.New(memory.Options{KeepRows: true})
			p := runPipelineOn(t, testConfig(t, c.settings), copyingEngine{eng}, in, 32767)
			for s := range c.streams {
				for _, row := range streamRows(t, eng, s, c.records) {
					var id int
					fmt.Sscan(row["ID"], &id)
					if want := recycledVal(s, id); row["V"] != want {
						t.Fatalf("stream s%d, id %d: V = %.60q, want %.60q", s, id, row["V"], want)
					}
					if wantW := id%1000 == 999; (len(row["W"]) == 20<<10) != wantW {
						t.Fatalf("stream s%d, id %d: W of %d bytes", s, id, len(row["W"]))
					}
				}
			}
			if p.blocks == nil || p.blocks.Reused == 0 {
				t.Error("no text block was given to later rows")
			}
		})
	}
}

// An engine that may keep values (the embedded engine keeping rows, as
// for a dump) never gets its batches' blocks reused.
func TestNoRecycledTextBlocksWhenTheEngineKeepsValues(t *testing.T) {
	var in strings.Builder
	in.WriteString(`{"type":"SCHEMA","stream":"s0","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"},"v":{"type":"string"}}}}` + "\n")
	for r := range 3000 {
		fmt.Fprintf(&in, `{"type":"RECORD","stream":"s0","record":{"id":%d,"v":"%s"}}`+"\n", r, strings.Repeat("v", r%200))
	}
	p, eng := dryPipeline(t, testConfig(t, `{"batch_size_rows": 300}`), strings.NewReader(in.String()))
	if err := p.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if p.blocks != nil {
		t.Fatal("blocks are recycled for an engine that keeps the values it loads")
	}
	for _, row := range streamRows(t, eng, 0, 3000) {
		var id int
		fmt.Sscan(row["ID"], &id)
		if row["V"] != strings.Repeat("v", id%200) {
			t.Fatalf("id %d: V = %.40q", id, row["V"])
		}
	}
}

// slowSession is a copyingSession whose loads take a while, so that the
// next batch of the stream fills part of its chunks meanwhile.
type slowEngine struct{ copyingEngine }

func (e slowEngine) Session(ctx context.Context, name string) (engine.Session, error) {
	s, err := e.copyingEngine.Session(ctx, name)
	return slowSession{s}, err
}

type slowSession struct{ engine.Session }

func (s slowSession) Load(ctx context.Context, steps []engine.Step) (engine.Result, error) {
	time.Sleep(3 * time.Millisecond)
	return s.Session.Load(ctx, steps)
}

// With few streams, a batch that comes back from loading gives the chunks
// its stream's filling batch has not reached to that batch (takeAhead):
// two batches in turn fill one batch's slots. Each such chunk must come
// clean: a NULL value is a slot left as handed out, so a stale slot shows
// as an old row's value where the record has none.
func TestChunksTakenAheadLoadEveryRowAsRead(t *testing.T) {
	const records = 6000
	for _, c := range []struct {
		name, settings string
		keeps          bool
	}{
		{"blocks recycled", `{"batch_size_rows": 700, "max_parallelism": 2}`, false},
		{"engine keeps values", `{"batch_size_rows": 700, "max_parallelism": 2}`, true},
		{"one worker", `{"batch_size_rows": 500, "max_parallelism": 1}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var in strings.Builder
			in.WriteString(`{"type":"SCHEMA","stream":"s0","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"},"v":{"type":"string"},"n":{"type":["null","string"]},"m":{"type":["null","integer"]}}}}` + "\n")
			val := func(r int) string { return fmt.Sprintf("r%d-%s", r, strings.Repeat("x", (r*37)%300)) }
			for r := range records {
				n, m := "null", "null"
				if r%3 == 0 {
					n = fmt.Sprintf("%q", "n"+val(r))
				}
				if r%5 == 1 {
					m = fmt.Sprint(r)
				}
				fmt.Fprintf(&in, `{"type":"RECORD","stream":"s0","record":{"id":%d,"v":%q,"n":%s,"m":%s}}`+"\n", r, val(r), n, m)
			}
			eng := memory.New(memory.Options{KeepRows: true})
			var e engine.Engine = slowEngine{copyingEngine{eng}}
			if c.keeps {
				e = slowKeepingEngine{eng}
			}
			p := runPipelineOn(t, testConfig(t, c.settings), e, in.String(), 32767)
			for _, row := range streamRows(t, eng, 0, records) {
				var id int
				fmt.Sscan(row["ID"], &id)
				wantN, wantM := "", ""
				if id%3 == 0 {
					wantN = "n" + val(id)
				}
				if id%5 == 1 {
					wantM = fmt.Sprint(id)
				}
				if row["V"] != val(id) || row["N"] != wantN || row["M"] != wantM {
					t.Fatalf("id %d: V %.30q N %.30q M %q, want %.30q %.30q %q", id, row["V"], row["N"], row["M"], val(id), wantN, wantM)
				}
			}
			if p.bufs.ahead == 0 {
				t.Error("no chunk of a loaded batch went to the filling one")
			}
		})
	}
}

// slowKeepingEngine is the embedded engine (which keeps the strings it
// loads) with slow loads.
type slowKeepingEngine struct{ *memory.Engine }

func (e slowKeepingEngine) Session(ctx context.Context, name string) (engine.Session, error) {
	s, err := e.Engine.Session(ctx, name)
	return slowSession{s}, err
}

// recycledInput is the input of the recycled-block tests: a SCHEMA per
// stream (id, v, w), then records round-robin over the streams, v of
// many sizes (recycledVal) so that rows end at every place of a block,
// and every longEvery-th record's w long(s, r), past a block's size.
func recycledInput(streams, records, longEvery int, long func(s, r int) string) string {
	var in strings.Builder
	for s := range streams {
		fmt.Fprintf(&in, `{"type":"SCHEMA","stream":"s%d","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"},"v":{"type":"string"},"w":{"type":["null","string"]}}}}`+"\n", s)
	}
	for r := range records {
		for s := range streams {
			w := ""
			if r%longEvery == longEvery-1 {
				w = long(s, r)
			}
			fmt.Fprintf(&in, `{"type":"RECORD","stream":"s%d","record":{"id":%d,"v":%q,"w":%q}}`+"\n", s, r, recycledVal(s, r), w)
		}
	}
	return in.String()
}

// recycledVal is record r of stream s's v in recycledInput.
func recycledVal(s, r int) string {
	return fmt.Sprintf("s%d-r%d-%s", s, r, strings.Repeat("x", (r*37+s)%300))
}

// runPipelineOn runs in through a pipeline on e (default schema DRY_RUN,
// VARCHAR2 up to varcharMax bytes) and returns it, for its pools' counts.
func runPipelineOn(t *testing.T, cfg *config.Config, e engine.Engine, in string, varcharMax int) *pipeline {
	t.Helper()
	p, err := newPipeline(Options{
		Config: cfg, Engine: e, Input: strings.NewReader(in), StateOut: &strings.Builder{},
		Server: Server{DefaultSchema: "DRY_RUN", IdentifierMaxBytes: 128, VarcharMaxBytes: varcharMax},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return p
}
