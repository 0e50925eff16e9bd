package singer

import (
	"errors"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/inputerr"
)

// An empty stream name names no table (docs/types.md): every message that
// carries a stream refuses "" as invalid input, naming the line and what
// was expected, before any table is named from it. A name that conforms to
// underscores ("...", "-") is a name and is kept.
func TestEmptyStreamNameRefused(t *testing.T) {
	for _, line := range []string{
		`{"type":"SCHEMA","stream":"","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}`,
		`{"type":"RECORD","stream":"","record":{"id":1}}`,
		`{"type":"BATCH","stream":"","encoding":{"format":"jsonl"},"manifest":[]}`,
		`{"type":"ACTIVATE_VERSION","stream":"","version":1}`,
	} {
		r := NewReader(strings.NewReader(`{"type":"STATE","value":1}`+"\n"+line+"\n"), ReaderOptions{})
		if _, err := readNext(r); err != nil {
			t.Fatal(err)
		}
		_, err := readNext(r)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Line != 2 || err.Error() != `line 2: "stream" is empty (expected the stream's name)` {
			t.Errorf("%s: got %v (%T)", line, err, err)
		}
	}
	for _, name := range []string{"...", "-", "___", " "} {
		msgs, err := readAll(t, `{"type":"RECORD","stream":"`+name+`","record":{"id":1}}`, ReaderOptions{})
		if err != nil || len(msgs) != 1 || msgs[0].Stream != name {
			t.Errorf("stream %q: got %v, %v", name, msgs, err)
		}
	}
}
