package engine

import (
	"fmt"
	"slices"
	"time"

	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/value"
)

// History is the data step of a load_method history batch (slowly
// changing dimension, type 2; docs/guarantees.md). Every engine decides
// the versions the same way, with HistoryPlan.Decide, from the versions
// the table holds for the batch's keys; only how it reads them and writes
// the outcome differs.
type History struct {
	Table      *table.Table
	Columns    []string // column names, in the order of each row's values; the four history columns included
	KeyColumns []string
	// Rows are the batch's records in load order, not deduplicated:
	// RowUpsert rows are versions, RowSoftDelete and RowHardDelete rows
	// close the key's current version. Values[ValidFrom] holds the raw
	// valid-from (canonical UTC) and Values[RowHash] the row's hash; the
	// engine fills ValidTo and IsCurrent.
	Rows []Row
	// Positions of the history columns in Columns.
	ValidFrom, ValidTo, IsCurrent, RowHash int
	// TableVersion is the position of _SDC_TABLE_VERSION, -1 when the
	// table has none: an unchanged record of a newer table version moves
	// the current version to it (see Decide).
	TableVersion int
	// Exact: valid-froms come from a property (history_valid_from), so a
	// record whose key and valid-from equal an existing version's is a
	// no-op, and so is a delete before the current version.
	Exact bool
	// DatabaseTime names the column (if any) the engine fills with the
	// database time of the write (_SDC_LOADED_AT).
	DatabaseTime string
	// Adjusted is set by the engine's Load: how many valid-froms it moved
	// to 1 µs after the key's latest version (the pipeline logs it).
	Adjusted int
}

// CloseVersions is ACTIVATE_VERSION on a history table: the current
// versions whose VersionColumn is older than Version (numerically, never
// <=) or NULL get ValidTo = At (or their own ValidFrom when that is later)
// and IsCurrent false. Nothing is deleted.
type CloseVersions struct {
	Table                         *table.Table
	Version                       string // integer text
	At                            string // canonical UTC date-time text
	VersionColumn                 string
	ValidFrom, ValidTo, IsCurrent string // column names
}

func (*History) isStep()       {}
func (*CloseVersions) isStep() {}

// Booleans returns the stored text of true and false in a column of type t
// (_SDC_IS_CURRENT): "1"/"0" in NUMBER(1), "true"/"false" in BOOLEAN.
func Booleans(t table.Type) (isTrue, isFalse string) {
	if t.Kind == table.KindBoolean {
		return "true", "false"
	}
	return "1", "0"
}

// Version is one stored version of a key, as an engine reads it.
type Version struct {
	ValidFrom string // canonical UTC date-time
	ValidTo   string // canonical UTC date-time; "" (NULL) while current
	Hash      string // "" for NULL
}

// Closing closes a stored current version.
type Closing struct {
	Key       []string // key values, in KeyColumns order
	ValidFrom string   // the stored version's valid-from (with Key, its primary key)
	ValidTo   string
	Line      int64 // input line of the record that closes it
}

// Touch sets the table version of a stored current version that an
// unchanged record of the batch carries.
type Touch struct {
	Key       []string // key values, in KeyColumns order
	ValidFrom string   // the stored version's valid-from
	Version   string   // the record's table version
	Line      int64
}

// HistoryPlan is what a History step does: the stored versions it closes
// and the versions it adds (values in Columns order, every history column
// filled; a version superseded within the batch is added closed).
type HistoryPlan struct {
	Close    []Closing
	Touch    []Touch
	Insert   []Row
	Adjusted int // valid-froms moved to 1 µs after the key's latest version
}

// HistoryKey is the text of a row's key in h (engine.AppendKey of each
// key value): the key of the versions map Decide is given.
func (h *History) HistoryKey(vals []string, kb []byte) []byte {
	kb = kb[:0]
	for _, k := range h.keyIndexes() {
		kb = AppendKey(kb, vals[k])
	}
	return kb
}

func (h *History) keyIndexes() []int {
	idx := make([]int, len(h.KeyColumns))
	for i, k := range h.KeyColumns {
		idx[i] = slices.Index(h.Columns, k)
	}
	return idx
}

// keyState is what Decide knows about one key while it walks the batch.
type keyState struct {
	cur      int // index in plan.Insert of the current version; -1: a stored one (curStored), -2: none
	curVF    time.Time
	curHash  string
	curStore Version
	touch    int             // index in plan.Touch of the key's touch, -1: none
	latest   time.Time       // the latest version's valid-from, or a delete's time
	hasAny   bool            // latest is set
	known    map[string]bool // Exact: the key's valid-froms (canonical text)
}

const (
	curStored = -1
	curNone   = -2
)

// Decide walks h.Rows in load order, each key from its stored versions
// (versions, by HistoryKey), and returns what the batch does:
//
//   - a record whose hash equals the current version's changes nothing;
//   - in Exact mode a record whose key and valid-from equal a version's
//     (stored, or added earlier in the batch) changes nothing, and so does
//     a delete before the current version;
//   - a valid-from not after the key's latest valid-from or valid-to (a
//     delete's or an ACTIVATE_VERSION's time) becomes that + 1 µs;
//   - a changed record closes the current version at its valid-from and
//     adds a new current version; a delete closes it and adds none.
//
// current is the stored text of _SDC_IS_CURRENT's true and false ("1"/"0"
// or "true"/"false").
func (h *History) Decide(versions map[string][]Version, isTrue, isFalse string) (HistoryPlan, error) {
	var plan HistoryPlan
	keys := h.keyIndexes()
	states := make(map[string]*keyState)
	var kb []byte
	for _, r := range h.Rows {
		kb = kb[:0]
		for _, k := range keys {
			kb = AppendKey(kb, r.Values[k])
		}
		st := states[string(kb)]
		if st == nil {
			var err error
			if st, err = newKeyState(versions[string(kb)], h.Exact); err != nil {
				return plan, fmt.Errorf("%s: stored versions: %w", h.Table.QualifiedName(), err)
			}
			states[string(kb)] = st
		}
		raw := r.Values[h.ValidFrom]
		vf, err := parseTime(raw)
		if err != nil {
			return plan, fmt.Errorf("input line %d: valid-from: %w", r.Line, err)
		}
		del := r.Kind != RowUpsert
		unchanged := !del && st.cur != curNone && st.curHash == r.Values[h.RowHash]
		switch {
		case h.Exact && !del && st.known[formatTime(vf)]:
			if unchanged && vf.Equal(st.curVF) {
				h.touch(&plan, st, r, keys)
			}
			continue // replayed: this version exists
		case del && st.cur == curNone:
			continue // nothing to close
		case del && h.Exact && vf.Before(st.curVF):
			// Older than the current version: replayed (had it been
			// applied, every later version would start after it).
			continue
		case unchanged:
			h.touch(&plan, st, r, keys)
			continue
		}
		if st.hasAny && !vf.After(st.latest) {
			vf = st.latest.Add(time.Microsecond)
			plan.Adjusted++
		}
		at := formatTime(vf)
		switch st.cur {
		case curNone:
		case curStored:
			plan.Close = append(plan.Close, Closing{Key: keyValues(r.Values, keys), ValidFrom: st.curStore.ValidFrom, ValidTo: at, Line: r.Line})
		default:
			prev := plan.Insert[st.cur].Values
			prev[h.ValidTo], prev[h.IsCurrent] = at, isFalse
		}
		st.latest, st.hasAny, st.cur, st.touch = vf, true, curNone, -1
		if del {
			continue
		}
		vals := slices.Clone(r.Values)
		vals[h.ValidFrom], vals[h.ValidTo], vals[h.IsCurrent] = at, "", isTrue
		st.cur, st.curVF, st.curHash = len(plan.Insert), vf, vals[h.RowHash]
		if st.known != nil {
			st.known[formatTime(vf)] = true
		}
		plan.Insert = append(plan.Insert, Row{Kind: RowUpsert, Line: r.Line, Values: vals})
	}
	return plan, nil
}

// touch gives the current version the table version of an unchanged
// record (a full-table sync re-sends unchanged rows under a new version:
// without this, its ACTIVATE_VERSION would close them). It is metadata,
// not a new version.
func (h *History) touch(plan *HistoryPlan, st *keyState, r Row, keys []int) {
	if h.TableVersion < 0 || r.Values[h.TableVersion] == "" {
		return
	}
	v := r.Values[h.TableVersion]
	switch {
	case st.cur >= 0:
		plan.Insert[st.cur].Values[h.TableVersion] = v
	case st.touch >= 0:
		plan.Touch[st.touch].Version, plan.Touch[st.touch].Line = v, r.Line
	default:
		st.touch = len(plan.Touch)
		plan.Touch = append(plan.Touch, Touch{Key: keyValues(r.Values, keys), ValidFrom: st.curStore.ValidFrom, Version: v, Line: r.Line})
	}
}

func newKeyState(vs []Version, exact bool) (*keyState, error) {
	st := &keyState{cur: curNone, touch: -1}
	if exact {
		st.known = make(map[string]bool, len(vs)+1)
	}
	for _, v := range vs {
		t, err := parseTime(v.ValidFrom)
		if err != nil {
			return nil, err
		}
		if !st.hasAny || t.After(st.latest) {
			st.latest, st.hasAny = t, true
		}
		if st.known != nil {
			st.known[formatTime(t)] = true
		}
		if v.ValidTo != "" {
			// A version closed by a delete or an ACTIVATE_VERSION: the
			// next one starts after that, as within a batch.
			to, err := parseTime(v.ValidTo)
			if err != nil {
				return nil, err
			}
			if to.After(st.latest) {
				st.latest = to
			}
			continue
		}
		if st.cur == curNone || t.After(st.curVF) {
			st.cur, st.curVF, st.curHash, st.curStore = curStored, t, v.Hash, v
		}
	}
	return st, nil
}

func keyValues(vals []string, keys []int) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = vals[k]
	}
	return out
}

// parseTime reads a canonical (or any RFC 3339) date-time exactly.
func parseTime(s string) (time.Time, error) {
	dt, err := value.ParseDateTime(s)
	if err != nil {
		return time.Time{}, err
	}
	return time.Date(dt.Year, time.Month(dt.Month), dt.Day, dt.Hour, dt.Minute, dt.Second, dt.Nanosecond, time.UTC), nil
}

// formatTime is the canonical UTC text of t, nanoseconds kept.
func formatTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.999999999Z")
}

// CanonicalTime is the canonical UTC text of a date-time given in any
// form value.ParseDateTime reads (a DATE column's "YYYY-MM-DD" is read as
// midnight UTC): the valid-from of a history_valid_from property.
func CanonicalTime(s string) (string, error) {
	if len(s) == len("2006-01-02") {
		s += "T00:00:00Z"
	}
	t, err := parseTime(s)
	if err != nil {
		return "", err
	}
	return formatTime(t), nil
}
