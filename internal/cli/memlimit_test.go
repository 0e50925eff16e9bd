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
