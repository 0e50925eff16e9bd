package oracle_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/pipeline"
)

var (
	pruneRunOne = strings.Repeat("a", 32)
	pruneRunTwo = strings.Repeat("b", 32)
)

const pruneUsers = `{"type":"SCHEMA","stream":"users","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}}}}`

func pruneUser(id int, name string) string {
	return fmt.Sprintf(`{"type":"RECORD","stream":"users","record":{"id":%d,"name":%q}}`, id, name)
}

// runWithID runs lines through the pipeline on eng with a fixed run id.
func runWithID(t *testing.T, eng engine.Engine, settings, runID string, lines ...string) ([]string, error) {
	t.Helper()
	var out strings.Builder
	err := pipeline.Run(context.Background(), pipeline.Options{
		Config:   loadConfig(t, settings),
		Engine:   eng,
		Server:   pipeline.Server{DefaultSchema: schemaName, IdentifierMaxBytes: 128, VarcharMaxBytes: 4000},
		Input:    strings.NewReader(strings.Join(lines, "\n") + "\n"),
		StateOut: &out,
		Now:      clock,
		RunID:    runID,
	})
	s := strings.TrimSuffix(out.String(), "\n")
	if s == "" {
		return nil, err
	}
	return strings.Split(s, "\n"), err
}

// fakeUsers is ID, NAME, _SDC_DELETED_AT and _SDC_RUN_ID of each row.
func fakeUsers(db *fake.DB) [][4]string {
	var out [][4]string
	for _, r := range db.Rows(schemaName + ".USERS") {
		out = append(out, [4]string{r["ID"], r["NAME"], r["_SDC_DELETED_AT"], r["_SDC_RUN_ID"]})
	}
	return out
}

// TestDeleteMissingOnFake: the Oracle engine prunes across two runs on one
// fake server as the embedded engine does (same tables, same states): the
// count query first, the one statement in its own transaction; above the
// fraction it fails with the counts and changes nothing; a lost COMMIT of
// the prune is retried (the prune is idempotent); refused keys are kept.
func TestDeleteMissingOnFake(t *testing.T) {
	first := []string{pruneUsers, pruneUser(1, "a"), pruneUser(2, "b"), pruneUser(3, "c"), `{"type":"STATE","value":{"n":1}}`}
	const at = "2025-06-01T12:00:00Z"
	for _, tc := range []struct {
		name, settings string
		second         []string
		fault          *fake.Fault
		want           [][4]string
		states         []string
		wantErr        func(error) bool
	}{
		{
			name:     "soft",
			settings: `{"delete_missing":"soft"}`,
			second:   []string{pruneUsers, pruneUser(1, "a2"), `{"type":"STATE","value":{"n":2}}`, pruneUser(3, "c2"), `{"type":"STATE","value":{"n":3}}`},
			want:     [][4]string{{"1", "a2", "", pruneRunTwo}, {"2", "b", at, pruneRunOne}, {"3", "c2", "", pruneRunTwo}},
			states:   []string{`{"n":3}`},
		},
		{
			name:     "hard",
			settings: `{"delete_missing":"hard"}`,
			second:   []string{pruneUsers, pruneUser(1, "a2"), pruneUser(3, "c2"), `{"type":"STATE","value":{"n":3}}`},
			want:     [][4]string{{"1", "a2", "", pruneRunTwo}, {"3", "c2", "", pruneRunTwo}},
			states:   []string{`{"n":3}`},
		},
		{
			name:     "lost commit",
			settings: `{"delete_missing":"hard"}`,
			second:   []string{pruneUsers, pruneUser(1, "a2"), pruneUser(3, "c2"), `{"type":"STATE","value":{"n":3}}`},
			// The batch's COMMIT is the first, the prune's the second.
			fault:  &fake.Fault{Op: fake.OpCommit, Nth: 2, Applied: true},
			want:   [][4]string{{"1", "a2", "", pruneRunTwo}, {"3", "c2", "", pruneRunTwo}},
			states: []string{`{"n":3}`},
		},
		{
			name:     "fraction",
			settings: `{"delete_missing":"hard"}`,
			second:   []string{pruneUsers, pruneUser(1, "a2"), `{"type":"STATE","value":{"n":2}}`},
			want:     [][4]string{{"1", "a2", "", pruneRunTwo}, {"2", "b", "", pruneRunOne}, {"3", "c", "", pruneRunOne}},
			wantErr: func(err error) bool {
				var pe *engine.PruneRefusedError
				return errors.As(err, &pe) && pe.Prune == 2 && pe.Total == 3 && strings.Contains(err.Error(), "2 of its 3 rows")
			},
		},
		{
			name:     "skipped key kept",
			settings: `{"delete_missing":"soft","on_invalid_record":"skip","delete_missing_max_fraction":0.4}`,
			second:   []string{pruneUsers, pruneUser(1, "a2"), `{"type":"RECORD","stream":"users","record":{"id":2,"name":5}}`, `{"type":"STATE","value":{"n":2}}`},
			want:     [][4]string{{"1", "a2", "", pruneRunTwo}, {"2", "b", "", pruneRunTwo}, {"3", "c", at, pruneRunOne}},
			states:   []string{`{"n":2}`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := defaultRig(t)
			if _, err := runWithID(t, r.eng, tc.settings, pruneRunOne, first...); err != nil {
				t.Fatal(err)
			}
			if tc.fault != nil {
				r.db.Inject(*tc.fault)
			}
			states, err := runWithID(t, r.eng, tc.settings, pruneRunTwo, tc.second...)
			switch {
			case tc.wantErr == nil && err != nil:
				t.Fatal(err)
			case tc.wantErr != nil && !tc.wantErr(err):
				t.Fatalf("error %v: not the one expected", err)
			}
			if got := fakeUsers(r.db); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("rows:\n got %q\nwant %q", got, tc.want)
			}
			if !reflect.DeepEqual(states, tc.states) {
				t.Errorf("states %q, want %q", states, tc.states)
			}
			// The embedded engine, given the same two runs, ends alike.
			m := newMemory()
			if _, err := runWithID(t, m, tc.settings, pruneRunOne, first...); err != nil {
				t.Fatal(err)
			}
			mstates, merr := runWithID(t, m, tc.settings, pruneRunTwo, tc.second...)
			if (merr == nil) != (err == nil) || !reflect.DeepEqual(mstates, states) {
				t.Errorf("embedded engine: states %q error %v; Oracle engine: %q %v", mstates, merr, states, err)
			}
			compare(t, oracleSnapshot(t, r, runMetadata), memorySnapshot(m, runMetadata))
		})
	}
}
