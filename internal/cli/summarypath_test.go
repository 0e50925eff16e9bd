package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// summary_path naming a file the run reads or writes otherwise is a
// configuration error before anything is opened: the file keeps its bytes.
// Before, the summary emptied the --input file at start (exit 0, nothing
// loaded) and replaced at the end the rejected records a written STATE
// covered (findings of the h-atk2 attack).
func TestSummaryPathCollisionsAreRefused(t *testing.T) {
	schema := `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}` + "\n"
	input := schema + `{"type":"RECORD","stream":"s","record":{"id":1}}` + "\n" + `{"type":"STATE","value":1}` + "\n"
	dir := t.TempDir()
	in := filepath.Join(dir, "in.singer")
	rejects := filepath.Join(dir, "r.jsonl")
	cfgPath := filepath.Join(dir, "c.json")
	for _, c := range []struct {
		name, summary, what string
		settings            string
	}{
		{"input", in, "the --input file", ""},
		{"input, another spelling", filepath.Join(dir, ".", "x", "..", "in.singer"), "the --input file", ""},
		{"reject_path", rejects, "reject_path", `,"on_invalid_record":"reject"`},
		{"the settings file", cfgPath, "the --config file", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			for p, body := range map[string]string{in: input, rejects: "kept\n"} {
				if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			cfg := `{"reject_path":"` + rejects + `","summary_path":"` + c.summary + `"` + c.settings + `}`
			if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
				t.Fatal(err)
			}
			out, errs, code := runMain(t, "", nil, "--dry-run", "--config", cfgPath, "--input", in)
			if code != ExitConfig || out != "" || !strings.Contains(errs, "summary_path") || !strings.Contains(errs, "is "+c.what) {
				t.Fatalf("exit %d, state %q, stderr:\n%s\nwant exit 2 naming %s", code, out, errs, c.what)
			}
			for p, body := range map[string]string{in: input, rejects: "kept\n", cfgPath: cfg} {
				if b, _ := os.ReadFile(p); string(b) != body {
					t.Errorf("%s now holds %q", p, b)
				}
			}
		})
	}
	// A file of its own still works.
	if err := os.WriteFile(cfgPath, []byte(`{"summary_path":"`+filepath.Join(dir, "summary.json")+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, errs, code := runMain(t, "", nil, "--dry-run", "--config", cfgPath, "--input", in); code != ExitOK || out != "1\n" {
		t.Fatalf("exit %d, state %q: %s", code, out, errs)
	}
}
