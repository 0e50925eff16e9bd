package memory

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

// A dump run keeps its committed rows on disk, not as maps (SPEC §11: peak
// RSS ≤ 200 MB whatever the row count). When a Load commits, the rows it
// added or changed are appended to one spill file, and the table keeps
// only where each row is (a coldRef, 16 bytes) besides its key index. A
// row comes back as a map ("warm") when a step needs it: a keyed write
// warms the rows whose keys it hits before it runs (warmFor), any other
// step, a migration or a rollback's reindex warms the whole table (they
// cost O(table rows) anyway, SPEC §11). A Load that fails takes its
// changes back with the undo log as before: what it warmed is already
// written, and its new rows were never spilled. The dump reads the rows
// back one at a time (eachOrdered).
//
// A row is in exactly one of three states: warm (rows[i] != nil), cold
// (cold[i].n > 0, rows[i] == nil) or deleted (neither).

// coldRef is where a cold row's encoding lies in the spill file; n is its
// length plus one (0: the row is not cold).
type coldRef struct {
	off int64
	n   int64
}

// spillFile is the file of every table's cold rows, with the column names
// they use (a row is encoded as name id, value pairs).
type spillFile struct {
	f     *os.File
	w     *bufio.Writer
	size  int64 // bytes written, flushed or not
	dirty bool  // w holds bytes not flushed
	names []string
	ids   map[string]uint64
	enc   []byte
	win   []byte // a window of the file read ahead, for rows read in order
	winAt int64
	err   error // the first error of a call that cannot return one (reindex)
	// pos maps name ids to the columns of posOf, for readValues.
	pos   []int
	posOf *table.Table
}

// newSpillFile creates the spill file in the system's temporary directory.
// It is removed at once where the system allows (the open file lives on),
// else when the engine closes.
func newSpillFile() (*spillFile, error) {
	f, err := os.CreateTemp("", "target-oracle-dump-rows-*")
	if err != nil {
		return nil, fmt.Errorf("dump: spill file: %w", err)
	}
	_ = os.Remove(f.Name()) // unlinked, the open file lives on: nothing is left behind a killed run
	return &spillFile{f: f, w: bufio.NewWriterSize(f, 1<<20), ids: map[string]uint64{}}, nil
}

// close closes and removes the file.
func (s *spillFile) close() error {
	if s == nil {
		return nil
	}
	err := s.f.Close()
	if rerr := os.Remove(s.f.Name()); rerr != nil && !errors.Is(rerr, os.ErrNotExist) && err == nil {
		err = rerr
	}
	return err
}

// write appends the encoding of row and returns where it lies.
func (s *spillFile) write(row map[string]string) (coldRef, error) {
	b := s.enc[:0]
	for name, v := range row {
		id, ok := s.ids[name]
		if !ok {
			id = uint64(len(s.names))
			s.ids[name] = id
			s.names = append(s.names, name)
		}
		b = binary.AppendUvarint(b, id)
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	s.enc = b
	if _, err := s.w.Write(b); err != nil {
		return coldRef{}, fmt.Errorf("dump: spill file: %w", err)
	}
	ref := coldRef{off: s.size, n: int64(len(b)) + 1}
	s.size += int64(len(b))
	s.dirty = true
	return ref, nil
}

// flush makes what was written readable.
func (s *spillFile) flush() error {
	if !s.dirty {
		return nil
	}
	s.dirty = false
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("dump: spill file: %w", err)
	}
	return nil
}

// bytes returns the encoding of the row at ref, valid until the next
// read.
func (s *spillFile) bytes(ref coldRef) ([]byte, error) {
	if err := s.flush(); err != nil {
		return nil, err
	}
	n := ref.n - 1
	if ref.off < s.winAt || ref.off+n > s.winAt+int64(len(s.win)) {
		size := max(n, 1<<20)
		if int64(cap(s.win)) < size {
			s.win = make([]byte, size)
		}
		s.win = s.win[:size]
		m, err := s.f.ReadAt(s.win, ref.off)
		if err != nil && !(errors.Is(err, io.EOF) && int64(m) >= n) {
			return nil, fmt.Errorf("dump: spill file: %w", err)
		}
		s.win, s.winAt = s.win[:m], ref.off
	}
	return s.win[ref.off-s.winAt : ref.off-s.winAt+n], nil
}

// read decodes the row at ref into dst (cleared first; a new map if nil).
func (s *spillFile) read(ref coldRef, dst map[string]string) (map[string]string, error) {
	b, err := s.bytes(ref)
	if err != nil {
		return nil, err
	}
	if dst == nil {
		dst = map[string]string{}
	} else {
		clear(dst)
	}
	for len(b) > 0 {
		id, k := binary.Uvarint(b)
		if k <= 0 || id >= uint64(len(s.names)) {
			return nil, errors.New("dump: spill file: bad row")
		}
		b = b[k:]
		l, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < l {
			return nil, errors.New("dump: spill file: bad row")
		}
		dst[s.names[id]] = string(b[k : k+int(l)])
		b = b[k+int(l):]
	}
	return dst, nil
}

func (t *memTable) isCold(i int) bool { return i < len(t.cold) && t.cold[i].n > 0 }

// warmRow brings row i back as a map.
func (t *memTable) warmRow(i int) error {
	if !t.isCold(i) {
		return nil
	}
	r, err := t.spill.read(t.cold[i], nil)
	if err != nil {
		return err
	}
	t.rows[i], t.cold[i] = r, coldRef{}
	return nil
}

// warmAll brings every cold row back.
func (t *memTable) warmAll() error {
	for i := range t.cold {
		if err := t.warmRow(i); err != nil {
			return err
		}
	}
	t.cold = t.cold[:0]
	return nil
}

// warmFor warms what step st reads: for a write into a table with a
// primary key, the rows its keys hit (as upsert and remove find them,
// by keyOf of the row the write builds); for an insert without deletes
// into a table without one, nothing (it only appends); for anything else
// the table. A history table stays warm: its every batch reads all its
// versions (versionsOf), and spilling and warming it per batch would
// only add to that.
func (t *memTable) warmFor(st engine.Step, now string) error {
	switch st.(type) {
	case *engine.History, *engine.CloseVersions:
		t.pinned = true
	}
	if t.spill == nil || len(t.cold) == 0 {
		return nil
	}
	w, ok := st.(*engine.Write)
	if ok && len(t.def.PrimaryKey) == 0 && w.Method == engine.Insert && !slices.ContainsFunc(w.Rows, func(r engine.Row) bool { return r.Kind == engine.RowHardDelete }) {
		return nil
	}
	if !ok || len(t.def.PrimaryKey) == 0 {
		return t.warmAll()
	}
	idx := make([]int, len(t.def.PrimaryKey))
	for j, c := range t.def.PrimaryKey {
		idx[j] = slices.Index(w.Columns, c)
		if c == w.DatabaseTime {
			idx[j] = -2
		}
	}
	var kb []byte
	for _, r := range w.Rows {
		kb = kb[:0]
		for _, i := range idx {
			switch {
			case i == -2:
				kb = engine.AppendKey(kb, now)
			case i >= 0 && i < len(r.Values):
				kb = engine.AppendKey(kb, r.Values[i])
			default:
				kb = engine.AppendKey(kb, "")
			}
		}
		if i, ok := t.byKey[string(kb)]; ok {
			if err := t.warmRow(i); err != nil {
				return err
			}
		}
	}
	return nil
}

// retypes reports whether next changes the type of a column t has, so
// that migrate converts stored values.
func (t *memTable) retypes(next *table.Table) bool {
	for _, nc := range next.Columns {
		if oc := t.def.Column(nc.Name); oc != nil && oc.Type != nc.Type {
			return true
		}
	}
	return false
}

// spillRows writes the table's warm rows to the spill file and lets their
// maps go (after a commit).
func (t *memTable) spillRows() error {
	if t.spill == nil || t.pinned {
		return nil
	}
	if len(t.cold) < len(t.rows) {
		t.cold = append(t.cold, make([]coldRef, len(t.rows)-len(t.cold))...)
	}
	for i, r := range t.rows {
		if r == nil {
			continue
		}
		ref, err := t.spill.write(r)
		if err != nil {
			return err
		}
		t.rows[i], t.cold[i] = nil, ref
	}
	return t.spill.flush()
}

// live reports whether row i holds a row (warm or cold).
func (t *memTable) live(i int) bool { return t.rows[i] != nil || t.isCold(i) }

// eachOrdered calls f with every live row in dump order (by primary key,
// else insertion). A cold row is read into one map reused from call to
// call: f must not keep it.
func (t *memTable) eachOrdered(f func(map[string]string) error) error {
	return t.each(true, func(r map[string]string, _ []string) error { return f(r) })
}

// eachDumped calls f with every live row in dump order: a warm row as its
// map, a cold one as its values in column order (vals, reused from call
// to call; f must not keep it). The dump renders cold rows from vals
// without a map per row.
func (t *memTable) eachDumped(f func(r map[string]string, vals []string) error) error {
	return t.each(false, f)
}

// each is eachOrdered with asMaps, else eachDumped.
func (t *memTable) each(asMaps bool, f func(r map[string]string, vals []string) error) error {
	if t.spill == nil || len(t.cold) == 0 {
		for _, r := range t.ordered() {
			if err := f(r, nil); err != nil {
				return err
			}
		}
		return nil
	}
	order := make([]int, 0, len(t.rows))
	if np := len(t.def.PrimaryKey); np > 0 {
		// Key values by row from the key index; rows come in insertion
		// order, which is key order when keys arrive increasing: then a
		// check of neighbours replaces the sort.
		keys := make([]string, len(t.rows)*np)
		for k, i := range t.byKey {
			splitKey(keys[i*np:(i+1)*np], k)
			order = append(order, i)
		}
		slices.Sort(order)
		cmpRows := func(a, b int) int { return t.compareKeys(keys[a*np:(a+1)*np], keys[b*np:(b+1)*np]) }
		if !slices.IsSortedFunc(order, cmpRows) {
			slices.SortFunc(order, cmpRows)
		}
	} else {
		for i := range t.rows {
			if t.live(i) {
				order = append(order, i)
			}
		}
	}
	vals := make([]string, len(t.def.Columns))
	var scratch map[string]string
	for _, i := range order {
		r := t.rows[i]
		var err error
		switch {
		case r != nil:
		case asMaps:
			scratch, err = t.spill.read(t.cold[i], scratch)
			r = scratch
		default:
			err = t.spill.readValues(t.cold[i], t.def, vals)
		}
		if err != nil {
			return err
		}
		if err := f(r, vals); err != nil {
			return err
		}
	}
	return nil
}

// readValues decodes the row at ref into vals, by the column order of
// def ("" for a column the row lacks, which the dump writes as null,
// like an empty value). Names not among def's columns are left out, as
// the dump leaves them out.
func (s *spillFile) readValues(ref coldRef, def *table.Table, vals []string) error {
	b, err := s.bytes(ref)
	if err != nil {
		return err
	}
	if len(s.pos) != len(s.names) || s.posOf != def {
		s.posOf, s.pos = def, make([]int, len(s.names))
		for id, name := range s.names {
			s.pos[id] = slices.IndexFunc(def.Columns, func(c table.Column) bool { return c.Name == name })
		}
	}
	clear(vals)
	for len(b) > 0 {
		id, k := binary.Uvarint(b)
		if k <= 0 || id >= uint64(len(s.names)) {
			return errors.New("dump: spill file: bad row")
		}
		b = b[k:]
		l, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < l {
			return errors.New("dump: spill file: bad row")
		}
		if p := s.pos[id]; p >= 0 {
			vals[p] = string(b[k : k+int(l)])
		}
		b = b[k+int(l):]
	}
	return nil
}

// splitKey is the inverse of keyOf: it puts the values of key text k
// into dst (as substrings of k).
func splitKey(dst []string, k string) {
	for j := range dst {
		l, m := uvarint(k)
		if m <= 0 || uint64(len(k)-m) < l {
			return
		}
		dst[j] = k[m : m+int(l)]
		k = k[m+int(l):]
	}
}

// uvarint is binary.Uvarint of a string.
func uvarint(s string) (uint64, int) {
	var x uint64
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		c := s[i]
		if c < 0x80 {
			return x | uint64(c)<<(7*i), i + 1
		}
		x |= uint64(c&0x7f) << (7 * i)
	}
	return 0, 0
}

// compareKeys orders key values as lessKey orders rows.
func (t *memTable) compareKeys(a, b []string) int {
	for j, name := range t.def.PrimaryKey {
		c := t.def.Column(name)
		if c == nil {
			continue
		}
		if d := compareValues(c.Type, a[j], b[j]); d != 0 {
			return d
		}
	}
	return 0
}
