package pipeline_test

import (
	"context"
	"log/slog"
	"slices"
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

// Input streams aliased into one output stream that define a property
// differently: the join gives it the anyOf of their definitions, so its
// column holds both inputs' values (several scalar types: text, the
// longest maxLength) and each input's records load whichever SCHEMA came
// last, in both orders; a record valid for neither input is still refused
// (validate_records checks it against its own input's schema).
func TestAliasedInputsDefiningAPropertyDifferently(t *testing.T) {
	sch := func(s, def string) string {
		return `{"type":"SCHEMA","stream":"` + s + `","schema":{"properties":{"id":{"type":"integer"},"v":` + def + `,"w":{"type":["null","string"],"maxLength":` + map[string]string{"a": "5", "b": "12"}[s] + `}}},"key_properties":["id"]}`
	}
	a, b := sch("a", `{"type":["null","string"]}`), sch("b", `{"type":["null","integer"]}`)
	recs := []string{`{"type":"RECORD","stream":"a","record":{"id":1,"v":"abc","w":"12345"}}`, `{"type":"RECORD","stream":"b","record":{"id":2,"v":42,"w":"123456789012"}}`}
	cfg := loadConfig(t, `{"stream_maps":{"a":{"__alias__":"o"},"b":{"__alias__":"o"}}}`)
	for _, order := range [][]string{{a, b}, {b, a}, {a, b, a}} {
		eng := newEngine()
		states, err := run(t, eng, cfg, input(append(append(order, recs...), state(1))...))
		if err != nil || len(states) != 1 {
			t.Fatalf("%d SCHEMAs: states %v, err %v", len(order), states, err)
		}
		wantValues(t, eng, "O", "V", "abc", "42")
		wantValues(t, eng, "O", "W", "12345", "123456789012")
		var types []string
		for _, c := range eng.Tables()["DRY_RUN.O"].Columns {
			if c.Name == "V" || c.Name == "W" {
				types = append(types, c.Name+" "+c.Type.String())
			}
		}
		slices.Sort(types) // a column made by the first SCHEMA alone is migrated, to the end
		if got := strings.Join(types, ", "); got != "V VARCHAR2(4000 BYTE), W VARCHAR2(12 CHAR)" {
			t.Errorf("columns %s, want V VARCHAR2(4000 BYTE), W VARCHAR2(12 CHAR)", got)
		}
	}
	bad := `{"type":"RECORD","stream":"b","record":{"id":3,"v":"abc"}}`
	if _, err := run(t, newEngine(), cfg, input(a, b, bad, state(1))); err == nil || !strings.Contains(err.Error(), `stream "b"`) {
		t.Errorf("b's record with a string v: err %v, want it refused as b's", err)
	}
}
