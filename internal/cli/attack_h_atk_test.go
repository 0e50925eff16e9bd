package cli

import (
	"strings"
	"testing"
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
