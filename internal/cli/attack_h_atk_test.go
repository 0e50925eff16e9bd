package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/verify"
)

// TestEvolutionRefusalDrainsLikeKeyChange (found by an attack): a SCHEMA that needs a
// change schema_evolution refuses stops the run (exit 1), but what it writes
// before stopping depends on timing. Input (refuse3.in):
//
//	1 SCHEMA s            2 SCHEMA t (v maxLength 3)
//	3 RECORD t id 1       4 STATE 1
//	5 RECORD s id 1       6 STATE 2
//	7 SCHEMA t (v maxLength 10: MODIFY refused)
//	8 RECORD t id 2       9 STATE 3
//
// Reproduction: echo '{"schema_evolution":"fail"}' > fail.json;
// for i in 1 2 3 4 5 6; do target-oracle --dry-run --config fail.json
// --input refuse3.in --dry-run-dump dd; done
// prints, run to run, no state, "1", or "1 2" — also "1" with both records
// in the dump (state 2 was true and never written, SPEC §7.2). The
// key-change refusal at the same line (docs/guarantees.md: "the other
// streams' records read before it are committed, the state then true is
// written") gives "1 2" every time. The refusal should drain the same way.
func TestEvolutionRefusalDrainsLikeKeyChange(t *testing.T) {
	in := `{"type":"SCHEMA","stream":"s","schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}},"key_properties":["id"]}
{"type":"SCHEMA","stream":"t","schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"],"maxLength":3}}},"key_properties":["id"]}
{"type":"RECORD","stream":"t","record":{"id":1,"v":"a"}}
{"type":"STATE","value":1}
{"type":"RECORD","stream":"s","record":{"id":1,"v":"a"}}
{"type":"STATE","value":2}
{"type":"SCHEMA","stream":"t","schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"],"maxLength":10}}},"key_properties":["id"]}
{"type":"RECORD","stream":"t","record":{"id":2,"v":"b"}}
{"type":"STATE","value":3}
`
	cfg := writeFile(t, "c.json", `{"schema_evolution":"fail"}`)
	for i := 0; i < 30; i++ {
		out, errs, code := runMain(t, in, nil, "--dry-run", "--config", cfg)
		if code != 1 || out != "1\n2\n" {
			t.Fatalf("run %d: exit %d, stdout %q; want 1 and both true states \"1\\n2\\n\"; stderr:\n%s", i, code, out, errs)
		}
		if !strings.Contains(errs, `line 7: stream "t"`) {
			t.Fatalf("run %d: error does not name line 7 and stream t:\n%s", i, errs)
		}
	}
}

// TestAttackAliasedSchemaWithoutPropertiesAccepted: SPEC §4 "A schema
// without properties is invalid input unless the stream's storage mode is
// json". With table_name_mappings {"s0":"S0","s2":"S0"} a later SCHEMA
// {"type":"object"} for s2 is refused (line 5, exit 3); with stream_maps
// {"s2":{"__alias__":"s0"}} and a SCHEMA of s0 in the input, the same line
// is accepted silently (exit 0) and s2's later records load as before.
// Without s0's own SCHEMA, the alias refuses it too. Reproduction: the
// input below with --dry-run --config {"stream_maps":{"s2":{"__alias__":"s0"}}}.
func TestAttackAliasedSchemaWithoutPropertiesAccepted(t *testing.T) {
	in := `{"type":"SCHEMA","stream":"s0","schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}},"key_properties":["id"]}
{"type":"SCHEMA","stream":"s2","schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s2","record":{"id":1,"v":"a"}}
{"type":"STATE","value":1}
{"type":"SCHEMA","stream":"s2","schema":{"type":"object"},"key_properties":["id"]}
{"type":"RECORD","stream":"s2","record":{"id":2,"v":"b"}}
{"type":"STATE","value":2}
`
	for _, settings := range []string{`{"table_name_mappings":{"s0":"S0","s2":"S0"}}`, `{"stream_maps":{"s2":{"__alias__":"s0"}}}`} {
		cfg := writeFile(t, "c.json", settings)
		out, errs, code := runMain(t, in, nil, "--dry-run", "--config", cfg)
		if code != 3 || out != "1\n" || !strings.Contains(errs, "line 5: ") || !strings.Contains(errs, "schema has no properties") {
			t.Errorf("%s: exit %d, stdout %q; want 3, state 1 only, and line 5's schema refused; stderr:\n%s", settings, code, out, errs)
		}
	}
}

// TestAttackAliasErrorNamesOutputStreamOnly: with stream_maps
// {"s2":{"__alias__":"s0"}}, an invalid record of input stream s2 is
// reported as `line 3: stream "s0": property "v": "b" is not of type
// integer`: line 3 of the input says stream "s2". docs/stream-maps.md
// words expression errors with the input stream and `stream map (output
// "people")`; validation errors name only the output, so the user looks
// for the wrong stream. Reproduction: the input below with --dry-run
// --config {"stream_maps":{"s2":{"__alias__":"s0"}}}.
func TestAttackAliasErrorNamesOutputStreamOnly(t *testing.T) {
	in := `{"type":"SCHEMA","stream":"s2","schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","integer"]}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s2","record":{"id":1,"v":1}}
{"type":"RECORD","stream":"s2","record":{"id":2,"v":"b"}}
`
	cfg := writeFile(t, "c.json", `{"stream_maps":{"s2":{"__alias__":"s0"}}}`)
	_, errs, code := runMain(t, in, nil, "--dry-run", "--config", cfg)
	if code != 3 || !strings.Contains(errs, `line 3: stream "s2"`) {
		t.Errorf("exit %d; want 3 and an error naming line 3 and the input's stream \"s2\"; stderr:\n%s", code, errs)
	}
}

// TestAttackBatchRefusalNamesNoFileRow: a78e009 makes a schema_evolution
// refusal name "the first record whose value does not fit". For a record
// that came in a BATCH file it names only the BATCH message's line:
// `line 4: stream "s": table DRY_RUN.S needs changes …`, while every other
// error about a BATCH row names the file and the row (`line 4: BATCH file
// "file:///…/b.jsonl" row 2: stream "s": property "v": …`). With a
// manifest of many files of many rows the user cannot find the record.
// Reproduction: b.jsonl = {"id":2,"v":"a"} / {"id":3,"v":"x"×5000}; input
// SCHEMA s, RECORD id 1, STATE, BATCH [file://…/b.jsonl], STATE, with
// {"schema_evolution":"fail"}.
func TestAttackBatchRefusalNamesNoFileRow(t *testing.T) {
	rows := writeFile(t, "b.jsonl", `{"id":2,"v":"a"}`+"\n"+`{"id":3,"v":"`+strings.Repeat("x", 5000)+`"}`+"\n")
	in := `{"type":"SCHEMA","stream":"s","schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":1,"v":"abc"}}
{"type":"STATE","value":1}
{"type":"BATCH","stream":"s","encoding":{"format":"jsonl","compression":"none"},"manifest":["file://` + rows + `"]}
{"type":"STATE","value":2}
`
	cfg := writeFile(t, "c.json", `{"schema_evolution":"fail","batch_size_rows":1}`)
	out, errs, code := runMain(t, in, nil, "--dry-run", "--config", cfg)
	if code != 1 || out != "1\n" {
		t.Fatalf("exit %d, stdout %q; want 1 and state 1; stderr:\n%s", code, out, errs)
	}
	if !strings.Contains(errs, `line 4: BATCH file "file://`+rows+`" row 2: stream "s": table DRY_RUN.S needs changes`) {
		t.Errorf("the refusal does not name the BATCH file and row 2:\n%s", errs)
	}
}

// TestAttackDottedPropertyPathIsAmbiguous: column_mappings and
// ignored_columns take property paths joined with ".", but a property key
// may itself contain "." (table.FormatComment keeps paths as JSON arrays
// for that reason). With a top-level property "a.b" and a nested a→b in
// flattened mode:
//   - column_mappings {"s":{"a.b":"AB"}} failed with `properties "a.b" and
//     "a.b" are both mapped to column "AB"` (exit 2): the message names one
//     path twice and neither property can be mapped at all;
//   - ignored_columns ["a.b"] silently dropped the nested a→b and loaded the
//     top-level "a.b" (column A_B), with no warning that the path matched
//     two properties.
//
// Reproduction: the input below with --dry-run and
// {"storage_mode":"flattened","column_mappings":{"s":{"a.b":"AB"}}}.
// SPEC §3 says "a.b names a nested property" and gives no escape for a
// key holding "."; the fix refuses a path that names two properties (a
// configuration error, exit 2) naming the setting, the path and both
// properties as JSON arrays, with the stream-map way to rename one
// (docs/types.md). A dotted path naming one property works as before.
func TestAttackDottedPropertyPathIsAmbiguous(t *testing.T) {
	in := `{"type":"SCHEMA","stream":"s","schema":{"type":"object","properties":{"id":{"type":"integer"},"a":{"type":"object","properties":{"b":{"type":"string"}}},"a.b":{"type":"string"}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":1,"a":{"b":"nested"},"a.b":"dotted"}}
`
	for _, tc := range []struct{ settings, key string }{
		{`{"storage_mode":"flattened","column_mappings":{"s":{"a.b":"AB"}}}`, "column_mappings"},
		{`{"storage_mode":"flattened","ignored_columns":["a.b"]}`, "ignored_columns"},
		{`{"ignored_columns":{"s":["a.b"]}}`, "ignored_columns"},
	} {
		cfg := writeFile(t, "c.json", tc.settings)
		_, errs, code := runMain(t, in, nil, "--dry-run", "--config", cfg)
		if strings.Contains(errs, `properties "a.b" and "a.b"`) {
			t.Errorf("%s: the error names one path twice and says nothing of the ambiguity:\n%s", tc.settings, errs)
		}
		if code != 2 || !strings.Contains(errs, tc.key) || !strings.Contains(errs, `path "a.b" names two properties`) || !strings.Contains(errs, `["a.b"]`) || !strings.Contains(errs, `["a","b"]`) {
			t.Errorf("%s: exit %d; want 2 and an error naming %s, the path and both properties; stderr:\n%s", tc.settings, code, tc.key, errs)
		}
	}
	// One property per path: the path works as before.
	one := strings.Replace(in, `,"a.b":{"type":"string"}`, "", 1)
	cfg := writeFile(t, "c.json", `{"storage_mode":"flattened","column_mappings":{"s":{"a.b":"AB"}}}`)
	if _, errs, code := runMain(t, one, nil, "--dry-run", "--config", cfg); code != 0 {
		t.Errorf("a path naming one property: exit %d; stderr:\n%s", code, errs)
	}
}

// TestInvalidStringNamesTheProperty (found by an attack): SPEC §8 wants every invalid
// record reported with its line, stream and property. A record whose
// string value holds an unpaired surrogate escape or invalid UTF-8 names
// only a byte offset: `line 2: stream "s": invalid UTF-16 in string:
// unpaired surrogate escape at byte 53` and `line 2: stream "s": invalid
// UTF-8 at byte 53`. In a record of 300 properties the user must count
// bytes. The reader finds it before any decoder, so the property is known
// only by walking to the offset; the message could say `property "v"`.
// (internal/singer defer_test.go pins today's wording.) Reproduction:
// printf '%s\n{"type":"RECORD","stream":"s","record":{"id":1,"v":"\ud800"}}\n' "$SCHEMA" | target-oracle --dry-run
func TestInvalidStringNamesTheProperty(t *testing.T) {
	schema := `{"type":"SCHEMA","stream":"s","schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}},"key_properties":["id"]}` + "\n"
	for _, rec := range []string{`{"type":"RECORD","stream":"s","record":{"id":1,"v":"\ud800"}}`, "{\"type\":\"RECORD\",\"stream\":\"s\",\"record\":{\"id\":1,\"v\":\"\xff\"}}"} {
		_, errs, code := runMain(t, schema+rec+"\n", nil, "--dry-run")
		if code != 3 || !strings.Contains(errs, `line 2: stream "s": property "v"`) {
			t.Errorf("exit %d; want 3 and an error naming line 2, stream s and property v; stderr:\n%s", code, errs)
		}
	}
}

// TestGeneratedTableTakesVerifyScratchName (found by an attack): SPEC §2 says --verify's
// scratch table is "a name no load can take" and --verify drops (PURGE)
// leftovers TARGET_ORACLE$VERIFY_<8 hex> older than an hour;
// config.checkNotScratch keeps table_name_mappings and table_prefix off
// the prefix, but a generated name is not checked. Stream
// "target_oracle$verify_deadbeef" ('$' is in the conformed alphabet) loads
// into table TARGET_ORACLE$VERIFY_DEADBEEF, and so do table_prefix
// "target_" + stream "oracle$verify_deadbeef", and a stream map
// __alias__ "target_oracle$verify_deadbeef"; the next --verify on that
// schema an hour later drops the table with its rows, for good
// (verify.DropLeftovers matches it). Likewise TARGET_ORACLE$BENCH_… and
// --benchmark. Reproduction: the input below | target-oracle --dry-run
// --dry-run-dump d; ls d/tables.
func TestGeneratedTableTakesVerifyScratchName(t *testing.T) {
	for _, tc := range []struct{ stream, settings string }{
		{"target_oracle$verify_deadbeef", `{}`},
		{"oracle$verify_deadbeef", `{"table_prefix":"target_"}`},
		{"s", `{"stream_maps":{"s":{"__alias__":"target_oracle$verify_deadbeef"}}}`},
	} {
		in := `{"type":"SCHEMA","stream":"` + tc.stream + `","schema":{"type":"object","properties":{"id":{"type":"integer"}}},"key_properties":["id"]}
{"type":"RECORD","stream":"` + tc.stream + `","record":{"id":1}}
{"type":"STATE","value":1}
`
		dump := filepath.Join(t.TempDir(), "dump")
		cfg := writeFile(t, "c.json", tc.settings)
		_, errs, code := runMain(t, in, nil, "--dry-run", "--config", cfg, "--dry-run-dump", dump)
		files, _ := os.ReadDir(filepath.Join(dump, "tables"))
		if code != 0 || len(files) != 1 {
			t.Errorf("stream %q with %s: exit %d, tables %v; want 0 and one table; stderr:\n%s", tc.stream, tc.settings, code, files, errs)
		}
		for _, f := range files {
			name := strings.TrimSuffix(strings.TrimPrefix(f.Name(), "DRY_RUN."), ".jsonl")
			if verify.ScratchName(name) || strings.HasPrefix(strings.ToUpper(name), "TARGET_ORACLE$VERIFY_") {
				t.Errorf("stream %q with %s: exit %d, loaded into %s, a name --verify drops as its leftover; stderr:\n%s", tc.stream, tc.settings, code, name, errs)
			}
		}
	}
}

// TestStreamSchemaRoutesIntoSys (found by an attack): with default_target_schema
// "{stream_schema}" the tap's stream names pick the owner, and nothing
// keeps Oracle's own schemas out: streams "sys-orders", "system-x" and
// "xdb-z" create SYS.ORDERS, SYSTEM.X and XDB.Z (statements.sql of a dry
// run). A loader granted CREATE ANY TABLE (common for multi-schema
// loads) then writes into the data dictionary's owner. Oracle-maintained
// schemas (ALL_USERS.ORACLE_MAINTAINED = 'Y': SYS, SYSTEM, XDB, AUDSYS,
// …) should be refused, or need an explicit schema_mapping. Reproduction:
// the input below | target-oracle --dry-run --config
// {"default_target_schema":"{stream_schema}"} --dry-run-dump d.
func TestStreamSchemaRoutesIntoSys(t *testing.T) {
	for _, tc := range []struct{ stream, settings, schema, key string }{
		{"sys-orders", `{"default_target_schema":"{stream_schema}"}`, "SYS", "default_target_schema"},
		{"system-x", `{"default_target_schema":"{stream_schema}"}`, "SYSTEM", "default_target_schema"},
		{"db-xdb-z", `{"default_target_schema":"{stream_schema}"}`, "XDB", "default_target_schema"},
	} {
		in := `{"type":"SCHEMA","stream":"ok-t","schema":{"type":"object","properties":{"id":{"type":"integer"}}},"key_properties":["id"]}
{"type":"RECORD","stream":"ok-t","record":{"id":1}}
{"type":"STATE","value":1}
{"type":"SCHEMA","stream":"` + tc.stream + `","schema":{"type":"object","properties":{"id":{"type":"integer"}}},"key_properties":["id"]}
{"type":"RECORD","stream":"` + tc.stream + `","record":{"id":1}}
`
		dump := filepath.Join(t.TempDir(), "dump")
		cfg := writeFile(t, "c.json", tc.settings)
		out, errs, code := runMain(t, in, nil, "--dry-run", "--config", cfg, "--dry-run-dump", dump)
		files, _ := os.ReadDir(filepath.Join(dump, "tables"))
		for _, f := range files {
			if strings.HasPrefix(f.Name(), tc.schema+".") {
				t.Errorf("%s: exit %d: stream %s loaded into %s; stderr:\n%s", tc.stream, code, tc.stream, f.Name(), errs)
			}
		}
		if code != 2 || out != "1\n" || !strings.Contains(errs, tc.key) || !strings.Contains(errs, `line 4: stream "`+tc.stream+`"`) || !strings.Contains(errs, "schema "+tc.schema+", a schema Oracle maintains") {
			t.Errorf("%s: exit %d, stdout %q; want 2, state 1, and an error naming %s, line 4, the stream and schema %s; stderr:\n%s", tc.stream, code, out, tc.key, tc.schema, errs)
		}
	}
	// A schema the user wrote is used verbatim, as mappings are: other
	// projects' tests load into SYSTEM on a test database.
	for _, settings := range []string{`{"default_target_schema":"SYSTEM"}`, `{"schema_mapping":{"a":"SYSTEM"},"default_target_schema":"{stream_schema}"}`} {
		cfg := writeFile(t, "c.json", settings)
		in := `{"type":"SCHEMA","stream":"a-t","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}` + "\n"
		_, errs, code := runMain(t, in, nil, "--dry-run", "--config", cfg)
		if code != 0 {
			t.Errorf("%s: exit %d; want 0 (a schema the user named); stderr:\n%s", settings, code, errs)
		}
	}
}
