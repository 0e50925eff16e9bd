// Command target-oracle is a Singer target that loads a tap's output into
// Oracle Database. See README.md and docs/ for how to use it.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/pprof"

	"github.com/target-oracle/target-oracle/internal/cli"
	"github.com/target-oracle/target-oracle/internal/config"
)

func main() {
	tuneGC()
	stateClosed := checkStdoutOpen()
	state := protectStdout()
	stop := startProfile(os.Getenv(config.CPUProfileEnv))
	wd, _ := os.Getwd()
	code := cli.Main(os.Args[1:], cli.IO{
		Stdin:   stdin(),
		State:   state,
		Stderr:  os.Stderr,
		Env:     os.Environ(),
		Dir:     wd,
		Signals: cli.Signals(),
		Exit:    os.Exit,

		StateClosed: stateClosed,
	})
	stop()
	os.Exit(code)
}

// stdin is the input a load reads without --input: os.Stdin, or, when the
// process was started with it closed, a reader that fails at its first
// read, so only a run that reads standard input fails (--input, --about
// and --check do not).
func stdin() io.Reader {
	if stdinClosed() {
		return failingReader{errors.New("started with standard input (file descriptor 0) closed: there is no input to read. " +
			"Pipe a tap's output into the target or give --input FILE; for an empty input on purpose, redirect it from /dev/null (< /dev/null; " +
			"Python's subprocess.DEVNULL opens it read-write, which cannot be told from a closed descriptor)")}
	}
	return os.Stdin
}

type failingReader struct{ err error }

func (r failingReader) Read([]byte) (int, error) { return 0, r.err }

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
