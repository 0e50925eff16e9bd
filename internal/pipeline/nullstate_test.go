package pipeline_test

import (
	"context"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/pipeline"
)

// A STATE whose value is null is a STATE (its value field is there): SPEC
// §7 rule 2 writes "the JSON text of the message's value as received",
// so it is written as the line null once the records before it commit,
// like any other value, and a later state follows it (the Singer SDK's
// targets write null too), with one warning per run: the orchestrator
// stores it, and the tap's next run starts without a bookmark. A STATE
// without a value is invalid input.
func TestNullStateValueIsWrittenAsReceived(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want []string
	}{
		{"alone", input(`{"type":"STATE","value":null}`), []string{"null"}},
		{"after records", input(schemaLine, rec(1, "a"), `{"type":"STATE","value": null }`), []string{"null"}},
		{"between states", input(schemaLine, state(1), rec(1, "a"), `{"type":"STATE","value":null}`, rec(2, "b"), state(2)), []string{`{"n":1}`, "null", `{"n":2}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			states, err := run(t, newEngine(), loadConfig(t, `{"batch_size_rows": 1, "max_parallelism": 1}`), tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(states, tc.want) {
				t.Fatalf("states %q, want %q", states, tc.want)
			}
		})
	}
	_, err := run(t, newEngine(), loadConfig(t, ""), input(schemaLine, `{"type":"STATE"}`))
	wantInputError(t, err, `missing required field "value"`)
}

func TestNullStateValueWarnedOnce(t *testing.T) {
	var logs strings.Builder
	err := pipeline.Run(context.Background(), pipeline.Options{Config: loadConfig(t, ""), Engine: newEngine(),
		Server: testServer,
		Input:  strings.NewReader(input(`{"type":"STATE","value":null}`, state(1), `{"type":"STATE","value":null}`)), StateOut: io.Discard,
		Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(logs.String(), "STATE with a null value"); n != 1 || !strings.Contains(logs.String(), "line=1") {
		t.Fatalf("%d warnings (want 1, at line 1):\n%s", n, logs.String())
	}
}
