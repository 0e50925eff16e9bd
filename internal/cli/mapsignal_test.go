package cli

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// signalOnState sends sig once the STATE line want is written (on the
// pipeline's coordinator, right before it maps the next record).
type signalOnState struct {
	mu   sync.Mutex
	out  strings.Builder
	want string
	sigs chan<- os.Signal
	sig  os.Signal
}

func (w *signalOnState) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.out.Write(b)
	if w.sigs != nil && strings.Contains(w.out.String(), w.want) {
		w.sigs <- w.sig
		w.sigs = nil
	}
	return len(b), nil
}

// SIGTERM while stream maps run long expressions (each within its step
// budget, some 60 ms a record) stops the run at once with exit 143: the
// evaluation is cancelled, nothing after the signal is loaded, and the
// true state is the last one written. Before the fix every record of the
// input was mapped and loaded, and exit was still 143 but after the whole
// input, with state 2 written.
func TestSigtermCancelsStreamMapEvaluation(t *testing.T) {
	cfg := writeFile(t, "config.json", `{"batch_size_rows": 1, "max_parallelism": 1, "stream_maps": {"b": {"n": "len([i for i in range(40000) if i % 7 == 3])"}}}`)
	lines := []string{
		`{"type":"SCHEMA","stream":"a","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}`,
		`{"type":"RECORD","stream":"a","record":{"id":1}}`,
		`{"type":"STATE","value":{"n":1}}`,
		`{"type":"SCHEMA","stream":"b","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}`,
	}
	for i := 0; i < 400; i++ {
		lines = append(lines, fmt.Sprintf(`{"type":"RECORD","stream":"b","record":{"id":%d}}`, i))
	}
	lines = append(lines, `{"type":"STATE","value":{"n":2}}`)
	sigs := make(chan os.Signal, 4)
	state := &signalOnState{want: `{"n":1}`, sigs: sigs, sig: syscall.SIGTERM}
	var errb strings.Builder
	code := Main([]string{"--dry-run", "--config", cfg}, IO{Stdin: strings.NewReader(strings.Join(lines, "\n") + "\n"),
		State: state, Stderr: &errb, Dir: t.TempDir(), Signals: sigs})
	if code != 143 {
		t.Fatalf("exit %d, want 143; stderr:\n%s", code, errb.String())
	}
	if got := state.out.String(); got != `{"n":1}`+"\n" {
		t.Errorf("states %q, want only {\"n\":1}", got)
	}
	if strings.Contains(errb.String(), "invalid input") {
		t.Errorf("the cancelled evaluation was reported as bad input:\n%s", errb.String())
	}
}
