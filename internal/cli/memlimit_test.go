package cli

import (
	"runtime/debug"
	"testing"

	"github.com/target-oracle/target-oracle/internal/config"
)

// The soft memory limit is SPEC §10's bound, from the settings, the
// streams and the longest line read so far (at least 1 MiB).
func TestMemoryLimit(t *testing.T) {
	cfg := &config.Config{MaxBufferedBytes: 1 << 20}
	base := int64(1<<20) + 64<<20 - 20<<20 // the reserve is for RSS the runtime does not manage
	cases := []struct {
		streams, longest int
		want             int64
	}{
		{0, 0, base + 2<<20},
		{1000, 0, base + 1000*40<<10 + 2<<20},
		{0, 500, base + 2<<20},
		{3, 100 << 20, base + 3*40<<10 + 200<<20},
	}
	for _, c := range cases {
		if got := memoryLimit(cfg, c.streams, c.longest); got != c.want {
			t.Errorf("streams %d, longest %d: limit %d, want %d", c.streams, c.longest, got, c.want)
		}
	}
	if s, l := limitMemory(cfg, []string{"GOMEMLIMIT=1GiB"}); s != nil || l != nil {
		t.Fatal("GOMEMLIMIT set: the target must not set a limit")
	}
}

// The funcs limitMemory returns move the process's limit.
func TestLimitMemoryFollowsStreamsAndLines(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	cfg := &config.Config{MaxBufferedBytes: 1 << 20}
	streams, long := limitMemory(cfg, nil)
	if got := debug.SetMemoryLimit(-1); got != memoryLimit(cfg, 0, 0) {
		t.Fatalf("initial limit %d", got)
	}
	streams(10)
	long(50 << 20)
	if got, want := debug.SetMemoryLimit(-1), memoryLimit(cfg, 10, 50<<20); got != want {
		t.Fatalf("limit %d, want %d", got, want)
	}
}

// A --dry-run-dump run sets the soft memory limit as any run does (its
// rows live on disk): after a dump run of two streams with the default
// settings the process's limit is the bound for two streams. An earlier
// build set none for a dump, and 10,000 one-row streams peaked past
// SPEC §10's bound.
func TestDumpRunSetsTheMemoryLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, args := range [][]string{{"--dry-run", "--dry-run-dump", ""}, {"--dry-run"}} {
		debug.SetMemoryLimit(1 << 50)
		if len(args) == 3 {
			args[2] = t.TempDir() + "/dump"
		}
		in := `{"type":"SCHEMA","stream":"a","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}
{"type":"SCHEMA","stream":"b","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}
{"type":"RECORD","stream":"a","record":{"id":1}}
{"type":"RECORD","stream":"b","record":{"id":2}}
`
		if _, errs, code := runMain(t, in, nil, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		cfg, _, err := config.Load(config.Sources{WorkDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := debug.SetMemoryLimit(-1), memoryLimit(cfg, 2, 0); got != want {
			t.Errorf("%v: memory limit %d after the run, want %d (the bound for 2 streams)", args, got, want)
		}
	}
}
