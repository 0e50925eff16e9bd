package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDrivenAsMeltanoDoes runs the binary the way Meltano runs a loader: a
// config file written by the orchestrator, settings also exported as
// TARGET_ORACLE_* variables (which win over the file), messages on stdin,
// and the state taken from the last line of stdout. (--dry-run stands in
// for the database; Meltano itself is not installed here.)
func TestDrivenAsMeltanoDoes(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "target.8f1c.config.json")
	if err := os.WriteFile(cfg, []byte(`{"default_target_schema": "tap_file", "batch_size_rows": 1000, "add_record_metadata": true}`), 0o600); err != nil {
		t.Fatal(err)
	}
	dump := filepath.Join(dir, "dump")
	cmd := target(t, "--config", cfg, "--dry-run", "--dry-run-dump", dump)
	cmd.Env = append(cmd.Env,
		"TARGET_ORACLE_DEFAULT_TARGET_SCHEMA=tap_shop", // $MELTANO_EXTRACT__LOAD_SCHEMA, mapped by the plugin definition
		"TARGET_ORACLE_BATCH_SIZE_ROWS=1",
		"MELTANO_EXTRACTOR_NAME=tap-shop", "MELTANO_PROJECT_ROOT="+dir)
	cmd.Stdin = strings.NewReader(input)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	var last string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		last = sc.Text()
	}
	if last != `{"a":2,"b":1}` {
		t.Fatalf("last stdout line %q, want the final state", last)
	}
	// The environment won over the file: tables live in TAP_SHOP.
	if _, err := os.Stat(filepath.Join(dump, "tables", "TAP_SHOP.A.jsonl")); err != nil {
		t.Fatalf("TARGET_ORACLE_DEFAULT_TARGET_SCHEMA did not override the config file: %v", err)
	}
	if strings.Contains(stderr.String(), "unknown setting") {
		t.Fatalf("Meltano's own variables were taken for settings:\n%s", stderr.String())
	}
}
