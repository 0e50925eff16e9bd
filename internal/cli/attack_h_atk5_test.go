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
	t.Skip("finding: summary_path reaching reject_path through a symlinked folder (or a symlink followed by ..) is accepted on a first run; the summary overwrites the rejected records a written STATE covers")
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
