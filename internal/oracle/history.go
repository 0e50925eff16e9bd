package oracle

import (
	"context"
	"fmt"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// historyStep is a load_method history batch in the plan: its statements
// run inside the batch's transaction in three steps, read, decide in Go,
// write (oraclesql.HistoryStatements).
type historyStep struct {
	h  *engine.History
	st oraclesql.HistoryStatements
}

// loadHistory runs a history batch in tx: it reads the stored versions of
// the batch's keys (locking them), decides the versions with
// engine.History.Decide, then closes the changed keys' current versions
// with one array UPDATE and adds the new versions with one array INSERT
// (each in chunks of at most MaxArrayRows rows). Round trips: one query
// per KeysPerQuery keys, plus the fetches, plus up to three array
// executes (close, touch, insert; more only past MaxArrayRows rows).
func (s *session) loadHistory(ctx context.Context, tx Tx, hs *historyStep, res *engine.Result) *failure {
	h := hs.h
	versions, err := s.readVersions(ctx, tx, hs)
	if err != nil {
		return &failure{err: err}
	}
	cur := h.Table.Column(h.Columns[h.IsCurrent])
	if cur == nil {
		return &failure{err: fmt.Errorf("history: the table has no column %s", h.Columns[h.IsCurrent])}
	}
	isTrue, isFalse := engine.Booleans(cur.Type)
	plan, err := h.Decide(versions, isTrue, isFalse)
	if err != nil {
		return &failure{err: err}
	}
	h.Adjusted = plan.Adjusted
	closing := make([]engine.Row, len(plan.Close))
	for i, c := range plan.Close {
		vals := append([]string{c.ValidTo, isFalse}, c.Key...)
		closing[i] = engine.Row{Kind: engine.RowUpsert, Line: c.Line, Values: append(vals, c.ValidFrom)}
	}
	touching := make([]engine.Row, len(plan.Touch))
	for i, c := range plan.Touch {
		vals := append([]string{c.Version}, c.Key...)
		touching[i] = engine.Row{Kind: engine.RowUpsert, Line: c.Line, Values: append(vals, c.ValidFrom)}
	}
	w := &engine.Write{Table: h.Table, Method: engine.Insert, Columns: h.Columns, KeyColumns: h.KeyColumns, DatabaseTime: h.DatabaseTime}
	for _, step := range []planned{
		{st: hs.st.Close, table: h.Table.QualifiedName(), role: roleUpdate, rows: closing},
		{st: hs.st.Touch, table: h.Table.QualifiedName(), role: roleUpdate, rows: touching},
		{st: hs.st.Insert, table: h.Table.QualifiedName(), role: roleInsert, rows: plan.Insert, write: w},
	} {
		for lo := 0; lo < len(step.rows); lo += s.e.o.MaxArrayRows {
			hi := min(lo+s.e.o.MaxArrayRows, len(step.rows))
			n, err := s.exec(ctx, tx, &step, step.rows[lo:hi])
			if err != nil {
				return &failure{err: err}
			}
			step.count(res, n)
		}
	}
	return nil
}

// readVersions runs the Read statement for the batch's keys, KeysPerQuery
// at a time (places left over are bound NULL), and returns the versions by
// engine.History.HistoryKey.
func (s *session) readVersions(ctx context.Context, tx Tx, hs *historyStep) (map[string][]engine.Version, error) {
	h, read := hs.h, hs.st.Read
	nk := len(h.KeyColumns)
	var keys [][]string // distinct keys, in order of first appearance
	seen := make(map[string]bool, len(h.Rows))
	var kb []byte
	idx := make([]int, nk)
	for i, k := range h.KeyColumns {
		for j, c := range h.Columns {
			if c == k {
				idx[i] = j
			}
		}
	}
	for _, r := range h.Rows {
		kb = h.HistoryKey(r.Values, kb)
		if seen[string(kb)] {
			continue
		}
		seen[string(kb)] = true
		k := make([]string, nk)
		for i, j := range idx {
			k[i] = r.Values[j]
		}
		keys = append(keys, k)
	}
	out := make(map[string][]engine.Version, len(keys))
	per := hs.st.KeysPerQuery
	for lo := 0; lo < len(keys); lo += per {
		st := read
		st.Binds = append([]oraclesql.Bind(nil), read.Binds...)
		for i := range st.Binds {
			st.Binds[i].Value = ""
		}
		for i, k := range keys[lo:min(lo+per, len(keys))] {
			for j, v := range k {
				st.Binds[i*nk+j].Value = v
			}
		}
		args, err := s.b.scalarArgs(&st)
		if err != nil {
			return nil, err
		}
		sctx, cancel := s.statementContext(ctx)
		rows, err := tx.Query(sctx, &st, args)
		err = s.timedOut(ctx, sctx, err)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("read the stored versions: %w", err)
		}
		for _, row := range rows {
			if len(row) != nk+3 {
				return nil, fmt.Errorf("read the stored versions: %d columns, want %d", len(row), nk+3)
			}
			kb = kb[:0]
			for _, v := range row[:nk] {
				kb = engine.AppendKey(kb, v.String)
			}
			out[string(kb)] = append(out[string(kb)], engine.Version{
				ValidFrom: row[nk].String, ValidTo: row[nk+1].String, Hash: row[nk+2].String})
		}
	}
	return out, nil
}
