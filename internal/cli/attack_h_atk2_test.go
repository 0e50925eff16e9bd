package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const atk2Schema = `{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}` + "\n"

// TestAttackSummaryPathIsRejectPath (finding, data loss under a written
// STATE): with summary_path and reject_path naming one file, the rejected
// record is appended and synced before STATE 1 is written (SPEC §7 rule
// 1), and then the summary, written at the end, replaces the file: STATE
// 1 covers a rejected record that is no longer on disk, and exit is 0.
// Reproduction: {"on_invalid_record":"reject","reject_path":"r.txt",
// "summary_path":"r.txt"}, input SCHEMA, RECORD {"id":"bad"}, RECORD
// {"id":1}, STATE 1: stdout "1", r.txt holds only the summary JSON.
// Refusing the pair at load (exit 2), as the same setting given twice is,
// would keep the rejects.
func TestAttackSummaryPathIsRejectPath(t *testing.T) {
	// was: t.Skip("finding: summary_path = reject_path: the summary overwrites the rejected records a written STATE covers")
	dir := t.TempDir()
	rj := filepath.Join(dir, "r.txt")
	cfg := writeFile(t, "c.json", `{"on_invalid_record":"reject","reject_path":"`+rj+`","summary_path":"`+rj+`"}`)
	in := atk2Schema + `{"type":"RECORD","stream":"s","record":{"id":"bad"}}
{"type":"RECORD","stream":"s","record":{"id":1}}
{"type":"STATE","value":1}
`
	out, errs, code := runMain(t, in, nil, "--dry-run", "--config", cfg)
	b, _ := os.ReadFile(rj)
	if code == 0 && out != "" && !strings.Contains(string(b), `"record":{"id":"bad"}`) {
		t.Errorf("exit %d, state %q, and %s no longer holds the rejected record:\n%s\n%s", code, out, rj, b, errs)
	}
}

// TestAttackSummaryPathIsInput (finding, nothing loaded, exit 0):
// summary_path naming the --input file empties it when the run starts
// (cc44077 opens the summary early), so the run reads an empty input and
// succeeds with 0 records; the tap's output file is gone. Reproduction:
// target-oracle --dry-run --input in.singer --config
// {"summary_path":"in.singer"} → exit 0, "0 records", in.singer holds
// the summary.
func TestAttackSummaryPathIsInput(t *testing.T) {
	// was: t.Skip("finding: summary_path naming the --input file empties the input at start; the run loads nothing and exits 0")
	in := writeFile(t, "in.singer", atk2Schema+`{"type":"RECORD","stream":"s","record":{"id":1}}
{"type":"STATE","value":1}
`)
	cfg := writeFile(t, "c.json", `{"summary_path":"`+in+`"}`)
	out, errs, code := runMain(t, "", nil, "--dry-run", "--config", cfg, "--input", in)
	if code == 0 && out == "" {
		t.Errorf("exit 0 with no state: the input %s was emptied by summary_path:\n%s", in, errs)
	}
}

// TestAttackUnwritableRejectPathFailsBeforeLoading (finding, late
// configuration error): an unwritable summary_path fails before anything
// loads (cc44077, TestUnwritableSummaryFailsBeforeLoading), but
// reject_path is opened only when the first record is rejected: with
// reject_path in a directory that does not exist, every batch before the
// first invalid record loads (and its states are written, in a long
// input), and the run fails there (exit 1, "load failed: open reject
// file: …"), hours into a load, the rest of the input not loaded.
// Reproduction: --dry-run --dry-run-dump d --config
// {"batch_size_rows":1,"on_invalid_record":"reject","reject_path":"/missing/dir/r.txt"},
// input SCHEMA, RECORD {"id":1}, STATE 1, RECORD {"id":"bad"}, RECORD
// {"id":2}, STATE 2 → exit 1, d/tables/DRY_RUN.S.jsonl holds id 1.
func TestAttackUnwritableRejectPathFailsBeforeLoading(t *testing.T) {
	// was: t.Skip("finding: an unwritable reject_path is found only at the first rejected record (mid-load, exit 1), not at start as summary_path is")
	dump := filepath.Join(t.TempDir(), "d")
	cfg := writeFile(t, "c.json", `{"batch_size_rows":1,"on_invalid_record":"reject","reject_path":"`+t.TempDir()+`/missing/r.txt"}`)
	in := atk2Schema + `{"type":"RECORD","stream":"s","record":{"id":1}}
{"type":"STATE","value":1}
{"type":"RECORD","stream":"s","record":{"id":"bad"}}
{"type":"RECORD","stream":"s","record":{"id":2}}
{"type":"STATE","value":2}
`
	_, errs, code := runMain(t, in, nil, "--dry-run", "--dry-run-dump", dump, "--config", cfg)
	rows, _ := os.ReadFile(filepath.Join(dump, "tables", "DRY_RUN.S.jsonl"))
	if code == 0 || len(rows) > 0 {
		t.Errorf("exit %d, %d bytes of rows loaded: want the unwritable reject_path refused before anything loads:\n%s", code, len(rows), errs)
	}
}
