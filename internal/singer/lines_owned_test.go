package singer

import (
	"bytes"
	"strings"
	"testing"
)

// A line over keepScratch is read into a buffer of its own that later
// reads never overwrite (LineOwned): the pipeline hands it on without a
// copy, so a 127 MiB line is not alive three times (issue 13 item 14).
func TestLongLineIsOwned(t *testing.T) {
	long := `{"type":"STATE","value":{"pad":"` + strings.Repeat("x", keepScratch+10) + `"}}`
	in := long + "\n" + `{"type":"STATE","value":{"n":1}}` + "\n" + long + "\n"
	r := NewReader(strings.NewReader(in), ReaderOptions{})
	m, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if !r.LineOwned() {
		t.Fatal("a line over keepScratch is not owned")
	}
	first := m.Value
	want := bytes.Clone(first)
	if _, err := r.Next(); err != nil || r.LineOwned() {
		t.Fatalf("short line: err %v, owned %v", err, r.LineOwned())
	}
	// A STATE's value is compacted: it must be compacted into the owned
	// line, not into the buffer the next STATE reuses (the pipeline wrote
	// {"n":1}"xxx… for the long state).
	if !bytes.Equal(first, want) {
		t.Fatalf("an owned line's value was overwritten by the next STATE: %.20q", first)
	}
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, want) {
		t.Fatal("an owned line's bytes were overwritten by a later read")
	}
}
