package pipeline

import (
	"fmt"
	"strings"
	"testing"
)

// The cache answers as the map does for every name, whether the string is
// the one cached, a copy of it, a name not there yet (and added later), or
// empty, with more streams than entries.
func TestStreamCacheAnswersAsTheMap(t *testing.T) {
	streams := map[string]*stream{}
	var c streamCache
	names := make([]string, 1000)
	for i := range names {
		names[i] = fmt.Sprintf("s%d", i)
	}
	for round := range 3 {
		for i, n := range names {
			if i%2 == round%2 && streams[n] == nil {
				streams[n] = &stream{name: n}
			}
			for _, q := range []string{n, strings.Clone(n), n[:len(n)-1], ""} {
				if got, want := c.lookup(streams, q), streams[q]; got != want {
					t.Fatalf("round %d: lookup(%q) = %v, want %v", round, q, got, want)
				}
			}
		}
	}
	streams[""] = &stream{}
	if c.lookup(streams, "") != streams[""] {
		t.Fatal(`lookup("") misses the stream named ""`)
	}
}
