package cli

import (
	"runtime/debug"

	"github.com/target-oracle/target-oracle/internal/config"
)

// Memory is bounded by the settings, not the input (SPEC §10): peak RSS ≤
// max_buffered_bytes + 64 MiB + S × streams + 2 × the longest line. The
// soft memory limit tells the Go collector that bound, so that garbage
// (a long line's pieces, a loaded batch) is collected before the heap
// grows past it instead of when GOGC's doubling says.
//
// The limit covers only the memory the Go runtime manages; RSS also holds
// the binary's pages and what the runtime does not count (~17 MB for an
// idle run), so the limit leaves memoryReserve of the constant for them.
const (
	memoryConstant  = 64 << 20
	memoryReserve   = 20 << 20
	memoryPerStream = 40 << 10 // S: a stream's compiled schema, layout and small buffers
)

// memoryLimit is the soft limit for a run with this many streams and this
// longest line so far (lines up to 1 MiB count as 1 MiB).
func memoryLimit(cfg *config.Config, streams, longestLine int) int64 {
	return cfg.MaxBufferedBytes + memoryConstant - memoryReserve + int64(streams)*memoryPerStream + 2*int64(max(longestLine, 1<<20))
}

// limitMemory sets the soft memory limit unless GOMEMLIMIT is set (then
// the user's word stands, and both funcs are nil). It returns the funcs the
// pipeline calls as streams appear and as longer lines are read: the limit
// follows the longest line read, not the line limit (128 MiB by default,
// which would let the collector leave 256 MiB of garbage on every run).
func limitMemory(cfg *config.Config, env []string) (streamsChanged, longLine func(int)) {
	if getenv(env, "GOMEMLIMIT") != "" {
		return nil, nil
	}
	streams, longest := 0, 0
	set := func() { debug.SetMemoryLimit(memoryLimit(cfg, streams, longest)) }
	set()
	return func(n int) { streams = n; set() }, func(n int) { longest = n; set() }
}
