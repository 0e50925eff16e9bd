package sim

import (
	"strings"
	"testing"
)

// TestGeneratorPrunes: delete_missing streams, soft and hard, come up
// among the first seeds, only on upsert streams with keys, with the
// setting in the stream's override; "-avoid prune" leaves them out.
func TestGeneratorPrunes(t *testing.T) {
	modes := map[string]int{}
	for s := uint64(1); s <= 100; s++ {
		sc := Generate(s)
		for _, st := range sc.Streams {
			if st.Prune == "" {
				continue
			}
			modes[st.Prune]++
			if st.Method != Upsert || st.Keyless {
				t.Errorf("seed %d: delete_missing on %s stream %s (keyless %v)", s, st.Method, st.Name, st.Keyless)
			}
			o := sc.Settings["stream_overrides"].(map[string]any)[st.Name].(map[string]any)
			if o["delete_missing"] != st.Prune {
				t.Errorf("seed %d: stream %s override %v lacks delete_missing %s", s, st.Name, o, st.Prune)
			}
		}
	}
	if modes["soft"] == 0 || modes["hard"] == 0 {
		t.Errorf("modes generated: %v", modes)
	}
	defer setAvoid("prune")()
	for s := uint64(1); s <= 100; s++ {
		for _, st := range Generate(s).Streams {
			if st.Prune != "" {
				t.Fatalf("seed %d: -avoid prune still prunes stream %s", s, st.Name)
			}
		}
	}
	if in := Input(Generate(1).Msgs); !strings.Contains(in, "SCHEMA") {
		t.Errorf("seed 1 input %q", in)
	}
}
