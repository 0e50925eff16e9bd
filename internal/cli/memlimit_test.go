package cli

import (
	"testing"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/singer"
)

// The soft memory limit is SPEC §10's bound, from the settings.
func TestMemoryLimit(t *testing.T) {
	cfg := &config.Config{MaxBufferedBytes: 1 << 20}
	want := int64(1<<20) + 64<<20 + 2*singer.DefaultMaxLineBytes
	if got := memoryLimit(cfg, 0); got != want {
		t.Fatalf("limit %d, want %d", got, want)
	}
	if got := memoryLimit(cfg, 1000); got != want+1000*40<<10 {
		t.Fatalf("limit with 1000 streams %d", got)
	}
	if limitMemory(cfg, []string{"GOMEMLIMIT=1GiB"}) != nil {
		t.Fatal("GOMEMLIMIT set: the target must not set a limit")
	}
}
