package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const atk5RejectInput = `{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"},"v":{"type":"integer"}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":1,"v":"not a number"}}
{"type":"RECORD","stream":"s","record":{"id":2,"v":2}}
{"type":"STATE","value":1}
`

// TestAttackSummaryPathThroughSymlinkedFolderOverwritesRejects (finding,
// data loss): summaryCollision compares paths by filepath.Abs (lexical)
// and, only when both files exist, by os.SameFile. On a first run
// reject_path does not exist yet, so a summary_path that reaches the same
// file another way is accepted: through a symlinked folder
// (summary_path link/rej.jsonl, link → real, reject_path real/rej.jsonl),
// or by ".." after a symlink (reject_path link2/../rej.jsonl with link2 →
// a/b, which the OS resolves to a/rej.jsonl, and summary_path
// a/rej.jsonl). The summary is opened at start (created, O_TRUNC), the
// rejected record is appended, and at the end the summary is written at
// offset 0 over it: the file holds only the summary JSON, the rejected
// record id 1 is gone although STATE 1, which covers it, was written;
// exit 0. (inside() has the same lexical blind spot for the
// --dry-run-dump folder: summary_path dl/tables.json with dl → the dump
// folder exits 0 and one of the two files is lost.) Reproduction with the
// binary: mkdir real; ln -s $PWD/real link; --dry-run --config
// {"on_invalid_record":"reject","reject_path":"$PWD/real/rej.jsonl",
// "summary_path":"$PWD/link/rej.jsonl"} → stdout "1", real/rej.jsonl is
// the summary.
func TestAttackSummaryPathThroughSymlinkedFolderOverwritesRejects(t *testing.T) {
	// was: t.Skip("finding: summary_path reaching reject_path through a symlinked folder (or a symlink followed by ..) is accepted on a first run; the summary overwrites the rejected records a written STATE covers")
	dir := t.TempDir()
	in := filepath.Join(dir, "in.singer")
	if err := os.WriteFile(in, []byte(atk5RejectInput), 0o600); err != nil {
		t.Fatal(err)
	}
	real, deep := filepath.Join(dir, "real"), filepath.Join(dir, "a", "b")
	for _, d := range []string{real, deep} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(real, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(deep, filepath.Join(dir, "link2")); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, reject, summary, file string }{
		{"symlinked folder", filepath.Join(real, "rej.jsonl"), filepath.Join(dir, "link", "rej.jsonl"), filepath.Join(real, "rej.jsonl")},
		{"symlink then ..", dir + "/link2/../rej.jsonl", filepath.Join(dir, "a", "rej.jsonl"), filepath.Join(dir, "a", "rej.jsonl")},
	}
	for _, c := range cases {
		cfg := writeFile(t, "c.json", `{"on_invalid_record":"reject","reject_path":"`+c.reject+`","summary_path":"`+c.summary+`"}`)
		out, errs, code := runMain(t, "", nil, "--dry-run", "--config", cfg, "--input", in)
		got, _ := os.ReadFile(c.file)
		if code == ExitOK && !strings.Contains(string(got), `"not a number"`) {
			t.Errorf("%s: exit 0, STATE %q, and the reject file holds no rejected record (id 1 lost):\n%.200s\n%s", c.name, out, got, errs)
		}
		os.Remove(c.file)
	}
}

// TestAttackSummaryPathIsStdinsFile (finding, data loss): summary_path
// may not be the --input file (fixed last release: the summary emptied
// the input, the run loaded nothing and exited 0), but the same file
// given as standard input (target-oracle --config c.json < in.singer, the
// usual way) is not checked: summaryCollision stats standard output's
// file, not standard input's. The summary is opened with O_TRUNC before
// the input is read, so the run reads nothing, writes no STATE, exits 0
// with a summary of 0 records, and in.singer now holds that summary: the
// tap's output is destroyed. Reproduction with the binary:
// --dry-run --config {"summary_path":"$PWD/in.singer"} < in.singer →
// exit 0, no STATE, in.singer is the summary JSON.
func TestAttackSummaryPathIsStdinsFile(t *testing.T) {
	// was: t.Skip("finding: summary_path naming the file standard input is redirected from is accepted; the input is emptied before it is read, nothing loads, exit 0, the input file is destroyed")
	dir := t.TempDir()
	in := filepath.Join(dir, "in.singer")
	const input = `{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":1}}
{"type":"STATE","value":1}
`
	if err := os.WriteFile(in, []byte(input), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg := writeFile(t, "c.json", `{"summary_path":"`+in+`"}`)
	var out, errb strings.Builder
	code := Main([]string{"--dry-run", "--config", cfg}, IO{Stdin: f, State: &out, Stderr: &errb, Dir: dir})
	got, _ := os.ReadFile(in)
	if code == ExitOK && (out.String() != "1\n" || string(got) != input) {
		t.Fatalf("exit 0, STATE %q (want \"1\\n\"), and the input file now holds %.120q (or exit 2 naming summary_path)\n%s", out.String(), got, errb.String())
	}
}

// TestAttackSummaryPathIsABatchFile (finding, data loss, STATE for rows
// never loaded): summary_path naming a file that a BATCH message of the
// input lists in its manifest is accepted (summaryCollision knows only
// the files of the command line and settings; the manifest is read
// later). The summary is opened with O_TRUNC at start, so the BATCH file
// is empty when its message comes: the stream loads 0 rows, STATE 1 —
// which covers the BATCH — is written, exit 0, and the file's rows are
// gone (the file now holds the summary). Reproduction with the binary:
// batch.jsonl = {"id":1}\n{"id":2}\n; --dry-run --config
// {"summary_path":"$PWD/batch.jsonl"}, input SCHEMA s, BATCH s jsonl
// manifest ["file://$PWD/batch.jsonl"], STATE 1 → stdout "1", 0 records.
func TestAttackSummaryPathIsABatchFile(t *testing.T) {
	// was: t.Skip("finding: summary_path naming a BATCH manifest file is accepted; the file is emptied at start, the BATCH loads 0 rows and the STATE covering it is written, exit 0")
	dir := t.TempDir()
	batch := filepath.Join(dir, "batch.jsonl")
	if err := os.WriteFile(batch, []byte("{\"id\":1}\n{\"id\":2}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "in.singer")
	input := `{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}
{"type":"BATCH","stream":"s","encoding":{"format":"jsonl","compression":"none"},"manifest":["file://` + batch + `"]}
{"type":"STATE","value":1}
`
	if err := os.WriteFile(in, []byte(input), 0o600); err != nil {
		t.Fatal(err)
	}
	dump := filepath.Join(dir, "dump")
	cfg := writeFile(t, "c.json", `{"summary_path":"`+batch+`"}`)
	out, errs, code := runMain(t, "", nil, "--dry-run", "--dry-run-dump", dump, "--config", cfg, "--input", in)
	rows, _ := os.ReadFile(filepath.Join(dump, "tables", "DRY_RUN.S.jsonl"))
	if code == ExitOK && strings.Count(string(rows), "\n") != 2 {
		t.Fatalf("exit 0, STATE %q, and table S holds %q: the BATCH file's 2 rows were not loaded (the summary emptied the file first)\n%s", out, rows, errs)
	}
}

// TestAttackRejectPathIsAFileTheRunReads (finding: a runaway loop on a
// BATCH file; no row lost): summary_path may not be the --input file,
// but reject_path may, and neither is checked against the files of BATCH
// manifests. Rejected records are appended to the file while it is read:
//
//   - reject_path = a BATCH file (jsonl) with one invalid row: the reject
//     line is read back as a row, refused (no key), appended again with
//     the previous line nested inside, and so on, until 1,000 nesting
//     levels: a 2-row file grows to 88 MB (quadratic), 1,000 records
//     "rejected", exit 3, and the tap's file is ruined;
//   - reject_path = the --input file: a small input was read whole
//     already, so the run exits 0 and the input ends with a reject line,
//     which fails any run that reads it again ("missing required field
//     "type""); a larger one (200,000 records) reaches that line in the
//     same run, exit 3.
//
// Reproduction with the binary: batch.jsonl = {"id":1,"v":"bad"}\n
// {"id":2,"v":2}\n; --dry-run --config {"on_invalid_record":"reject",
// "reject_path":"$PWD/batch.jsonl"}, input SCHEMA s {id key, v integer},
// BATCH s manifest ["file://$PWD/batch.jsonl"], STATE 1.
func TestAttackRejectPathIsAFileTheRunReads(t *testing.T) {
	// was: t.Skip("finding: reject_path naming the --input file or a BATCH manifest file is accepted; rejects are appended to the file being read (a BATCH file grows to 88 MB in a feedback loop, exit 3; a small input is left corrupted, exit 0)")
	dir := t.TempDir()
	in := filepath.Join(dir, "in.singer")
	if err := os.WriteFile(in, []byte(atk5RejectInput), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := writeFile(t, "c.json", `{"on_invalid_record":"reject","reject_path":"`+in+`"}`)
	out, errs, code := runMain(t, "", nil, "--dry-run", "--config", cfg, "--input", in)
	got, _ := os.ReadFile(in)
	if code != ExitConfig && string(got) != atk5RejectInput {
		t.Errorf("--input: exit %d (want 2 naming reject_path), STATE %q, and the input file was changed:\n%s\n%s", code, out, got, errs)
	}
	batch := filepath.Join(dir, "batch.jsonl")
	const rows = "{\"id\":1,\"v\":\"bad\"}\n{\"id\":2,\"v\":2}\n"
	if err := os.WriteFile(batch, []byte(rows), 0o600); err != nil {
		t.Fatal(err)
	}
	in2 := filepath.Join(dir, "in2.singer")
	input := `{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"},"v":{"type":"integer"}}},"key_properties":["id"]}
{"type":"BATCH","stream":"s","encoding":{"format":"jsonl","compression":"none"},"manifest":["file://` + batch + `"]}
{"type":"STATE","value":1}
`
	if err := os.WriteFile(in2, []byte(input), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg = writeFile(t, "c.json", `{"on_invalid_record":"reject","reject_path":"`+batch+`"}`)
	out, errs, code = runMain(t, "", nil, "--dry-run", "--config", cfg, "--input", in2)
	if fi, err := os.Stat(batch); code != ExitConfig && (err != nil || fi.Size() > 1000) {
		t.Errorf("BATCH file: exit %d (want 2 naming reject_path), STATE %q, the 2-row BATCH file is now %d bytes\n%.300s", code, out, fi.Size(), errs)
	}
}

// TestAttackRejectPathInsideDumpFolderIsOverwritten (finding, data loss
// in a dry run): summary_path may not lie inside the --dry-run-dump
// folder, but reject_path may. With an empty dump folder D and
// reject_path D/tables.json, the start check passes (the file does not
// exist yet), the rejected record is appended to D/tables.json, and the
// dump writes its tables.json over it at the end: the rejected record,
// which STATE 1 covers, is gone, exit 0. Reproduction with the binary:
// mkdir D; --dry-run --dry-run-dump D --config
// {"on_invalid_record":"reject","reject_path":"D/tables.json"}.
func TestAttackRejectPathInsideDumpFolderIsOverwritten(t *testing.T) {
	// was: t.Skip("finding: reject_path inside the --dry-run-dump folder (D/tables.json) is accepted; the dump overwrites the rejected records at the end, exit 0")
	dir := t.TempDir()
	in := filepath.Join(dir, "in.singer")
	if err := os.WriteFile(in, []byte(atk5RejectInput), 0o600); err != nil {
		t.Fatal(err)
	}
	dump := filepath.Join(dir, "dump")
	if err := os.Mkdir(dump, 0o700); err != nil {
		t.Fatal(err)
	}
	rej := filepath.Join(dump, "tables.json")
	cfg := writeFile(t, "c.json", `{"on_invalid_record":"reject","reject_path":"`+rej+`"}`)
	out, errs, code := runMain(t, "", nil, "--dry-run", "--dry-run-dump", dump, "--config", cfg, "--input", in)
	got, _ := os.ReadFile(rej)
	if code == ExitOK && !strings.Contains(string(got), `"not a number"`) {
		t.Fatalf("exit 0, STATE %q, and %s holds no rejected record (the dump overwrote it):\n%.200s\n%s", out, rej, got, errs)
	}
}
