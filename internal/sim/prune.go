package sim

import "math/rand/v2"

// delete_missing in the simulation (SPEC §6.4). A trial's input is one
// sync, and a run resumed after a crash re-sends every record of a
// delete_missing stream (its states are held until the end of input), so
// the final run writes every row the input leaves in the table: the prune
// must change nothing the model holds, whatever crash, fault or signal
// came before it, and no state may cover such a stream's records before
// the end (checkHeld).

// addPrune gives some upsert streams with keys delete_missing, soft or
// hard, chosen by a generator of its own so that a seed's other draws (its
// input, settings and kill points) stay what they were. Avoid["prune"]
// ("-avoid prune") leaves it out.
func addPrune(sc *Scenario, overrides map[string]any) {
	if Avoid["prune"] {
		return
	}
	r := rand.New(rand.NewPCG(sc.Seed^0x7072756e65, sc.Seed))
	for i := range sc.Streams {
		st := &sc.Streams[i]
		if st.Method != Upsert || st.Keyless || r.IntN(4) != 0 {
			continue
		}
		st.Prune = "soft"
		if r.IntN(2) == 0 {
			st.Prune = "hard"
		}
		if o, ok := overrides[st.Name].(map[string]any); ok {
			o["delete_missing"] = st.Prune
		}
	}
}

// holds reports whether the stream's states are held until the end of
// input: resetting streams and delete_missing streams.
func (s *Scenario) holds(name string) bool {
	return s.resets(name) || s.stream(name).Prune != ""
}
