package cli

import (
	"runtime/debug"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/singer"
)

// Memory is bounded by the settings, not the input (SPEC §10): peak RSS ≤
// max_buffered_bytes + 64 MiB + S × streams + 2 × the longest line. The
// soft memory limit tells the Go collector that bound, so that garbage
// (a long line's pieces, a loaded batch) is collected before the heap
// grows past it instead of when GOGC's doubling says.
const (
	memoryConstant  = 64 << 20
	memoryPerStream = 40 << 10 // S: a stream's compiled schema, layout and small buffers
)

// memoryLimit is the soft limit for a run with this many streams.
func memoryLimit(cfg *config.Config, streams int) int64 {
	return cfg.MaxBufferedBytes + memoryConstant + int64(streams)*memoryPerStream + 2*singer.DefaultMaxLineBytes
}

// limitMemory sets the soft memory limit unless GOMEMLIMIT is set (then
// the user's word stands). It returns the func the pipeline calls as
// streams appear.
func limitMemory(cfg *config.Config, env []string) func(streams int) {
	if getenv(env, "GOMEMLIMIT") != "" {
		return nil
	}
	debug.SetMemoryLimit(memoryLimit(cfg, 0))
	return func(streams int) { debug.SetMemoryLimit(memoryLimit(cfg, streams)) }
}
