package pipeline

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/memory"
)

// TestBackpressureNeverWaitsForTick runs many interleaved streams with a
// max_buffered_bytes far below their buffers, on a ticker that never fires
// by itself. A full max_buffered_bytes must never idle the loader (SPEC
// §10): reading resumes the moment a flush frees room, so the loop must
// never come to wait with input held back and no job running — the state
// in which only the 1 s ticker could wake it. Each time it does, the hook
// counts it and sends the tick, so the run finishes either way and the
// assertions below say what happened.
func TestBackpressureNeverWaitsForTick(t *testing.T) {
	cases := []struct {
		name        string
		streams     int
		records     int
		maxBuffered int
		parallelism int
	}{
		{"one worker, 1 KiB", 20, 30, 1024, 1},
		{"one worker, 1 byte", 5, 10, 1, 1},
		{"four workers, 4 KiB", 40, 25, 4096, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t, fmt.Sprintf(`{"max_buffered_bytes": %d, "max_parallelism": %d}`, tc.maxBuffered, tc.parallelism))
			var in strings.Builder
			for s := 0; s < tc.streams; s++ {
				fmt.Fprintf(&in, `{"type":"SCHEMA","stream":"s%d","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"},"v":{"type":"string"}}}}`+"\n", s)
			}
			for r := 0; r < tc.records; r++ {
				for s := 0; s < tc.streams; s++ {
					fmt.Fprintf(&in, `{"type":"RECORD","stream":"s%d","record":{"id":%d,"v":"%s"}}`+"\n", s, r, strings.Repeat("x", 40))
				}
			}
			in.WriteString(`{"type":"STATE","value":{"done":true}}` + "\n")

			eng := memory.New(memory.Options{KeepRows: true})
			var out strings.Builder
			p, err := newPipeline(Options{
				Config: cfg, Engine: eng, Input: strings.NewReader(in.String()), StateOut: &out,
				Server: Server{DefaultSchema: "DRY_RUN", IdentifierMaxBytes: 128, VarcharMaxBytes: 4000},
			})
			if err != nil {
				t.Fatal(err)
			}
			ticks := make(chan time.Time, 1)
			stalls := 0
			p.ticks = ticks
			p.idle = func() {
				stalls++
				ticks <- time.Time{}
			}
			if err := p.run(context.Background()); err != nil {
				t.Fatal(err)
			}
			if stalls != 0 {
				t.Errorf("the loop waited for the ticker %d times with input held back and no job running", stalls)
			}
			for s := 0; s < tc.streams; s++ {
				if n := len(eng.Rows(fmt.Sprintf("DRY_RUN.S%d", s))); n != tc.records {
					t.Errorf("stream s%d: %d rows, want %d", s, n, tc.records)
				}
			}
			if got := out.String(); got != "{\"done\":true}\n" {
				t.Errorf("state out %q", got)
			}
		})
	}
}

func testConfig(t *testing.T, settings string) *config.Config {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := config.Load(config.Sources{ConfigArgs: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The memory limit follows the longest line read (SPEC §10's 2 × the
// longest line): Options.LongLine hears of each line over 1 MiB longer
// than any before it, and of no shorter line.
func TestLongLineReported(t *testing.T) {
	cfg := testConfig(t, `{}`)
	var in strings.Builder
	in.WriteString(`{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"},"v":{"type":"string"}}}}` + "\n")
	for i, n := range []int{100, 3 << 20, 2 << 20, 5 << 20, 10} {
		fmt.Fprintf(&in, `{"type":"RECORD","stream":"s","record":{"id":%d,"v":"%s"}}`+"\n", i, strings.Repeat("x", n))
	}
	var got []int
	err := Run(context.Background(), Options{
		Config: cfg, Engine: memory.New(memory.Options{}), Input: strings.NewReader(in.String()), StateOut: io.Discard,
		Server:   Server{DefaultSchema: "DRY_RUN", IdentifierMaxBytes: 128, VarcharMaxBytes: 32767},
		LongLine: func(n int) { got = append(got, n) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] < 3<<20 || got[1] < 5<<20 || got[1] > 6<<20 {
		t.Fatalf("reported %v, want two sizes: ~3 MiB, then ~5 MiB", got)
	}
}
