// Command target-oracle is a Singer target that loads a tap's output into
// Oracle Database. See README.md and docs/ for how to use it.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"runtime/pprof"

	"github.com/target-oracle/target-oracle/internal/cli"
	"github.com/target-oracle/target-oracle/internal/config"
)

func main() {
	tuneGC()
	if err := checkStdoutOpen(); err != nil {
		fmt.Fprintf(os.Stderr, "target-oracle: %v\n", err)
		os.Exit(cli.ExitFailed)
	}
	state := protectStdout()
	stop := startProfile(os.Getenv(config.CPUProfileEnv))
	wd, _ := os.Getwd()
	code := cli.Main(os.Args[1:], cli.IO{
		Stdin:   os.Stdin,
		State:   state,
		Stderr:  os.Stderr,
		Env:     os.Environ(),
		Dir:     wd,
		Signals: cli.Signals(),
		Exit:    os.Exit,
	})
	stop()
	os.Exit(code)
}

// gcPercent is the garbage collector's GOGC unless the environment sets
// one. The heap is bounded by the buffers (batch sizes,
// max_buffered_bytes), not by the input, so the collector can run less
// often than Go's default of 100 without memory growing with the input:
// about 7 % fewer instructions for a few more megabytes
// (docs/performance.md).
const gcPercent = 150

func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}

// protectStdout keeps file descriptor 1 for STATE lines and points
// os.Stdout at stderr, so that anything else printing to "stdout" (go-ora
// v2.9.0 has fmt.Println calls on protocol paths) cannot corrupt a
// pipeline's state. It returns the handle STATE lines are written to.
func protectStdout() *os.File {
	state := os.Stdout
	os.Stdout = os.Stderr
	return state
}

// startProfile writes a CPU profile of the whole run to path, when set
// (docs/performance.md): profiles of real runs, on real input, are what
// find the next bottleneck.
func startProfile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", config.CPUProfileEnv, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
