package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/memory"
)

// TestRefusedLinesSyncedBeforeState: under on_database_error: reject (and
// on_invalid_record: fail) the coordinator writes a batch's refused records
// and the tracker syncs reject_path before the next state line: a state
// is never written while the file has unsynced lines.
func TestRefusedLinesSyncedBeforeState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	rejects := filepath.Join(t.TempDir(), "rejects.jsonl")
	if err := os.WriteFile(path, []byte(`{"on_database_error": "reject", "reject_path": "`+rejects+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := config.Load(config.Sources{ConfigArgs: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	p, err := newPipeline(Options{Config: cfg, Engine: memory.New(memory.Options{}), Input: strings.NewReader(""), StateOut: &out})
	if err != nil {
		t.Fatal(err)
	}
	s := &stream{name: "s"}
	j := &job{stream: s, refused: []refusal{{line: 7, err: "ORA-01400: cannot insert NULL", record: []byte(`{"id":1}`)}}}
	if err := p.writeRefused(j); err != nil {
		t.Fatal(err)
	}
	if !p.rejects.dirty {
		t.Fatal("the refused line is not pending a sync")
	}
	p.tracker.add(8, []byte(`{"n":1}`))
	if err := p.tracker.advance(noLine); err != nil {
		t.Fatal(err)
	}
	if p.rejects.dirty {
		t.Error("state written with the refused line not synced")
	}
	if out.String() != "{\"n\":1}\n" || s.rejected != 1 || p.dbRejected != 1 {
		t.Errorf("state %q, stream rejected %d, run rejected %d", out.String(), s.rejected, p.dbRejected)
	}
	if err := p.rejects.close(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(rejects)
	if string(b) != `{"line":7,"stream":"s","error":"ORA-01400: cannot insert NULL","record":{"id":1}}`+"\n" {
		t.Errorf("reject file %q", b)
	}
}
