package pipeline_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/table"
)

// overwrite and truncate_before_load replace the rows of the table at the
// stream's first flush, so there a changed key_properties replaces the
// primary key of a table that has rows (SPEC §4: "on an empty table (or
// at overwrite's first flush) the primary key is simply replaced"). A
// SCHEMA with no records after it leaves the table, key included,
// unchanged (SPEC §6.2); a key change after the first flush still fails.
func TestKeyChangeAtTheFirstFlushThatReplacesRows(t *testing.T) {
	byV := strings.Replace(schemaLine, `"key_properties":["id"]`, `"key_properties":["v"]`, 1)
	for _, settings := range []string{`{"load_method": "overwrite"}`, `{"truncate_before_load": true}`, `{"load_method": "overwrite", "truncate_before_load": true}`} {
		t.Run(settings, func(t *testing.T) {
			eng := newEngine()
			if _, err := run(t, eng, loadConfig(t, ""), input(schemaLine, rec(1, "a"), rec(2, "a"))); err != nil {
				t.Fatal(err)
			}
			states, err := run(t, eng, loadConfig(t, settings), input(byV, rec(3, "b"), rec(4, "c"), state(1)))
			if err != nil {
				t.Fatal(err)
			}
			tb := eng.Tables()["DRY_RUN.S"]
			if !reflect.DeepEqual(tb.PrimaryKey, []string{"V"}) || !tb.Column("ID").Nullable || tb.Column("V").Nullable {
				t.Fatalf("after the key change: key %v, ID nullable %v, V nullable %v", tb.PrimaryKey, tb.Column("ID").Nullable, tb.Column("V").Nullable)
			}
			if !reflect.DeepEqual(tb.ReplacedKey, []string{"ID"}) {
				t.Errorf("table comment records replaced key %v, want [ID]", tb.ReplacedKey)
			}
			if got := ids(eng, "S"); got != "3,4" {
				t.Errorf("rows %s, want only this run's 3,4", got)
			}
			if !reflect.DeepEqual(states, []string{`{"n":1}`}) {
				t.Errorf("states %q", states)
			}
		})
	}
	t.Run("a SCHEMA without records changes nothing", func(t *testing.T) {
		eng := newEngine()
		if _, err := run(t, eng, loadConfig(t, ""), input(schemaLine, rec(1, "a"))); err != nil {
			t.Fatal(err)
		}
		if _, err := run(t, eng, loadConfig(t, `{"load_method": "overwrite"}`), input(byV, state(1))); err != nil {
			t.Fatal(err)
		}
		if pk := eng.Tables()["DRY_RUN.S"].PrimaryKey; !reflect.DeepEqual(pk, []string{"ID"}) {
			t.Errorf("primary key %v, want [ID] kept", pk)
		}
		if got := ids(eng, "S"); got != "1" {
			t.Errorf("rows %s, want 1 kept", got)
		}
	})
	t.Run("after the first flush the key may not change", func(t *testing.T) {
		eng := newEngine()
		_, err := run(t, eng, loadConfig(t, `{"load_method": "overwrite"}`), input(schemaLine, rec(1, "a"), byV, rec(2, "b")))
		wantInputError(t, err, "key_properties changed from [ID] to [V]")
	})
}

// A run killed at any DDL, load or truncate of a key change at overwrite's
// or truncate_before_load's first flush and run again ends with the tables
// of the run that was not killed (SPEC §7.6): the interim table without a
// primary key, or with rows it does not yet have, is finished by the next
// run.
func TestKeyChangeAtTheFirstFlushReplayed(t *testing.T) {
	byV := strings.Replace(schemaLine, `"key_properties":["id"]`, `"key_properties":["v"]`, 1)
	first := input(schemaLine, rec(1, "a"), rec(2, "a"))
	in := input(byV, rec(3, "b"), rec(4, "c"), state(1), rec(5, "d"), state(2))
	for _, settings := range []string{`{"load_method": "overwrite", "batch_size_rows": 2, "max_parallelism": 1}`, `{"truncate_before_load": true, "batch_size_rows": 2, "max_parallelism": 1}`} {
		cfg := loadConfig(t, settings)
		var ops atomic.Int32
		hook := func() error { return nil }
		clean := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }, Hooks: countingHooks(&hook)})
		if _, err := run(t, clean, loadConfig(t, ""), first); err != nil {
			t.Fatal(err)
		}
		hook = func() error { ops.Add(1); return nil }
		if _, err := run(t, clean, cfg, in); err != nil {
			t.Fatal(err)
		}
		want := masked(clean)
		n := ops.Load()
		for crash := int32(1); crash <= n; crash++ {
			t.Run(fmt.Sprintf("%s crash at operation %d of %d", settings, crash, n), func(t *testing.T) {
				hook := func() error { return nil }
				eng := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }, Hooks: countingHooks(&hook)})
				if _, err := run(t, eng, loadConfig(t, ""), first); err != nil {
					t.Fatal(err)
				}
				var calls atomic.Int32
				hook = func() error {
					if calls.Add(1) == crash {
						return errors.New("injected: killed")
					}
					return nil
				}
				if _, err := run(t, eng, cfg, in); err == nil {
					t.Fatalf("no injected failure at operation %d", crash)
				}
				hook = func() error { return nil }
				if _, err := run(t, eng, cfg, in); err != nil {
					t.Fatalf("run again: %v", err)
				}
				if got := masked(eng); got != want {
					t.Fatalf("after the second run:\n%s\nwant:\n%s", got, want)
				}
				if pk := eng.Tables()["DRY_RUN.S"].PrimaryKey; !reflect.DeepEqual(pk, []string{"V"}) {
					t.Errorf("primary key %v, want [V]", pk)
				}
			})
		}
	}
}

// countingHooks calls *f before every DDL change, load and truncate (the
// test sets *f between runs; the runs do not overlap).
func countingHooks(f *func() error) memory.Hooks {
	return memory.Hooks{
		Apply:    func(engine.Change) error { return (*f)() },
		Load:     func([]engine.Step) error { return (*f)() },
		Truncate: func(*table.Table) error { return (*f)() },
	}
}

// Two key changes in a row on the empty table: SCHEMA [id], then [v], then
// [id, v], with no record between. The table ends with the last key, and a
// run killed at any DDL or load and run again with the same input ends with
// the same tables (SPEC §7.6): the input replayed re-sends SCHEMA [id] and
// [v] to a table with rows under [ID, V], and both are keys the table had
// before its key was replaced, not new changes.
func TestTwoKeyChangesInARow(t *testing.T) {
	byV := strings.Replace(schemaLine, `"key_properties":["id"]`, `"key_properties":["v"]`, 1)
	both := strings.Replace(schemaLine, `"key_properties":["id"]`, `"key_properties":["id","v"]`, 1)
	in := input(schemaLine, byV, both, rec(1, "a"), rec(2, "b"), state(1), rec(1, "c"), rec(3, "d"), state(2))
	cfg := loadConfig(t, `{"batch_size_rows": 2, "max_parallelism": 1}`)
	var ops atomic.Int32
	hook := func() error { ops.Add(1); return nil }
	clean := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }, Hooks: countingHooks(&hook)})
	if _, err := run(t, clean, cfg, in); err != nil {
		t.Fatal(err)
	}
	want := masked(clean)
	tb := clean.Tables()["DRY_RUN.S"]
	if !reflect.DeepEqual(tb.PrimaryKey, []string{"ID", "V"}) || tb.Column("ID").Nullable || tb.Column("V").Nullable {
		t.Fatalf("uninterrupted run: key %v, ID nullable %v, V nullable %v", tb.PrimaryKey, tb.Column("ID").Nullable, tb.Column("V").Nullable)
	}
	if got := ids(clean, "S"); got != "1,1,2,3" {
		t.Errorf("rows %s", got)
	}
	t.Run("the same input again", func(t *testing.T) {
		eng := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }})
		for i := range 2 {
			if _, err := run(t, eng, cfg, in); err != nil {
				t.Fatalf("run %d: %v", i+1, err)
			}
		}
		if got := masked(eng); got != want {
			t.Fatalf("after the second run:\n%s\nwant:\n%s", got, want)
		}
	})
	n := ops.Load()
	for crash := int32(1); crash <= n; crash++ {
		t.Run(fmt.Sprintf("crash at operation %d of %d", crash, n), func(t *testing.T) {
			var calls atomic.Int32
			hook := func() error {
				if calls.Add(1) == crash {
					return errors.New("injected: killed")
				}
				return nil
			}
			eng := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }, Hooks: countingHooks(&hook)})
			if _, err := run(t, eng, cfg, in); err == nil {
				t.Fatalf("no injected failure at operation %d", crash)
			}
			hook = func() error { return nil }
			if _, err := run(t, eng, cfg, in); err != nil {
				t.Fatalf("run again: %v", err)
			}
			if got := masked(eng); got != want {
				t.Fatalf("after the second run:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// The variants: records between the changes (the table has rows: the
// second change fails, SPEC §4), and overwrite / truncate_before_load on a
// table with rows, where the SCHEMAs leave the key alone and the first
// flush replaces it with the last one.
func TestTwoKeyChangesInARowVariants(t *testing.T) {
	byV := strings.Replace(schemaLine, `"key_properties":["id"]`, `"key_properties":["v"]`, 1)
	both := strings.Replace(schemaLine, `"key_properties":["id"]`, `"key_properties":["id","v"]`, 1)
	t.Run("records between", func(t *testing.T) {
		_, err := run(t, newEngine(), loadConfig(t, ""), input(schemaLine, byV, rec(1, "a"), both, rec(2, "b")))
		wantInputError(t, err, "key_properties changed from [V] to [ID V]")
	})
	for _, settings := range []string{`{"load_method": "overwrite"}`, `{"truncate_before_load": true}`} {
		t.Run(settings, func(t *testing.T) {
			eng := newEngine()
			if _, err := run(t, eng, loadConfig(t, ""), input(schemaLine, rec(1, "a"), rec(2, "a"))); err != nil {
				t.Fatal(err)
			}
			in := input(byV, both, rec(3, "b"), rec(4, "c"), state(1))
			for i := range 2 { // and the same input again
				if _, err := run(t, eng, loadConfig(t, settings), in); err != nil {
					t.Fatalf("run %d: %v", i+1, err)
				}
				tb := eng.Tables()["DRY_RUN.S"]
				if !reflect.DeepEqual(tb.PrimaryKey, []string{"ID", "V"}) || tb.Column("ID").Nullable || tb.Column("V").Nullable {
					t.Fatalf("run %d: key %v, ID nullable %v, V nullable %v", i+1, tb.PrimaryKey, tb.Column("ID").Nullable, tb.Column("V").Nullable)
				}
				if got := ids(eng, "S"); got != "3,4" {
					t.Errorf("run %d: rows %s, want 3,4", i+1, got)
				}
			}
		})
	}
}
