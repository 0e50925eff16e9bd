package metrics

import "time"

// Pruned counts the rows delete_missing removed (or marked deleted) from a
// stream's table as deleted (SPEC §6.4, §9). The prune is not a batch.
func (r *Registry) Pruned(stream string, rows int64, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.stream(stream)
	s.Deleted += rows
	s.LoadTime += d.Seconds()
}

// HoldStates records that a stream holds back every state until the end of
// input (overwrite, truncate_before_load, delete_missing): the progress
// line says so, so that a user watching for states knows why none come.
func (r *Registry) HoldStates(stream, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.held == "" {
		r.held = stream + ": " + why
	}
}

// heldText is the progress line's note on held states, or "".
func (r *Registry) heldText() string {
	if r.held == "" {
		return ""
	}
	return "; states held until end of input (" + printable(r.held) + ")"
}
