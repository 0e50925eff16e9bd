package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/tablemap"
)

// load_method history (slowly changing dimension, type 2): the pipeline's
// part. The semantics are in docs/guarantees.md; the versions are decided
// by engine.History.Decide inside each engine's transaction.

func isHistory(s *stream) bool { return s.settings.History() }

// historySchema refuses at a history stream's SCHEMA (exit 2) what
// history cannot do: a stream without key_properties (versions are told
// apart by key), and delete_missing hard (history never deletes a row).
func (p *pipeline) historySchema(s *stream, keys []string, line int64) error {
	switch {
	case !isHistory(s):
		return nil
	case s.settings.DeleteMissing == config.DeleteMissingHard:
		return lineConfigError("delete_missing", line, fmt.Sprintf(
			"stream %q: delete_missing hard conflicts with load_method history, which never deletes a row: remove one (stream_overrides)", s.name))
	case len(keys) == 0:
		return lineConfigError("load_method", line, fmt.Sprintf(
			"stream %q: load_method history needs key_properties, and the stream's SCHEMA has none: give the stream another load_method (stream_overrides)", s.name))
	}
	return nil
}

// historyLayout checks a history stream's layout against its settings and
// the table it finds: history_valid_from must name a date-time column,
// and an existing table must be one a history load made (SPEC §6.2).
func (p *pipeline) historyLayout(s *stream, l *tablemap.Layout, existing *table.Table, line int64) error {
	if !isHistory(s) {
		return nil
	}
	if path := p.cfg.HistoryValidFrom; path != "" {
		if _, err := validFromColumn(l, path); err != nil {
			return lineConfigError("history_valid_from", line, fmt.Sprintf("stream %q: %v", s.name, err))
		}
	}
	if existing == nil || existing.IsHistory() {
		return nil
	}
	return &inputerr.Error{Line: line, Stream: s.name, Msg: historyProcedure(existing, l.Table())}
}

// validFromColumn is the position of the column history_valid_from names.
func validFromColumn(l *tablemap.Layout, path string) (int, error) {
	for i, c := range l.Table().Columns {
		if c.Role != table.RoleProperty || strings.Join(c.Source, ".") != path {
			continue
		}
		if k := c.Type.Kind; k != table.KindTimestamp && k != table.KindDate {
			return -1, fmt.Errorf("history_valid_from %q is column %s of type %s, not a date-time: give the property \"format\": \"date-time\"", path, table.Quote(c.Name), c.Type)
		}
		return i, nil
	}
	return -1, fmt.Errorf("history_valid_from %q is not a column of table %s: it must name a date-time property stored in its own column (top level, or flattened)", path, l.Table().QualifiedName())
}

// historyProcedure is the refusal of an existing table that no history
// load made, with the manual procedure that turns it into one.
func historyProcedure(cur, want *table.Table) string {
	steps := oraclesql.HistoryByHand(cur, want)
	hc := table.HistoryColumns()
	return fmt.Sprintf("load_method history needs a table that keeps versions, and table %s is not one (it lacks the history columns %s or a primary key ending with %s). "+
		"To convert it by hand: %s (%s stays NULL: the next record of each key adds a version; with boolean_type boolean set %s = TRUE). "+
		"Or load the stream into a new table (table_name_mappings). See docs/guarantees.md.",
		cur.QualifiedName(), strings.Join(hc[:], ", "), table.MetaValidFrom,
		strings.Join(steps, " "), table.MetaRowHash, table.MetaIsCurrent)
}

// history builds the History step of a batch: every record in load order
// with its raw valid-from and its row hash.
func (p *pipeline) history(j *job, t *table.Table) *engine.History {
	l, b := j.layout, j.buf
	lt := l.Table()
	cols := make([]string, len(lt.Columns))
	for i, c := range lt.Columns {
		cols[i] = c.Name
	}
	keys := l.KeyIndexes()
	h := &engine.History{Table: t, Columns: cols, Exact: p.cfg.HistoryValidFrom != "",
		ValidFrom: l.MetaIndex(table.MetaValidFrom), ValidTo: l.MetaIndex(table.MetaValidTo),
		IsCurrent: l.MetaIndex(table.MetaIsCurrent), RowHash: l.MetaIndex(table.MetaRowHash),
		TableVersion: l.MetaIndex(table.MetaTableVersion)}
	for _, k := range keys {
		h.KeyColumns = append(h.KeyColumns, cols[k])
	}
	if i := l.MetaIndex(table.MetaLoadedAt); i >= 0 {
		h.DatabaseTime = cols[i]
	}
	prop := -1
	if p.cfg.HistoryValidFrom != "" {
		prop, _ = validFromColumn(l, p.cfg.HistoryValidFrom) // checked at the SCHEMA
	}
	hashed := hashedColumns(lt)
	batched := canonicalTime(p.o.Now())
	batchedIdx, deletedIdx := l.MetaIndex(table.MetaBatchedAt), l.MetaIndex(table.MetaDeletedAt)
	n := b.rows()
	rows := slices.Grow(b.engineRows[:0], n)
	var hb []byte
	for i := 0; i < n; i++ {
		vals := b.row(i)
		if batchedIdx >= 0 {
			b.set(vals, batchedIdx, batched)
		}
		// The property, else time_extracted (filled by the row builder),
		// else the batch time.
		if prop >= 0 && vals[prop] != "" {
			if vf, err := engine.CanonicalTime(vals[prop]); err == nil {
				b.set(vals, h.ValidFrom, vf)
			}
		}
		if vals[h.ValidFrom] == "" {
			b.set(vals, h.ValidFrom, batched)
		}
		hb = rowHash(hb[:0], vals, hashed, cols)
		b.set(vals, h.RowHash, hex.EncodeToString(hb))
		r := engine.Row{Kind: engine.RowUpsert, Line: b.lines[i], Values: vals}
		if deletedIdx >= 0 && vals[deletedIdx] != "" {
			r.Kind = engine.RowSoftDelete // closes the current version, whatever hard_delete says
		}
		rows = append(rows, r)
	}
	b.engineRows = rows[:0]
	h.Rows = rows
	return h
}

// hashedColumns are the positions of the columns a row hash covers: the
// record's own (properties, keys, the json document), in column-name
// order, so that the hash does not depend on the table's column order.
func hashedColumns(t *table.Table) []int {
	var idx []int
	for i, c := range t.Columns {
		if c.Role == table.RoleProperty || c.Role == table.RoleDocument {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(t.Columns[a].Name, t.Columns[b].Name) })
	return idx
}

// rowHash is SHA-256 over the hashed columns that are not NULL, each as
// its name and value, length first (engine.AppendKey): a column added by
// schema evolution, NULL in old records, leaves their hash alone.
func rowHash(dst []byte, vals []string, hashed []int, cols []string) []byte {
	h := sha256.New()
	var kb []byte
	for _, i := range hashed {
		if vals[i] == "" {
			continue
		}
		kb = engine.AppendKey(engine.AppendKey(kb[:0], cols[i]), vals[i])
		h.Write(kb)
	}
	return h.Sum(dst)
}

// loadHistory runs a history batch and logs, once per stream, that
// valid-froms were moved.
func (p *pipeline) loadHistory(ctx context.Context, sess engine.Session, j *job, t *table.Table) (engine.Result, error) {
	h := p.history(j, t)
	if err := j.buf.checkHeldUnderRace(); err != nil {
		return engine.Result{}, err
	}
	res, err := sess.Load(ctx, []engine.Step{h})
	if err != nil {
		return res, fmt.Errorf("load %s: %w", t.QualifiedName(), err)
	}
	if h.Adjusted > 0 && !j.work.historyAdjusted {
		j.work.historyAdjusted = true
		p.log.Info("history: a valid-from was not after the key's latest valid-from or valid-to and became that + 1 µs (logged once per stream)",
			"stream", j.name, "table", t.QualifiedName(), "records_in_batch", h.Adjusted)
	}
	return res, nil
}

// closeVersions is ACTIVATE_VERSION on a history table: current versions
// of older table versions are closed, nothing is deleted.
func closeVersions(j *job, cur *table.Table, vc string) *engine.CloseVersions {
	return &engine.CloseVersions{Table: cur, Version: j.version, At: j.at, VersionColumn: vc,
		ValidFrom: table.MetaValidFrom, ValidTo: table.MetaValidTo, IsCurrent: table.MetaIsCurrent}
}
