package memory

import (
	"bytes"
	"cmp"
	"hash/maphash"
)

// keyIndex finds a table's rows by primary key. It holds, per row, one
// word: 32 bits of a hash of the key text (keyOf) and the row's index, in
// an open-addressing table (linear probing, at most three quarters full,
// outside the Go heap when large: words.go). It holds no key text: a dump
// run's rows live on disk (spill.go), and an index of key strings was what
// still grew with the rows (some 80 bytes a row with the map's overhead,
// each key a pointer the collector scans). An entry whose hash matches is
// checked against the row's own key (keyIs), so the index never answers
// wrongly; two keys with the same 32 bits simply both stay in the table.
//
// A slot is 0 (empty) or hash<<32 | (row+1).
type keyIndex struct {
	seed  maphash.Seed
	slots words
	n     int // entries
}

func newKeyIndex() *keyIndex { return &keyIndex{seed: maphash.MakeSeed()} }

func (x *keyIndex) fingerprint(k []byte) uint64 { return maphash.Bytes(x.seed, k) >> 32 }

// home is the first slot an entry of hash fingerprint fp is looked for in.
func (x *keyIndex) home(fp uint64) int { return int(fp * uint64(len(x.slots.w)) >> 32) }

func (x *keyIndex) next(i int) int {
	if i++; i == len(x.slots.w) {
		return 0
	}
	return i
}

// free gives the table's memory back.
func (x *keyIndex) free() {
	if x != nil {
		x.slots.free()
		x.n = 0
	}
}

// grow rehashes into a table half as large again (entries keep their
// fingerprints: no key is read).
func (x *keyIndex) grow() {
	old := x.slots
	x.slots = words{}
	x.slots.resize(max(16, len(old.w)*3/2))
	for _, e := range old.w {
		if e != 0 {
			i := x.home(e >> 32)
			for x.slots.w[i] != 0 {
				i = x.next(i)
			}
			x.slots.w[i] = e
		}
	}
	old.free()
}

// lookup returns the row whose key text is k.
func (t *memTable) lookup(k []byte) (int, bool) {
	x := t.byKey
	if x.n == 0 {
		return 0, false
	}
	fp := x.fingerprint(k)
	for i := x.home(fp); ; i = x.next(i) {
		e := x.slots.w[i]
		if e == 0 {
			return 0, false
		}
		if e>>32 == fp {
			if row := int(uint32(e)) - 1; t.keyIs(row, k) {
				return row, true
			}
		}
	}
}

// index records that row i has key k, which no row has.
func (t *memTable) index(k []byte, i int) {
	x := t.byKey
	if (x.n+1)*4 > len(x.slots.w)*3 {
		x.grow()
	}
	fp := x.fingerprint(k)
	j := x.home(fp)
	for x.slots.w[j] != 0 {
		j = x.next(j)
	}
	x.slots.w[j] = fp<<32 | uint64(uint32(i+1))
	x.n++
}

// unindex forgets key k of row i. The entries after it in its run move
// back where they may (backward-shift deletion), so that no lookup stops
// at the hole.
func (t *memTable) unindex(k []byte, i int) {
	x := t.byKey
	if x.n == 0 {
		return
	}
	want := x.fingerprint(k)<<32 | uint64(uint32(i+1))
	j := x.home(want >> 32)
	for x.slots.w[j] != want {
		if x.slots.w[j] == 0 {
			return // not indexed
		}
		j = x.next(j)
	}
	n := len(x.slots.w)
	for m := x.next(j); x.slots.w[m] != 0; m = x.next(m) {
		h := x.home(x.slots.w[m] >> 32)
		// the entry at m may fill the hole at j when its home is not
		// cyclically within (j, m]
		if (m-h+n)%n >= (m-j+n)%n {
			x.slots.w[j] = x.slots.w[m]
			j = m
		}
	}
	x.slots.w[j] = 0
	x.n--
}

// keyIs reports whether row i's key text is k. A row the spill file
// cannot give back matches nothing; the error fails the Load (Load checks
// spill.err before it commits).
func (t *memTable) keyIs(i int, k []byte) bool {
	var err error
	t.keyBuf, err = t.keyAt(t.keyBuf[:0], i)
	if err != nil {
		t.spill.err = cmp.Or(t.spill.err, err)
		return false
	}
	return bytes.Equal(t.keyBuf, k)
}

// keyAt appends the key text of live row i to dst.
func (t *memTable) keyAt(dst []byte, i int) ([]byte, error) {
	if r := t.rows[i]; r != nil {
		return t.appendKeyOf(dst, r), nil
	}
	return t.spill.appendKey(dst, coldRef(t.cold.w[i]), t.def.PrimaryKey)
}
