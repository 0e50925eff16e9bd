package pipeline

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/singer"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/value"
)

// delete_missing (SPEC §6.4): at the end of a complete run, rows of a
// stream's table that the run did not write are soft- or hard-deleted.
// The rules, and why, are in docs/guarantees.md; the pieces here:
//
//   - every row a run writes carries its run id in _SDC_RUN_ID (write fills
//     it like _SDC_BATCHED_AT), so "not written by this run" is one
//     comparison with <>, never a time;
//   - keys of records the run skipped or rejected are marked written
//     before the prune (engine.KeepKeys);
//   - states are held until the end of input (holdsStates), the prune runs
//     after every stream has flushed and before the final state, once per
//     table, and only when its guards hold.

// streamPrune is what the pipeline notes about a delete_missing stream.
type streamPrune struct {
	mode       string // soft | hard
	records    int64  // records read for the stream (loaded or refused)
	lastRecord int64  // input line of its last RECORD
	activated  bool   // it sent an ACTIVATE_VERSION in this run
	// refused holds the key values (in key column order) of the records
	// on_invalid_record skipped or rejected; unreadable is set when one
	// such record's key could not be read, and then the table is not
	// pruned.
	refused    [][]string
	unreadable bool
}

// newRunID returns 32 hex digits from the system's random source: a run id
// differs from every earlier run's without any clock.
func newRunID() (string, error) {
	var b [table.RunIDBytes / 2]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("run id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// decidePrune decides at a stream's SCHEMA whether it prunes: delete_missing
// applies to upsert streams with key_properties. Set by name on another
// stream it is a configuration error; set globally or by a pattern, such a
// stream is skipped with one warning.
func (p *pipeline) decidePrune(s *stream, keys []string, line int64) error {
	mode := s.settings.DeleteMissing
	if mode == "" || mode == config.DeleteMissingNone {
		s.prune = nil
		s.opts.UsesRunID = false
		return nil
	}
	why := ""
	switch {
	case len(keys) == 0:
		why = "the stream has no key_properties"
	case s.settings.LoadMethod != config.MethodUpsert:
		why = fmt.Sprintf("its load_method is %s", s.settings.LoadMethod)
	}
	if why != "" {
		if s.settings.DeleteMissingByName {
			return lineConfigError("stream_overrides", line, fmt.Sprintf(
				"stream %q: delete_missing %s needs an upsert stream with key_properties, but %s", s.name, mode, why))
		}
		if !s.warnedPrune {
			s.warnedPrune = true
			p.log.Warn("delete_missing does not apply to this stream and is skipped: it needs an upsert stream with key_properties",
				"stream", s.name, "reason", why)
		}
		s.prune = nil
		s.opts.UsesRunID = false
		return nil
	}
	if s.prune == nil {
		s.prune = &streamPrune{}
	}
	s.prune.mode = mode
	s.opts.UsesRunID = true
	return nil
}

// prunedRecord notes a RECORD of a delete_missing stream (loaded or
// refused): guard (b) compares its line with the last STATE's.
func (sp *streamPrune) prunedRecord(line int64) {
	sp.records++
	sp.lastRecord = line
}

// refusedKey keeps the key of a record on_invalid_record skipped or
// rejected: it counts as written (SPEC §6.4).
func (p *pipeline) refusedKey(s *stream, m *singer.Message) {
	sp := s.prune
	if sp == nil {
		return
	}
	sp.prunedRecord(m.Line)
	if s.firstRecord == 0 {
		p.holdStates(s, m.Line) // a refused record is covered by states as a loaded one is
	}
	p.keepKey(s, m)
}

// keepKey keeps a refused record's key out of the prune: skipped or
// rejected by on_invalid_record, or refused by the database under
// on_database_error: reject (writeRefused). Such keys count as written.
func (p *pipeline) keepKey(s *stream, m *singer.Message) {
	sp := s.prune
	if sp == nil || sp.unreadable {
		return
	}
	key, err := p.recordKey(s, m)
	if err != nil {
		sp.unreadable = true
		p.log.Warn("delete_missing: the key of a refused record cannot be read, so its table is not pruned in this run",
			"stream", s.name, "line", m.Line, "err", err.Error())
		return
	}
	sp.refused = append(sp.refused, key)
}

// recordKey reads the key values of a record as the key columns store
// them. Stream maps may rename or compute keys, and only the mapped record
// would tell: with stream maps a refused record's key is not read.
func (p *pipeline) recordKey(s *stream, m *singer.Message) ([]string, error) {
	if !p.maps.Empty() {
		return nil, errors.New("stream maps are in use")
	}
	if s.layout == nil {
		return nil, errors.New("no SCHEMA")
	}
	dec := json.NewDecoder(bytes.NewReader(m.Record))
	dec.UseNumber()
	var rec map[string]any
	if err := dec.Decode(&rec); err != nil {
		return nil, err
	}
	cols := s.layout.Table().Columns
	idx := s.layout.KeyIndexes()
	if len(idx) != len(s.keys) {
		return nil, errors.New("key columns do not match key_properties")
	}
	out := make([]string, len(idx))
	for i, k := range s.keys {
		v, err := keyText(cols[idx[i]].Type, rec[k])
		if err != nil {
			return nil, fmt.Errorf("key property %q: %w", k, err)
		}
		out[i] = v
	}
	return out, nil
}

// keyText is a key value as a column of type t stores it.
func keyText(t table.Type, v any) (string, error) {
	switch t.Kind {
	case table.KindNumber:
		n, ok := v.(json.Number)
		if !ok {
			return "", fmt.Errorf("%v is not a number", v)
		}
		c, _, err := value.CanonicalNumber(string(n))
		return c, err
	case table.KindVarchar:
		switch v := v.(type) {
		case string:
			if v == "" {
				return "", errors.New("empty")
			}
			return v, nil
		case json.Number:
			c, _, err := value.CanonicalNumber(string(v))
			return c, err
		}
	case table.KindTimestamp:
		if s, ok := v.(string); ok {
			c, _, err := value.CanonicalDateTime([]byte(s))
			return c, err
		}
	}
	return "", fmt.Errorf("%v cannot be read as a %s key", v, t)
}

// pruneTarget is one table to prune and the streams that load into it.
type pruneTarget struct {
	name    string
	streams []*stream
}

// pruneTargets groups the run's streams by table, in the order tables
// first appear, keeping the tables a delete_missing stream loads into.
func (p *pipeline) pruneTargets() []*pruneTarget {
	var out []*pruneTarget
	by := map[string]*pruneTarget{}
	for _, s := range p.order {
		if s.layout == nil {
			continue
		}
		name := s.layout.Table().QualifiedName()
		t := by[name]
		if t == nil {
			t = &pruneTarget{name: name}
			by[name] = t
			out = append(out, t)
		}
		t.streams = append(t.streams, s)
	}
	keep := out[:0]
	for _, t := range out {
		for _, s := range t.streams {
			if s.prune != nil {
				keep = append(keep, t)
				break
			}
		}
	}
	return keep
}

// pruneMissing runs at a clean end of input (guard a), after every stream
// has flushed and before the final state is written: it prunes each
// delete_missing table whose guards hold. A prune refused by
// delete_missing_max_fraction fails the run.
func (p *pipeline) pruneMissing(ctx context.Context) error {
	var failed error
	for _, t := range p.pruneTargets() {
		mode, ok := p.pruneGuards(t)
		if !ok {
			continue
		}
		if err := p.pruneTable(ctx, t, mode); err != nil {
			var pe *engine.PruneRefusedError
			if !errors.As(err, &pe) {
				return err
			}
			// Nothing was pruned in this table; the others still may be,
			// and the run fails with every refusal's counts logged.
			p.log.Error("delete_missing refused", "table", t.name, "prune", pe.Prune, "rows", pe.Total, "delete_missing_max_fraction", pe.MaxFraction)
			if failed == nil {
				failed = err
			}
		}
	}
	return failed
}

// pruneGuards checks guards (b) and the per-stream rules for one table:
// every stream into it prunes in the same mode, read records, sent no
// ACTIVATE_VERSION, had a STATE after its last RECORD, and left no refused
// record whose key is unknown. It logs why a table is not pruned.
func (p *pipeline) pruneGuards(t *pruneTarget) (mode string, ok bool) {
	skip := func(s *stream, why string) (string, bool) {
		p.log.Info("delete_missing: nothing pruned", "table", t.name, "stream", s.name, "reason", why)
		return "", false
	}
	for _, s := range t.streams {
		sp := s.prune
		switch {
		case sp == nil:
			return skip(s, "another stream into the table does not use delete_missing")
		case mode != "" && sp.mode != mode:
			return skip(s, "the streams into the table disagree on delete_missing")
		case sp.records == 0:
			return skip(s, "the stream sent a SCHEMA and no RECORD")
		case sp.activated:
			return skip(s, "the stream sent ACTIVATE_VERSION in this run")
		case p.lastState <= sp.lastRecord:
			return skip(s, "no STATE came after the stream's last RECORD (an extract that stopped early?)")
		case sp.unreadable:
			return skip(s, "the key of a skipped or rejected record could not be read")
		}
		mode = sp.mode
	}
	return mode, true
}

// pruneTable marks the refused keys as written (their own transaction:
// marking is true whatever follows), then prunes the table in one
// transaction. The pruned rows count as deleted for the table's first
// stream.
func (p *pipeline) pruneTable(ctx context.Context, t *pruneTarget, mode string) error {
	first := t.streams[0]
	cur, err := p.tables.describe(ctx, first.opts.Schema, first.layout.Table().Name)
	if err != nil {
		return fmt.Errorf("describe %s: %w", t.name, err)
	}
	if cur == nil || cur.Column(table.MetaRunID) == nil || cur.Column(table.MetaDeletedAt) == nil {
		return fmt.Errorf("delete_missing: table %s has no %s/%s columns", t.name, table.MetaRunID, table.MetaDeletedAt)
	}
	var loaders []string
	for _, s := range t.streams {
		loaders = append(loaders, s.name)
	}
	if others, why := p.otherSharers(t.name, cur.Streams, loaders, nil); len(others) > 0 { // sharers.go
		// Streams of other runs load the table too (its comment names
		// them, or the configuration maps them there): the rows do not
		// record their stream, so a prune would delete theirs.
		p.log.Warn("delete_missing: nothing pruned: the table also holds the rows of streams that did not load in this run",
			"table", t.name, "streams", strings.Join(others, ", "), "why", why)
		return nil
	}
	sess, err := p.session(ctx, first.name)
	if err != nil {
		return err
	}
	defer func() { p.sessions <- sess }()
	unlock := p.tables.lock(t.name)
	defer unlock()
	var keep []engine.Row
	for _, s := range t.streams {
		for _, k := range s.prune.refused {
			keep = append(keep, engine.Row{Kind: engine.RowUpsert, Values: k})
		}
	}
	if len(keep) > 0 {
		lt := first.layout.Table()
		keyCols := make([]string, 0, len(first.layout.KeyIndexes()))
		for _, i := range first.layout.KeyIndexes() {
			keyCols = append(keyCols, lt.Columns[i].Name)
		}
		step := &engine.KeepKeys{Table: cur, KeyColumns: keyCols, Rows: keep, RunColumn: table.MetaRunID, RunID: p.runID}
		if _, err := sess.Load(ctx, []engine.Step{step}); err != nil {
			return fmt.Errorf("delete_missing: mark the keys of skipped or rejected records in %s: %w", t.name, err)
		}
	}
	step := &engine.DeleteMissing{
		Table:         cur,
		RunColumn:     table.MetaRunID,
		RunID:         p.runID,
		Hard:          mode == "hard",
		DeletedColumn: table.MetaDeletedAt,
		At:            canonicalTime(p.o.Now()),
		MaxFraction:   p.cfg.DeleteMissingMaxFraction,
	}
	start := time.Now()
	res, err := sess.Load(ctx, []engine.Step{step})
	if err != nil {
		return fmt.Errorf("delete_missing on %s: %w", t.name, err)
	}
	p.metrics.Pruned(first.name, res.Deleted, time.Since(start))
	p.log.Info("delete_missing: pruned the rows this run did not write", "table", t.name, "mode", mode, "rows", res.Deleted, "counted", res.Known)
	return nil
}

// signalled reports whether a signal has come (a drain may end at EOF after
// one): a signalled run prunes nothing.
func (p *pipeline) signalled() bool {
	select {
	case <-p.o.Stop:
		return true
	default:
		return false
	}
}
