package pipeline_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
)

// runDependent are the metadata columns SPEC §7.6 lets differ between an
// interrupted-and-replayed run and an uninterrupted one.
var runDependent = []string{"_SDC_RECEIVED_AT", "_SDC_BATCHED_AT", "_SDC_LOADED_AT", "_SDC_SEQUENCE", "_SDC_SYNC_STARTED_AT"}

func masked(eng *memory.Engine) string {
	var b strings.Builder
	tables := eng.Tables()
	for _, name := range sortedNames(tables) {
		fmt.Fprintf(&b, "%s\n", name)
		for _, r := range eng.Rows(name) {
			for _, c := range runDependent {
				delete(r, c)
			}
			j, _ := json.Marshal(r)
			fmt.Fprintf(&b, "  %s\n", j)
		}
	}
	return b.String()
}

func sortedNames[V any](m map[string]V) []string {
	names := keys(m)
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			if names[j] < names[i] {
				names[i], names[j] = names[j], names[i]
			}
		}
	}
	return names
}

// Crash at every load in turn, then re-run the same input: the final
// tables equal those of an uninterrupted run (run-dependent metadata
// masked), for upsert streams with deletes and a schema change on the way.
func TestReplayAfterCrashGivesSameTables(t *testing.T) {
	v2 := strings.Replace(schemaLine, `"v":{"type":["null","string"]}`, `"v":{"type":["null","string"]},"w":{"type":["null","integer"]}`, 1)
	del := `{"type":"RECORD","stream":"s","record":{"id":2,"_sdc_deleted_at":"2025-01-01T00:00:00Z"}}`
	in := input(schemaLine, rec(1, "a"), rec(2, "b"), state(1), rec(3, "c"), rec(1, "a2"), state(2),
		v2, `{"type":"RECORD","stream":"s","record":{"id":4,"v":"d","w":7}}`, del, state(3), rec(5, "e"), state(4))
	cfg := loadConfig(t, `{"batch_size_rows": 2, "max_parallelism": 1}`)

	clean, loads := uninterrupted(t, cfg, in)
	if loads < 4 {
		t.Fatalf("only %d loads: the scenario does not exercise replays", loads)
	}
	crashEachLoad(t, cfg, in, loads, masked(clean), nil)
}

// uninterrupted runs in on a new engine and returns it with the number of
// loads it made.
func uninterrupted(t *testing.T, cfg *config.Config, in string) (*memory.Engine, int32) {
	t.Helper()
	var loads int32
	clean := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow },
		Hooks: memory.Hooks{Load: func([]engine.Step) error { loads++; return nil }}})
	if _, err := run(t, clean, cfg, in); err != nil {
		t.Fatal(err)
	}
	return clean, loads
}

// crashEachLoad, for each of the loads in turn, runs in on a new engine
// that fails at that load, then again from the start, and requires the
// tables want (run-dependent metadata masked); check, when set, looks
// further at each replayed engine.
func crashEachLoad(t *testing.T, cfg *config.Config, in string, loads int32, want string, check func(*testing.T, *memory.Engine)) {
	t.Helper()
	for crash := int32(1); crash <= loads; crash++ {
		t.Run(fmt.Sprintf("crash at load %d", crash), func(t *testing.T) {
			// The same engine stands for the database across both runs.
			eng := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }, Hooks: failingLoad(crash)})
			if _, err := run(t, eng, cfg, in); err == nil {
				t.Fatalf("no injected failure at load %d", crash)
			}
			if _, err := run(t, eng, cfg, in); err != nil {
				t.Fatalf("replay: %v", err)
			}
			if got := masked(eng); got != want {
				t.Fatalf("after replay:\n%s\nwant:\n%s", got, want)
			}
			if check != nil {
				check(t, eng)
			}
		})
	}
}

// A key change replayed (SPEC §7.6): the input replaces the key of the
// empty table (SCHEMA [id], then SCHEMA [id, v]) and loads records under
// the new key. Crashed after any load and run again from the start, the
// tap re-sends SCHEMA [id] to a table that now has rows under [ID, V]: the
// table's comment records [ID] as the key replaced, so that SCHEMA is the
// input replayed, and the run ends with the uninterrupted run's tables.
// Without the record, the replay failed with "key_properties changed".
func TestReplayAcrossAKeyChange(t *testing.T) {
	newKey := strings.Replace(schemaLine, `"key_properties":["id"]`, `"key_properties":["id","v"]`, 1)
	in := input(schemaLine, newKey, rec(1, "a"), rec(2, "b"), state(1), rec(1, "c"), rec(3, "d"), state(2))
	cfg := loadConfig(t, `{"batch_size_rows": 2, "max_parallelism": 1}`)
	clean, loads := uninterrupted(t, cfg, in)
	if pk := clean.Tables()["DRY_RUN.S"].PrimaryKey; !reflect.DeepEqual(pk, []string{"ID", "V"}) {
		t.Fatalf("uninterrupted run: primary key %v, want [ID V]", pk)
	}
	crashEachLoad(t, cfg, in, loads, masked(clean), func(t *testing.T, eng *memory.Engine) {
		if pk := eng.Tables()["DRY_RUN.S"].PrimaryKey; !reflect.DeepEqual(pk, []string{"ID", "V"}) {
			t.Errorf("after replay: primary key %v, want [ID V]", pk)
		}
	})
}

// The replayed SCHEMA changes nothing, but it does not make the old key
// usable: a record under it still fails (its batch's key check), before
// any STATE after it, and a key given back by a later SCHEMA still fails
// at that SCHEMA when the table never had it replaced.
func TestReplayedKeyStillRefusesRecords(t *testing.T) {
	newKey := strings.Replace(schemaLine, `"key_properties":["id"]`, `"key_properties":["id","v"]`, 1)
	otherKey := strings.Replace(schemaLine, `"key_properties":["id"]`, `"key_properties":["v"]`, 1)
	cfg := loadConfig(t, `{"max_parallelism": 1}`)
	for _, tc := range []struct {
		name, second string
		states       int
	}{
		{"a record under the replaced key", input(schemaLine, state(8), rec(5, "e"), state(9)), 1},
		{"a key the table never had", input(otherKey, rec(5, "e"), state(9)), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }})
			if _, err := run(t, eng, cfg, input(schemaLine, newKey, rec(1, "a"), state(1))); err != nil {
				t.Fatal(err)
			}
			states, err := run(t, eng, cfg, tc.second)
			if err == nil || !strings.Contains(err.Error(), "key_properties changed") {
				t.Fatalf("second run: %v, want the key change refused", err)
			}
			if len(states) != tc.states {
				t.Errorf("states %q, want %d", states, tc.states)
			}
			if got := masked(eng); strings.Contains(got, `"ID":5`) {
				t.Errorf("the refused record was loaded:\n%s", got)
			}
		})
	}
}
