package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/table"
)

// FaultEnv injects one fault into a --dry-run for crash tests (the seeded
// simulation, internal/sim): "KIND:K:ACTION" acts at the K-th call of KIND
// — ddl, load, truncate (the embedded engine) or state (a STATE line
// written to stdout). ACTION is kill (SIGKILL before the call: it has no
// effect), kill-after (SIGKILL once the call took effect, before anything
// follows it) or fail (the call fails). Points are event counts, never
// times, so a test fixes its kill point exactly. Reserved for tests, like
// every TARGET_ORACLE_TEST_* variable; it has no effect without --dry-run.
const FaultEnv = "TARGET_ORACLE_TEST_FAULT"

type testFault struct {
	kind, action string
	k            int

	mu sync.Mutex
	n  int
}

func parseFault(spec string) (*testFault, error) {
	if spec == "" {
		return nil, nil
	}
	parts := strings.Split(spec, ":")
	if len(parts) != 3 {
		return nil, fmt.Errorf("%s: %q is not KIND:K:ACTION", FaultEnv, spec)
	}
	k, err := strconv.Atoi(parts[1])
	if err != nil || k < 1 {
		return nil, fmt.Errorf("%s: %q: K must be a positive integer", FaultEnv, spec)
	}
	switch parts[0] {
	case "ddl", "load", "truncate", "state":
	default:
		return nil, fmt.Errorf("%s: %q: KIND must be ddl, load, truncate or state", FaultEnv, spec)
	}
	switch parts[2] {
	case "kill", "kill-after", "fail":
	default:
		return nil, fmt.Errorf("%s: %q: ACTION must be kill, kill-after or fail", FaultEnv, spec)
	}
	return &testFault{kind: parts[0], k: k, action: parts[2]}, nil
}

var errInjected = errors.New("injected fault (" + FaultEnv + ")")

// before counts a call of kind and acts when it is the K-th.
func (f *testFault) before(kind string) error {
	if f == nil || kind != f.kind {
		return nil
	}
	f.mu.Lock()
	f.n++
	hit := f.n == f.k
	f.mu.Unlock()
	if !hit {
		return nil
	}
	switch f.action {
	case "kill":
		killSelf()
	case "fail":
		return errInjected
	}
	return nil
}

// after acts on a kill-after once the K-th call of kind took effect.
func (f *testFault) after(kind string) {
	if f == nil || kind != f.kind || f.action != "kill-after" {
		return
	}
	f.mu.Lock()
	hit := f.n == f.k
	f.mu.Unlock()
	if hit {
		killSelf()
	}
}

// killSelf ends the process as SIGKILL would (os.Process.Kill is SIGKILL
// on Unix and TerminateProcess on Windows): nothing after it runs.
func killSelf() {
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		_ = p.Kill()
	}
	select {} // the kill is on its way
}

func (f *testFault) hooks() memory.Hooks {
	if f == nil {
		return memory.Hooks{}
	}
	return memory.Hooks{
		Apply:    func(engine.Change) error { return f.before("ddl") },
		Load:     func([]engine.Step) error { return f.before("load") },
		Truncate: func(*table.Table) error { return f.before("truncate") },
		Done:     f.after,
	}
}

// stateWriter counts STATE lines (one Write each) for a state fault.
type faultWriter struct {
	w io.Writer
	f *testFault
}

func (w faultWriter) Write(p []byte) (int, error) {
	if err := w.f.before("state"); err != nil {
		return 0, err
	}
	n, err := w.w.Write(p)
	w.f.after("state")
	return n, err
}
