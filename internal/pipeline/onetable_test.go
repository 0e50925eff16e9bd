package pipeline_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/pipeline"
)

// Streams that load into one table must agree on their keys (SPEC §4:
// "Streams mapped to one table (mappings, aliases) give it the join of
// their schemas; their keys must agree"), however they come to share it:
// a stream map's __alias__ makes two input streams one output stream,
// whose SCHEMAs then alternate (a key change of that stream before: on
// an empty table the key was silently replaced). ({stream_schema}
// routing of two streams to one name is a collision: the second takes a
// suffixed table, tables.go.) The second
// SCHEMA fails at its own line, naming both streams, both keys and the
// table, before any of its records is loaded; the first stream's rows
// before it stay.
func TestStreamsIntoOneTableDisagreeingOnKeys(t *testing.T) {
	sch := func(stream, key string) string {
		return `{"type":"SCHEMA","stream":"` + stream + `","key_properties":["` + key + `"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"email":{"type":["null","string"]}}}}`
	}
	recOf := func(stream string, id int) string {
		return `{"type":"RECORD","stream":"` + stream + `","record":{"id":` + string(rune('0'+id)) + `,"email":"e` + string(rune('0'+id)) + `"}}`
	}
	for _, tc := range []struct {
		name, settings string
		a, b           string // input streams
		keyB           string
		table          string
		want           string
	}{
		{"alias", `{"stream_maps": {"users": {"__alias__": "people"}, "admins": {"__alias__": "people"}}}`, "users", "admins", "email", "PEOPLE",
			`line 4: stream "admins": streams "users" (key_properties [id]) and "admins" (key_properties [email]) both load into table DRY_RUN.PEOPLE (stream "people"): their keys must agree`},
		{"alias and __key_properties__", `{"stream_maps": {"users": {"__alias__": "people"}, "admins": {"__alias__": "people", "__key_properties__": ["email"]}}}`, "users", "admins", "id", "PEOPLE",
			`line 4: stream "admins": streams "users" (key_properties [id]) and "admins" (key_properties [email]) both load into table DRY_RUN.PEOPLE (stream "people"): their keys must agree`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := newEngine()
			_, err := run(t, eng, loadConfig(t, tc.settings), input(sch(tc.a, "id"), recOf(tc.a, 1), state(1), sch(tc.b, tc.keyB), recOf(tc.b, 2)))
			wantInputError(t, err, "keys must agree")
			if err.Error() != tc.want {
				t.Errorf("error\n%s\nwant\n%s", err, tc.want)
			}
			// On the empty table too: the key is not replaced.
			_, err = run(t, newEngine(), loadConfig(t, tc.settings), input(sch(tc.a, "id"), sch(tc.b, tc.keyB), recOf(tc.b, 2)))
			if want := strings.Replace(tc.want, "line 4", "line 2", 1); err == nil || err.Error() != want {
				t.Errorf("without records before: error\n%v\nwant\n%s", err, want)
			}
			for q := range eng.Tables() {
				if strings.HasSuffix(q, "."+tc.table) {
					if got := ids(eng, strings.TrimPrefix(q, "DRY_RUN.")); q == "DRY_RUN."+tc.table && got != "1" {
						t.Errorf("rows %s, want the first stream's 1 only", got)
					}
					if pk := eng.Tables()[q].PrimaryKey; strings.Join(pk, ",") != "ID" {
						t.Errorf("primary key %v, want [ID] kept", pk)
					}
				}
			}
		})
	}
}

// Input streams aliased into one stream give its table the join of their
// schemas (SPEC §4), whichever SCHEMA came last: a record of one keeps
// the properties only its own schema has (before, the other SCHEMA
// replaced it, and they were dropped as "not in the schema"), a property
// one requires and the other lacks is not required of the other's
// records, and switching between the two SCHEMAs again is no change.
func TestAliasedStreamsJoinTheirSchemas(t *testing.T) {
	users := `{"type":"SCHEMA","stream":"users","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"email":{"type":"string"}},"required":["id","email"]}}`
	admins := `{"type":"SCHEMA","stream":"admins","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"role":{"type":"string"}},"required":["id"]}}`
	u := func(id int, email string) string {
		return `{"type":"RECORD","stream":"users","record":{"id":` + string(rune('0'+id)) + `,"email":"` + email + `"}}`
	}
	a := func(id int, role string) string {
		return `{"type":"RECORD","stream":"admins","record":{"id":` + string(rune('0'+id)) + `,"role":"` + role + `"}}`
	}
	cfg := loadConfig(t, `{"batch_size_rows": 1, "stream_maps": {"users": {"__alias__": "people"}, "admins": {"__alias__": "people"}}}`)
	for _, tc := range []struct{ name, in string }{
		{"schemas first", input(users, admins, u(1, "x"), a(2, "r"), state(1))},
		{"interleaved", input(users, u(1, "x"), admins, a(2, "r"), users, state(1))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs strings.Builder
			eng := newEngine()
			states, err := runLogged(t, eng, cfg, tc.in, &logs)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(logs.String(), "not in the schema") {
				t.Errorf("properties dropped:\n%s", logs.String())
			}
			wantValues(t, eng, "PEOPLE", "EMAIL", "x", "")
			wantValues(t, eng, "PEOPLE", "ROLE", "", "r")
			if strings.Join(states, " ") != `{"n":1}` {
				t.Errorf("states %q", states)
			}
		})
	}
}

// runLogged is run with the log written to logs.
func runLogged(t testing.TB, eng *memory.Engine, cfg *config.Config, in string, logs *strings.Builder) ([]string, error) {
	t.Helper()
	var out strings.Builder
	o := runOptions(cfg, eng, in, &out)
	o.Log = slog.New(slog.NewTextHandler(logs, nil))
	err := pipeline.Run(context.Background(), o)
	return lines(out.String()), err
}
