package cli

import (
	"strings"
	"testing"
)

// TestEvolutionRefusalNamesTheSchemaLine (found by an attack): every other input-driven failure
// names the input line and the stream ("line 4: stream \"s\": ..."), but a
// change that schema_evolution refused reported only the table and the DDL:
// "load failed: table DRY_RUN.S needs changes that schema_evolution "fail"
// does not allow: ALTER TABLE ... MODIFY ("V" VARCHAR2(10 CHAR))". With many
// streams, shared tables or a long input, the user cannot tell which SCHEMA
// (line 4 here) or stream asked for it (table.EvolutionError carries neither).
func TestEvolutionRefusalNamesTheSchemaLine(t *testing.T) {
	in := `{"type":"SCHEMA","stream":"s","schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":"string","maxLength":3}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":1,"v":"abc"}}
{"type":"STATE","value":1}
{"type":"SCHEMA","stream":"s","schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":"string","maxLength":10}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":2,"v":"abcdefg"}}
{"type":"STATE","value":2}
`
	cfg := writeFile(t, "c.json", `{"schema_evolution":"fail"}`)
	out, errs, code := runMain(t, in, nil, "--dry-run", "--config", cfg)
	if code == 0 {
		t.Fatalf("exit 0, want a failure; stderr:\n%s", errs)
	}
	if out != "1\n" {
		t.Errorf("stdout %q, want only the state before the refused SCHEMA", out)
	}
	i := strings.Index(errs, "schema_evolution")
	if i < 0 {
		t.Fatalf("no schema_evolution error in stderr:\n%s", errs)
	}
	line := errs[strings.LastIndex(errs[:i], "\n")+1:]
	for _, want := range []string{"line 4", `stream "s"`} {
		if !strings.Contains(line, want) {
			t.Errorf("error %q does not name %s", line, want)
		}
	}
}

// A batch whose values need a change schema_evolution refuses names the
// first record whose value does not fit, not the batch's first line.
func TestEvolutionRefusalOfABatchNamesTheRecord(t *testing.T) {
	in := `{"type":"SCHEMA","stream":"s","schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":"string"}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":1,"v":"abc"}}
{"type":"STATE","value":1}
{"type":"RECORD","stream":"s","record":{"id":2,"v":"abc"}}
{"type":"RECORD","stream":"s","record":{"id":3,"v":"` + strings.Repeat("x", 5000) + `"}}
{"type":"STATE","value":2}
`
	cfg := writeFile(t, "c.json", `{"schema_evolution":"fail","batch_size_rows":2}`)
	out, errs, code := runMain(t, in, nil, "--dry-run", "--config", cfg)
	if code != 1 || out != "1\n" {
		t.Fatalf("exit %d, stdout %q; want 1 and only the first state; stderr:\n%s", code, out, errs)
	}
	if !strings.Contains(errs, `line 5: stream "s": table DRY_RUN.S needs changes that schema_evolution "fail" does not allow`) {
		t.Errorf("error does not name line 5 and stream s:\n%s", errs)
	}
}
