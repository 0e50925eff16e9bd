package sim

import (
	"fmt"
	"strings"
	"time"

	"github.com/target-oracle/target-oracle/internal/table"
)

// The reference model: what each table holds after a sequence of messages,
// per SPEC §6.2 (upsert: the last record per key wins and replaces the
// whole row; append: every record is a row), §6.4 (soft and hard deletes)
// and §6.5 (ACTIVATE_VERSION). Records apply one by one, as SPEC §6.3 says
// a batch's result must be.

// Columns compared: the properties and the metadata columns whose values
// the input decides. _SDC_DELETED_AT set by ACTIVATE_VERSION is the fixed
// test clock.
var compared = []string{"ID", "K2", "Q", "V", "N", table.MetaDeletedAt, table.MetaTableVersion}

// Now is the fixed clock of every simulated run.
var Now = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

type row map[string]string

type mtable struct {
	keys  []string // identity key columns (upper case); none: every record is a row
	skeys []string // key_properties (upper case): hard deletes match on them
	rows  []row    // insertion order
}

// Model is the set of tables, by stream (each stream has its own table).
type Model struct {
	sc     *Scenario
	tables map[string]*mtable
}

func newModel(sc *Scenario) *Model { return &Model{sc: sc, tables: map[string]*mtable{}} }

func upperKeys(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = strings.ToUpper(k)
	}
	return out
}

func (t *mtable) find(r row) int {
	if len(t.keys) == 0 {
		return -1
	}
	for i, o := range t.rows {
		same := true
		for _, k := range t.keys {
			if o[k] != r[k] {
				same = false
				break
			}
		}
		if same {
			return i
		}
	}
	return -1
}

// apply applies one message. reset empties a stream's table first (the
// first flush of an overwrite or truncate_before_load stream in a run).
func (m *Model) apply(msg Msg, reset bool) {
	switch msg.Kind {
	case "SCHEMA":
		t := m.tables[msg.Stream]
		if t == nil {
			t = &mtable{}
			m.tables[msg.Stream] = t
		}
		st := m.sc.stream(msg.Stream)
		t.skeys = upperKeys(msg.Schema.Keys)
		if st.Method != Append {
			t.keys = upperKeys(msg.Schema.Keys)
		} else {
			// Append-only rows carry no key constraint; hard deletes match
			// on the key columns.
			t.keys = nil
		}
	case "RECORD":
		m.record(msg, reset)
	case "ACTIVATE_VERSION":
		m.activate(msg)
	}
}

func (m *Model) record(msg Msg, reset bool) {
	t := m.tables[msg.Stream]
	st := m.sc.stream(msg.Stream)
	if reset {
		t.rows = nil
	}
	if refusedRec(msg.Rec) {
		return // refused by the database, in reject_path (reject.go)
	}
	rec := msg.Rec
	r := row{"ID": fmt.Sprint(rec.ID), "K2": fmt.Sprint(rec.K2), "Q": fmt.Sprint(rec.Q)}
	if rec.V != nil && *rec.V != "" { // '' is NULL in Oracle
		r["V"] = *rec.V
	}
	if rec.N != "" {
		r["N"] = rec.N
	}
	if rec.Deleted != "" {
		r[table.MetaDeletedAt] = canonTime(rec.Deleted)
	}
	if rec.Version != 0 {
		r[table.MetaTableVersion] = fmt.Sprint(rec.Version)
	}
	schemaKeys := t.skeys
	if rec.Deleted != "" && closesOnDelete(st) && len(schemaKeys) > 0 {
		// Delete by key (every matching row of an append-only table).
		kept := t.rows[:0]
		for _, o := range t.rows {
			match := true
			for _, k := range schemaKeys {
				if o[k] != r[k] {
					match = false
				}
			}
			if !match {
				kept = append(kept, o)
			}
		}
		t.rows = kept
		return
	}
	i := t.find(r)
	switch {
	case i < 0:
		t.rows = append(t.rows, r)
	case rec.Deleted != "":
		// A soft delete changes only the metadata columns of the row.
		old := t.rows[i]
		for _, c := range []string{table.MetaDeletedAt, table.MetaTableVersion} {
			if v, ok := r[c]; ok {
				old[c] = v
			} else {
				delete(old, c)
			}
		}
	default:
		t.rows[i] = r
	}
}

func (m *Model) activate(msg Msg) {
	t := m.tables[msg.Stream]
	if t == nil {
		return // a table that does not exist: nothing happens
	}
	st := m.sc.stream(msg.Stream)
	kept := t.rows[:0]
	for _, r := range t.rows {
		older := true
		if v, ok := r[table.MetaTableVersion]; ok {
			var n int64
			fmt.Sscan(v, &n)
			older = n < msg.Version
		}
		if !older {
			kept = append(kept, r)
			continue
		}
		if closesOnDelete(st) {
			continue
		}
		if _, set := r[table.MetaDeletedAt]; !set {
			r[table.MetaDeletedAt] = canonTime(Now.Format(time.RFC3339Nano))
		}
		kept = append(kept, r)
	}
	t.rows = kept
}

// canonTime is the instant of a date-time text, for comparison.
func canonTime(s string) string {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC().Format(time.RFC3339Nano)
		}
	}
	return s
}

// view is a table as compared: identity -> row texts. The identity is the
// key for keyed tables, the record's q for rows of append tables.
type view map[string][]string

func rowText(r row) string {
	var b strings.Builder
	for _, c := range compared {
		if v, ok := r[c]; ok {
			fmt.Fprintf(&b, "%s=%s ", c, v)
		}
	}
	return strings.TrimSpace(b.String())
}

func identity(keys []string, r row) string {
	if len(keys) == 0 {
		return "q=" + r["Q"]
	}
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%s ", k, r[k])
	}
	return strings.TrimSpace(b.String())
}

// views returns every table's view, by stream.
func (m *Model) views() map[string]view {
	out := map[string]view{}
	for name, t := range m.tables {
		v := view{}
		for _, r := range t.rows {
			id := identity(t.keys, r)
			v[id] = append(v[id], rowText(r))
		}
		out[name] = v
	}
	return out
}
