package memory

import (
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
// RSS ≤ 200 MB whatever the row count). A write that finds rows by key, or
// only appends, writes each new row straight to one spill file as a
// record (writeCold in apply.go: no map is built); a row that a step
// changes comes back as a map ("warm") and is written again when its Load
// commits. The table keeps per row only where its record is (a coldRef,
// 8 bytes) and its pointer slot, and its key index holds hashes
// (keyindex.go). A keyed write warms the rows whose keys it hits; any
// other step, a migration or a rollback's reindex warms the whole table
// (they cost O(table rows) anyway, SPEC §11). A Load that fails takes its
// changes back with the undo log: what it warmed is already on disk, its
// new records are cut off with the rows. The dump reads the rows back one
// at a time, in insertion order unless keys came out of order (dumpOrder).
//
// A row is in exactly one of three states: warm (rows[i] != nil), cold
// (cold[i] != 0, rows[i] == nil) or deleted (neither).

// coldRef is where a cold row's record lies in the spill file: its
// offset plus one (0: the row is not cold). A record is its length (a
// uvarint) and then its name id, value pairs: 8 bytes a row in memory.
type coldRef uint64

// spillFile is the file of every table's cold rows, with the column names
// they use (a row is encoded as name id, value pairs).
type spillFile struct {
	f     *os.File
	pend  []byte // the last bytes written, not yet in the file (they end at size)
	size  int64  // bytes written, in the file or pend
	names []string
	ids   map[string]uint64
	enc   []byte
	// big holds the values of the record begun that are at least
	// bigValue bytes long, by reference: enc holds their pairs' heads and
	// end writes them from the string, so a 60 MB value is not copied
	// into enc and again into pend (SPEC §10's bound on a long line).
	big   []bigPiece
	win   []byte // a window of the file read ahead, for rows read in order
	winAt int64
	err   error // the first error of a call that cannot return one (reindex, lookups)
	// pos maps name ids to the columns of posOf, for readValues.
	pos   []int
	posOf *table.Table
	key   [][]byte // appendKey's values
}

// spillChunk is how many bytes the spill file gathers before a write, and
// how far it reads ahead when rows are read in order.
const spillChunk = 1 << 20

// newSpillFile creates the spill file in the system's temporary directory.
// It is removed at once where the system allows (the open file lives on),
// else when the engine closes.
func newSpillFile() (*spillFile, error) {
	f, err := os.CreateTemp("", "target-oracle-dump-rows-*")
	if err != nil {
		return nil, fmt.Errorf("dump: spill file: %w", err)
	}
	_ = os.Remove(f.Name()) // unlinked, the open file lives on: nothing is left behind a killed run
	return &spillFile{f: f, ids: map[string]uint64{}}, nil
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

// id is the name id of a column name.
func (s *spillFile) id(name string) uint64 {
	id, ok := s.ids[name]
	if !ok {
		id = uint64(len(s.names))
		s.ids[name] = id
		s.names = append(s.names, name)
	}
	return id
}

// bigValue is the length from which a value is written to the file from
// its string rather than gathered in enc and pend.
const bigValue = 64 << 10

// bigPiece is a long value of the record begun: it follows enc[:at].
type bigPiece struct {
	at int
	v  string
}

// begin starts a record; add and end build it.
func (s *spillFile) begin() { s.enc, s.big = s.enc[:0], s.big[:0] }

// add appends one value of the record begun.
func (s *spillFile) add(id uint64, v string) {
	if len(v) >= bigValue {
		s.addLong(id, v)
		return
	}
	s.enc = binary.AppendUvarint(s.enc, id)
	s.enc = binary.AppendUvarint(s.enc, uint64(len(v)))
	s.enc = append(s.enc, v...)
}

// addLong is add for a long value: enc gets its head, big the value.
func (s *spillFile) addLong(id uint64, v string) {
	s.enc = binary.AppendUvarint(s.enc, id)
	s.enc = binary.AppendUvarint(s.enc, uint64(len(v)))
	s.big = append(s.big, bigPiece{at: len(s.enc), v: v})
}

// end appends the record begun and returns where it lies.
func (s *spillFile) end() (coldRef, error) {
	ref := coldRef(s.size + 1)
	if len(s.big) > 0 {
		if err := s.endBig(); err != nil {
			return 0, err
		}
		return ref, nil
	}
	n := len(s.pend)
	s.pend = binary.AppendUvarint(s.pend, uint64(len(s.enc)))
	s.pend = append(s.pend, s.enc...)
	s.size += int64(len(s.pend) - n)
	if len(s.pend) >= spillChunk {
		if err := s.flush(); err != nil {
			return 0, err
		}
	}
	return ref, nil
}

// endBig writes the record begun, which holds long values, after what
// pend holds: its head and short parts go through pend, each long value
// straight from its string in spillChunk pieces. The record is the same
// bytes end would have written.
func (s *spillFile) endBig() error {
	total := len(s.enc)
	for _, b := range s.big {
		total += len(b.v)
	}
	var head [binary.MaxVarintLen64]byte
	s.appendPend(binary.AppendUvarint(head[:0], uint64(total)))
	from := 0
	for _, b := range s.big {
		s.appendPend(s.enc[from:b.at])
		from = b.at
		if err := s.flush(); err != nil {
			return err
		}
		if err := s.writeString(b.v); err != nil {
			return err
		}
	}
	s.appendPend(s.enc[from:])
	clear(s.big) // the values are the caller's: do not keep them alive
	s.big = s.big[:0]
	return s.flush()
}

// appendPend appends b to the file's end, in pend.
func (s *spillFile) appendPend(b []byte) {
	s.pend = append(s.pend, b...)
	s.size += int64(len(b))
}

// writeString writes v at the file's end through pend, a piece at a time,
// so no buffer the size of v is allocated. pend is empty before and after.
func (s *spillFile) writeString(v string) error {
	for len(v) > 0 {
		n := min(len(v), spillChunk)
		s.pend = append(s.pend[:0], v[:n]...)
		s.size += int64(n)
		if err := s.flush(); err != nil {
			return err
		}
		v = v[n:]
	}
	return nil
}

// write appends the encoding of row and returns where it lies.
func (s *spillFile) write(row map[string]string) (coldRef, error) {
	s.begin()
	for name, v := range row {
		s.add(s.id(name), v)
	}
	return s.end()
}

// flush writes what pend holds.
func (s *spillFile) flush() error {
	if len(s.pend) == 0 {
		return nil
	}
	if _, err := s.f.WriteAt(s.pend, s.size-int64(len(s.pend))); err != nil {
		return fmt.Errorf("dump: spill file: %w", err)
	}
	s.pend = s.pend[:0]
	if cap(s.pend) > 4*spillChunk { // grown by one long record: let it go
		s.pend = nil
	}
	return nil
}

// bytes returns the encoding of the row at ref, valid until the next
// read or write.
func (s *spillFile) bytes(ref coldRef) ([]byte, error) {
	off := int64(ref) - 1
	var b []byte
	if pendAt := s.size - int64(len(s.pend)); off >= pendAt {
		b = s.pend[off-pendAt:]
	} else {
		var err error
		if b, err = s.window(off, min(binary.MaxVarintLen64, pendAt-off)); err != nil {
			return nil, err
		}
		n, m := binary.Uvarint(b)
		if m <= 0 {
			return nil, errors.New("dump: spill file: bad row")
		}
		if b, err = s.window(off, int64(m)+int64(n)); err != nil {
			return nil, err
		}
	}
	n, m := binary.Uvarint(b)
	if m <= 0 || uint64(len(b)-m) < n {
		return nil, errors.New("dump: spill file: bad row")
	}
	return b[m : m+int(n)], nil
}

// window returns the n bytes of the file at off. Reading on from the
// window's end (rows in order) reads a chunk ahead; elsewhere (a row a key
// hit) it reads a little.
func (s *spillFile) window(off, n int64) ([]byte, error) {
	end := s.winAt + int64(len(s.win))
	if off >= s.winAt && off+n <= end {
		return s.win[off-s.winAt : off-s.winAt+n], nil
	}
	size := max(n, 16<<10)
	if off >= s.winAt && off <= end {
		size = max(n, spillChunk)
	}
	size = min(size, s.size-int64(len(s.pend))-off)
	// A window grown for one long record is let go at the next short read:
	// it would hold that record's size for the rest of the run.
	if int64(cap(s.win)) < size || cap(s.win) > 4*spillChunk && size <= spillChunk {
		s.win = make([]byte, max(size, 16<<10))
	}
	s.win = s.win[:size]
	m, err := s.f.ReadAt(s.win, off)
	if err != nil && !(errors.Is(err, io.EOF) && int64(m) >= n) {
		s.win, s.winAt = s.win[:0], 0
		return nil, fmt.Errorf("dump: spill file: %w", err)
	}
	s.win, s.winAt = s.win[:m], off
	return s.win[:n], nil
}

// pairs calls f with each name id, value pair of a record.
func pairs(b []byte, f func(id uint64, v []byte)) error {
	for len(b) > 0 {
		id, k := binary.Uvarint(b)
		if k <= 0 {
			return errors.New("dump: spill file: bad row")
		}
		b = b[k:]
		l, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < l {
			return errors.New("dump: spill file: bad row")
		}
		f(id, b[k:k+int(l)])
		b = b[k+int(l):]
	}
	return nil
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
	bad := false
	err = pairs(b, func(id uint64, v []byte) {
		if id >= uint64(len(s.names)) {
			bad = true
			return
		}
		dst[s.names[id]] = string(v)
	})
	if err == nil && bad {
		err = errors.New("dump: spill file: bad row")
	}
	return dst, err
}

// appendKey appends the key text (keyOf) of the row at ref, for the
// primary key columns pk.
func (s *spillFile) appendKey(dst []byte, ref coldRef, pk []string) ([]byte, error) {
	b, err := s.bytes(ref)
	if err != nil {
		return dst, err
	}
	s.key = append(s.key[:0], make([][]byte, len(pk))...)
	for j, c := range pk {
		id, ok := s.ids[c]
		if !ok {
			continue
		}
		if err := pairs(b, func(got uint64, v []byte) {
			if got == id {
				s.key[j] = v
			}
		}); err != nil {
			return dst, err
		}
	}
	for _, v := range s.key {
		dst = binary.AppendUvarint(dst, uint64(len(v)))
		dst = append(dst, v...)
	}
	return dst, nil
}

func (t *memTable) isCold(i int) bool { return i < len(t.cold.w) && t.cold.w[i] != 0 }

// setCold makes row i cold at ref.
func (t *memTable) setCold(i int, ref coldRef) {
	if len(t.cold.w) <= i {
		t.cold.resize(len(t.rows))
	}
	t.rows[i], t.cold.w[i] = nil, uint64(ref)
}

// drop deletes row i, warm or cold.
func (t *memTable) drop(i int) {
	t.rows[i] = nil
	if i < len(t.cold.w) {
		t.cold.w[i] = 0
	}
}

// noteWarm records that row i is warm, for spillRows.
func (t *memTable) noteWarm(i int) {
	if t.spill != nil && !t.pinned {
		t.warm = append(t.warm, int32(i))
	}
}

// push appends a warm row.
func (t *memTable) push(row map[string]string) {
	t.rows = append(t.rows, row)
	t.noteWarm(len(t.rows) - 1)
}

// warmRow brings row i back as a map.
func (t *memTable) warmRow(i int) error {
	if !t.isCold(i) {
		return nil
	}
	r, err := t.spill.read(coldRef(t.cold.w[i]), nil)
	if err != nil {
		return err
	}
	t.rows[i], t.cold.w[i] = r, 0
	t.noteWarm(i)
	return nil
}

// warmAll brings every cold row back.
func (t *memTable) warmAll() error {
	for i := range t.cold.w {
		if err := t.warmRow(i); err != nil {
			return err
		}
	}
	t.cold.free()
	return nil
}

// warmFor warms what step st reads when that is not a write's rows found
// by key (write warms those itself, as it finds them): for an insert
// without deletes into a table without a primary key, nothing (it only
// appends); for anything else the table. A history table stays warm: its
// every batch reads all its versions (versionsOf), and spilling and
// warming it per batch would only add to that.
func (t *memTable) warmFor(st engine.Step) error {
	switch st.(type) {
	case *engine.History, *engine.CloseVersions:
		t.pinned = true
	}
	if t.spill == nil || len(t.cold.w) == 0 {
		return nil
	}
	if w, ok := st.(*engine.Write); ok && t.writesCold(w) {
		return nil
	}
	return t.warmAll()
}

// writesCold reports whether write w finds its rows by key, or only
// appends: then it can add new rows as spilled records (apply.go,
// writeCold) and warm only the rows its keys hit.
func (t *memTable) writesCold(w *engine.Write) bool {
	if t.spill == nil || t.pinned {
		return false
	}
	if len(t.def.PrimaryKey) > 0 {
		return true
	}
	return w.Method == engine.Insert && !slices.ContainsFunc(w.Rows, func(r engine.Row) bool { return r.Kind == engine.RowHardDelete })
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
// maps go (after a commit). It visits the rows noted warm, not the table:
// a Load costs per row it touched.
func (t *memTable) spillRows() error {
	if t.spill == nil || t.pinned {
		t.warm = nil
		return nil
	}
	spill := func(i int) error {
		r := t.rows[i]
		if r == nil {
			return nil
		}
		ref, err := t.spill.write(r)
		if err != nil {
			return err
		}
		t.setCold(i, ref)
		return nil
	}
	if t.warmAny {
		for i := range t.rows {
			if err := spill(i); err != nil {
				return err
			}
		}
	} else {
		for _, i := range t.warm {
			if int(i) < len(t.rows) {
				if err := spill(int(i)); err != nil {
					return err
				}
			}
		}
	}
	t.warm, t.warmAny = t.warm[:0], false
	return nil
}

// live reports whether row i holds a row (warm or cold).
func (t *memTable) live(i int) bool { return t.rows[i] != nil || t.isCold(i) }

// eachOrdered calls f with every live row in dump order (by primary key,
// else insertion). A cold row is read into one map reused from call to
// call: f must not keep it.
func (t *memTable) eachOrdered(f func(map[string]string) error) error {
	return t.each(true, func(r map[string]string, _ [][]byte) error { return f(r) })
}

// eachDumped calls f with every live row in dump order: a warm row as its
// map, a cold one as its values in column order (vals, reused from call
// to call and valid until f returns; f must not keep them). The dump
// renders cold rows from vals without a map or a string per value.
func (t *memTable) eachDumped(f func(r map[string]string, vals [][]byte) error) error {
	return t.each(false, f)
}

// each is eachOrdered with asMaps, else eachDumped.
func (t *memTable) each(asMaps bool, f func(r map[string]string, vals [][]byte) error) error {
	if t.spill == nil || len(t.cold.w) == 0 {
		for _, r := range t.ordered() {
			if err := f(r, nil); err != nil {
				return err
			}
		}
		return nil
	}
	order, err := t.dumpOrder()
	if err != nil {
		return err
	}
	vals := make([][]byte, len(t.def.Columns))
	var scratch map[string]string
	visit := func(i int) error {
		r := t.rows[i]
		var err error
		switch {
		case r != nil:
		case asMaps:
			scratch, err = t.spill.read(coldRef(t.cold.w[i]), scratch)
			r = scratch
		default:
			err = t.spill.readValues(coldRef(t.cold.w[i]), t.def, vals)
		}
		if err != nil {
			return err
		}
		return f(r, vals)
	}
	if order == nil { // insertion order
		for i := range t.rows {
			if t.live(i) {
				if err := visit(i); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, i := range order {
		if err := visit(int(i)); err != nil {
			return err
		}
	}
	return nil
}

// dumpOrder returns the live rows by primary key, or nil when that is
// insertion order: no primary key, or keys that came in increasing order
// (unsorted says when they did not, as rows are added; reindex finds it
// again). Only then are the keys read and sorted; a stable sort, as
// ordered does.
func (t *memTable) dumpOrder() ([]int32, error) {
	np := len(t.def.PrimaryKey)
	if np == 0 || !t.unsorted {
		return nil, nil
	}
	var texts []byte
	var ends []int
	var order []int32
	for i := range t.rows {
		if !t.live(i) {
			continue
		}
		var err error
		if texts, err = t.keyAt(texts, i); err != nil {
			return nil, err
		}
		ends = append(ends, len(texts))
		order = append(order, int32(i))
	}
	keys := make([]string, len(order)*np)
	all := string(texts)
	for j := range order {
		from := 0
		if j > 0 {
			from = ends[j-1]
		}
		splitKey(keys[j*np:(j+1)*np], all[from:ends[j]])
	}
	pos := make([]int32, len(order))
	for j := range pos {
		pos[j] = int32(j)
	}
	slices.SortStableFunc(pos, func(a, b int32) int {
		return t.compareKeys(keys[int(a)*np:int(a+1)*np], keys[int(b)*np:int(b+1)*np])
	})
	for j, p := range pos {
		pos[j] = order[p]
	}
	return pos, nil
}

// appended notes the key text of a row added at the end, for dumpOrder.
func (t *memTable) appended(k []byte) {
	np := len(t.def.PrimaryKey)
	if np == 0 || t.unsorted {
		return
	}
	if len(t.lastKey) != np || len(t.nextKey) != np {
		t.lastKey, t.nextKey, t.hasLast = make([]string, np), make([]string, np), false
	}
	splitKey(t.nextKey, string(k))
	if t.hasLast && t.compareKeys(t.lastKey, t.nextKey) >= 0 {
		t.unsorted = true
		return
	}
	t.lastKey, t.nextKey, t.hasLast = t.nextKey, t.lastKey, true
}

// readValues decodes the row at ref into vals, by the column order of
// def (nil for a column the row lacks, which the dump writes as null,
// like an empty value). Names not among def's columns are left out, as
// the dump leaves them out. The values are valid until the next read.
func (s *spillFile) readValues(ref coldRef, def *table.Table, vals [][]byte) error {
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
			vals[p] = b[k : k+int(l)]
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
