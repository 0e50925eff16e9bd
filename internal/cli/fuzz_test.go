package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzDryRun runs whole loads (--dry-run, in-process) on any input under
// settings the input's first byte picks, and checks what holds for every
// input: the run ends (a hang fails the fuzzer), with a documented exit
// code; stdout holds only STATE values, one JSON value a line; an input
// error names its line. Seeds: the examples here and the conformance
// streams of other projects when ../shared is beside the checkout.
func FuzzDryRun(f *testing.F) {
	f.Add(byte(0), []byte(example))
	f.Add(byte(5), []byte(example+`{"type":"RECORD","stream":"orders","record":{"id":"x"}}`+"\n"))
	f.Add(byte(9), []byte(`{"type":"SCHEMA","stream":"a","schema":{"properties":{"k":{"type":"string"},"o":{"type":"object","properties":{"p":{"type":["null","number"]}}}}},"key_properties":["k"]}
{"type":"RECORD","stream":"a","record":{"k":"1","o":{"p":1e400}},"version":3}
{"type":"ACTIVATE_VERSION","stream":"a","version":3}
{"type":"STATE","value":{"a":1}}
{"type":"SCHEMA","stream":"a","schema":{"properties":{"k":{"type":"integer"}}},"key_properties":["k"]}
{"type":"RECORD","stream":"a","record":{"k":2}}
{"type":"STATE","value":{"a":2}}
`))
	files, _ := filepath.Glob("../../../shared/conformance/*/*.singer")
	more, _ := filepath.Glob("../../../shared/conformance/*/*.jsonl")
	for i, p := range append(files, more...) {
		if data, err := os.ReadFile(p); err == nil && len(data) < 64<<10 {
			f.Add(byte(i), data)
		}
	}
	f.Fuzz(func(t *testing.T, settings byte, input []byte) {
		env := fuzzSettings(settings)
		out, errs, code := runMain(t, string(input), env, "--dry-run")
		switch code {
		case ExitOK, ExitFailed, ExitConfig, ExitInput:
		default:
			t.Fatalf("exit %d, not a documented code; stderr:\n%s", code, errs)
		}
		if code == ExitConfig && !strings.Contains(errs, "configuration: ") {
			// Settings can be wrong only for a stream (history needs a key).
			t.Fatalf("exit 2 without a configuration error, env %q:\n%s", env, errs)
		}
		for _, line := range strings.SplitAfter(out, "\n") {
			if line == "" {
				continue
			}
			if !strings.HasSuffix(line, "\n") || !json.Valid([]byte(line)) {
				t.Fatalf("stdout line is not one JSON value: %q", line)
			}
		}
		if code == ExitInput && !strings.Contains(errs, "line ") {
			t.Fatalf("input error names no line:\n%s", errs)
		}
		if bytes.Contains([]byte(errs), []byte("panic")) {
			t.Fatalf("stderr mentions a panic:\n%s", errs)
		}
	})
}

// fuzzSettings maps a byte to a combination of the settings that change
// how input is handled.
func fuzzSettings(b byte) []string {
	pick := func(shift uint, opts ...string) string { return opts[int(b>>shift)%len(opts)] }
	return []string{
		"TARGET_ORACLE_ON_INVALID_RECORD=" + pick(0, "fail", "skip"),
		"TARGET_ORACLE_LOAD_METHOD=" + pick(1, "upsert", "append-only", "overwrite", "history"),
		"TARGET_ORACLE_STORAGE_MODE=" + pick(3, "hybrid", "flattened", "json"),
		"TARGET_ORACLE_SCHEMA_EVOLUTION=" + pick(5, "widen", "additive", "fail"),
		"TARGET_ORACLE_BATCH_SIZE_ROWS=" + pick(7, "10000", "2"),
		"TARGET_ORACLE_HARD_DELETE=" + pick(4, "false", "true"),
		"TARGET_ORACLE_VALIDATE_RECORDS=" + pick(6, "true", "false"),
	}
}
