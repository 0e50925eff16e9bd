package pipeline_test

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/memory"
)

// A SCHEMA whose key change the table refuses (it has rows) is invalid
// input at its line: the run stops there, as at an invalid record, after
// committing the other streams' records read before it and writing the
// state then true (SPEC §8). Nothing read after the line is loaded.
func TestRefusedKeyChangeCommitsWhatCameBefore(t *testing.T) {
	a := `{"type":"SCHEMA","stream":"a","schema":{"properties":{"id":{"type":"integer"},"k":{"type":"integer"}}},"key_properties":["id"]}`
	b := `{"type":"SCHEMA","stream":"b","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}`
	aNewKey := strings.Replace(a, `["id"]`, `["id","k"]`, 1)
	in := input(a, b,
		`{"type":"RECORD","stream":"a","record":{"id":1,"k":1}}`,
		`{"type":"STATE","value":{"s":1}}`,
		`{"type":"RECORD","stream":"b","record":{"id":1}}`,
		`{"type":"STATE","value":{"s":2}}`,
		aNewKey, // line 7: table A has a row
		`{"type":"RECORD","stream":"b","record":{"id":2}}`,
		`{"type":"STATE","value":{"s":3}}`,
		`{"type":"RECORD","stream":"a","record":{"id":2,"k":1}}`,
		`{"type":"STATE","value":{"s":4}}`)
	for _, settings := range []string{``, `{"batch_size_rows": 1}`, `{"max_parallelism": 4}`, `{"batch_size_rows": 1, "max_parallelism": 4}`} {
		t.Run(settings, func(t *testing.T) {
			eng := newEngine()
			states, err := run(t, eng, loadConfig(t, settings), in)
			wantInputError(t, err, "key_properties changed from [ID] to [ID K]")
			if !strings.HasPrefix(err.Error(), `line 7: stream "a"`) {
				t.Fatalf("error %q does not name line 7 and stream a", err)
			}
			if len(states) == 0 || states[len(states)-1] != `{"s":2}` {
				t.Fatalf("states %q, want the last one {\"s\":2}", states)
			}
			if got := ids(eng, "B"); got != "1" {
				t.Fatalf("B holds %s, want 1 (what came before line 7, nothing after)", got)
			}
			if got := ids(eng, "A"); got != "1" {
				t.Fatalf("A holds %s, want 1", got)
			}
		})
	}
}

// A batch the engine refuses as input (as the Oracle engine refuses text
// its database character set cannot hold) stops the run at that batch: the
// other streams' batches commit, the state before the refused batch is
// written, and the refused stream loads nothing more.
func TestBatchRefusedAsInputLetsOtherStreamsCommit(t *testing.T) {
	var calls atomic.Int32
	hooks := memory.Hooks{Load: func(steps []engine.Step) error {
		for _, st := range steps {
			if w, ok := st.(*engine.Write); ok && w.Table.Name == "A" && calls.Add(1) == 2 {
				return &inputerr.Error{Line: 5, Property: "id", Msg: "text the database character set cannot hold"}
			}
		}
		return nil
	}}
	eng := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }, Hooks: hooks})
	a := `{"type":"SCHEMA","stream":"a","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}`
	b := strings.Replace(a, `"stream":"a"`, `"stream":"b"`, 1)
	in := input(a, b,
		`{"type":"RECORD","stream":"a","record":{"id":1}}`, // batch 1 of A
		`{"type":"STATE","value":{"s":1}}`,
		`{"type":"RECORD","stream":"a","record":{"id":2}}`, // batch 2 of A: refused
		`{"type":"RECORD","stream":"b","record":{"id":1}}`,
		`{"type":"STATE","value":{"s":2}}`,
		`{"type":"RECORD","stream":"a","record":{"id":3}}`,
		`{"type":"STATE","value":{"s":3}}`)
	states, err := run(t, eng, loadConfig(t, `{"batch_size_rows": 1, "max_parallelism": 1}`), in)
	wantInputError(t, err, "character set")
	if strings.Join(states, "|") != `{"s":1}` {
		t.Fatalf("states %q, want only the state before the refused batch", states)
	}
	if got := ids(eng, "A"); got != "1" {
		t.Fatalf("A holds %s, want 1", got)
	}
	if got := ids(eng, "B"); got != "1" {
		t.Fatalf("B holds %s, want 1 (its batch came before the refusal was known, or was drained)", got)
	}
}

// A SCHEMA a stream's settings cannot take (delete_missing named for a
// stream without key_properties) is a configuration error (exit 2) at
// that line; the other streams' records before it still commit and the
// state then true is written.
func TestSettingRefusedAtSchemaCommitsWhatCameBefore(t *testing.T) {
	a := `{"type":"SCHEMA","stream":"a","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}`
	b := `{"type":"SCHEMA","stream":"b","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":[]}`
	in := input(a,
		`{"type":"RECORD","stream":"a","record":{"id":1}}`,
		`{"type":"STATE","value":{"s":1}}`,
		b, // line 4: delete_missing needs a key
		`{"type":"RECORD","stream":"a","record":{"id":2}}`,
		`{"type":"STATE","value":{"s":2}}`)
	eng := newEngine()
	states, err := run(t, eng, loadConfig(t, `{"stream_overrides": {"b": {"delete_missing": "hard"}}}`), in)
	var ce *config.Error
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "delete_missing") {
		t.Fatalf("err = %v, want the configuration error", err)
	}
	if strings.Join(states, "|") != `{"s":1}` {
		t.Fatalf("states %q, want {\"s\":1}", states)
	}
	if got := ids(eng, "A"); got != "1" {
		t.Fatalf("A holds %s, want 1", got)
	}
}

// ACTIVATE_VERSION of one stream in a table another stream also loads
// (table_name_mappings) would delete that stream's rows, which do not
// record their stream: it is refused at its line (exit 3), the rows stay,
// and what came before is committed.
func TestActivateVersionRefusedOnSharedTable(t *testing.T) {
	a := `{"type":"SCHEMA","stream":"a","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}`
	b := strings.Replace(a, `"stream":"a"`, `"stream":"b"`, 1)
	in := input(a, b,
		`{"type":"RECORD","stream":"b","record":{"id":100}}`,
		`{"type":"RECORD","stream":"b","record":{"id":101},"version":1}`,
		`{"type":"RECORD","stream":"a","record":{"id":1},"version":5}`,
		`{"type":"STATE","value":{"s":1}}`,
		`{"type":"ACTIVATE_VERSION","stream":"a","version":5}`, // line 7
		`{"type":"STATE","value":{"s":2}}`)
	for _, hard := range []string{"true", "false"} {
		t.Run("hard_delete "+hard, func(t *testing.T) {
			eng := newEngine()
			states, err := run(t, eng, loadConfig(t, `{"table_name_mappings": {"a": "T", "b": "T"}, "hard_delete": `+hard+`}`), in)
			wantInputError(t, err, "would delete the rows of stream(s) b")
			if !strings.HasPrefix(err.Error(), `line 7: stream "a"`) {
				t.Fatalf("error %q does not name line 7 and stream a", err)
			}
			if strings.Join(states, "|") != `{"s":1}` {
				t.Fatalf("states %q, want {\"s\":1}", states)
			}
			if got := ids(eng, "T"); got != "1,100,101" {
				t.Fatalf("T holds %s, want 1,100,101", got)
			}
			for _, r := range eng.Rows("DRY_RUN.T") {
				if r["_SDC_DELETED_AT"] != "" {
					t.Fatalf("row %v soft-deleted", r)
				}
			}
		})
	}
}
