package pipeline

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"unsafe"

	"github.com/target-oracle/target-oracle/internal/prefault"
)

// Row slots the collector does not scan.
//
// A stream's buffered rows are string headers (engine.Row.Values), one
// pointer per value, into a handful of text blocks. With many streams
// every record stays buffered until the end of the input, and each
// collector cycle walked all of those pointers again, and while it ran
// every store of a value paid the write barrier: a third of the CPU with
// 200 streams (docs/performance.md). So while a buffer fills, its chunks
// of slots are memory the collector sees as holding no pointers
// (newSlots), and the buffer keeps alive, in pointers the collector does
// see, everything those slots point at (ownerSet): the text blocks and the
// few metadata strings, a handful of pointers per thousand values.
//
// The rules:
//   - Every slot a buffer hands out is clean (all zero), as before: the
//     write barrier of a store into a slot may look at the old value, which
//     must not be a stale pointer to freed memory.
//   - The row builder writes a record's values into the buffer's scratch
//     row (buffer.next), memory the collector scans: until the row is
//     committed, what it points at stays alive however much the builder
//     allocates (a new text block, a converted value) and however often
//     the collector runs meanwhile. A value is written into a slot only
//     by buffer.commitRow, through ownerSet.keep, which proves each value
//     covered (inside a block held, or the same pointer as a string held)
//     or holds it, before it leaves the scratch row. So nothing needs to
//     know where the row builder takes its values from: a value from
//     anywhere is kept.
//   - An empty value is written as the empty string itself: an empty
//     string may still carry a pointer into the object it was cut from,
//     which no owner holds, and a copy of it into memory the collector
//     scans would hand the collector a pointer to freed memory.
//   - A job changes a value of a buffered row only through buffer.set,
//     which holds the new value first (batch metadata, history hashes,
//     type conversions). Engines never write into a row (engine.Row).
//   - Owners are dropped only with the slots: when the buffer is cleared
//     for reuse, or goes to the collector.
// Built with the race detector (the CI's race stage runs the pipeline's
// tests), every job checks that every value of its rows is held
// (checkHeld), so a write that bypassed set fails a test, not a load.

// newSlots returns n clean slots, of capacity c, in memory allocated as
// pointer-free, so that the collector neither scans it nor marks what it
// points at (see above: the buffer's ownerSet does).
func newSlots(n, c int) []string {
	if c == 0 {
		return nil
	}
	const words = int(unsafe.Sizeof("")) / 8
	w := make([]uint64, words*c)
	prefault.Write(unsafe.Pointer(&w[0]), len(w)*8) // rows fill it next
	return unsafe.Slice((*string)(unsafe.Pointer(&w[0])), c)[:n]
}

// ownerSet keeps alive, for the collector, what a buffer's slots point at.
// A value is covered when it lies inside the block last held (lo, hi) or
// has the same data pointer as the last value held for its column (last):
// any object such a pointer lies in is one an owner keeps reachable. Both
// tests are a comparison or two: the metadata columns repeat one string
// for many rows, the others are cut from the block.
type ownerSet struct {
	owners []string
	lo, hi uintptr // the block the last owner added as a block spans
	// mlo, mhi span the metadata block last held (the receipt times'
	// block, clockText): values from it are covered as a block's are.
	mlo, mhi uintptr
	last     []uintptr
	// blocks are the owners that are the row builder's text blocks: a
	// loaded batch gives them back (buffer.recycle).
	blocks []string
}

func dataOf(s string) uintptr { return uintptr(unsafe.Pointer(unsafe.StringData(s))) }

// keep writes row's values into slots (clean, as long as row), each
// covered first. block is the row builder's current text block
// (tablemap.Layout.Block), a hint: a value inside it holds the whole
// block, so the next rows' values are covered by one comparison each; any
// other value holds itself. Empty values stay as the clean slot has them.
func (o *ownerSet) keep(slots, row []string, block, meta string) {
	if len(o.last) != len(row) {
		o.last = make([]uintptr, len(row))
	}
	last := o.last[:len(row)]
	slots = slots[:len(row)]
	lo, span := o.lo, o.hi-o.lo
	mlo, mspan := o.mlo, o.mhi-o.mlo
	for c, v := range row {
		if v == "" {
			continue
		}
		if p := dataOf(v); p-lo >= span && p-mlo >= mspan && p != last[c] {
			o.hold(v, p, block, meta, c)
			lo, span = o.lo, o.hi-o.lo
			mlo, mspan = o.mlo, o.mhi-o.mlo
		}
		slots[c] = v
	}
}

// hold keeps v (at p, column c) alive: by block (the row builder's
// current text block) or meta (the receipt times' block) when it lies in
// one, else by itself.
func (o *ownerSet) hold(v string, p uintptr, block, meta string, c int) {
	if b := dataOf(block); block != "" && p-b < uintptr(len(block)) {
		o.owners = append(o.owners, block)
		o.blocks = append(o.blocks, block)
		o.lo, o.hi = b, b+uintptr(len(block))
		return
	}
	if b := dataOf(meta); meta != "" && p-b < uintptr(len(meta)) {
		o.owners = append(o.owners, meta) // not a layout's: never given back
		o.mlo, o.mhi = b, b+uintptr(len(meta))
		return
	}
	o.owners = append(o.owners, v)
	o.last[c] = p
}

// reset forgets every owner: the slots must be clean (or copied) first.
func (o *ownerSet) reset() {
	clear(o.owners)
	clear(o.last)
	clear(o.blocks)
	o.owners, o.blocks, o.lo, o.hi, o.mlo, o.mhi = o.owners[:0], o.blocks[:0], 0, 0, 0, 0
}

// seal ends, as b goes to be loaded, the text block its last rows were
// cut from: the rows after it start a new one, so that b's blocks hold
// only b's rows and can be given back with it (recycle). Chunks it was
// given ahead and did not fill go to the collector.
func (b *buffer) seal() {
	if b.layout != nil {
		b.layout.Seal()
	}
	clear(b.ahead)
	b.ahead, b.aheadFrom = nil, 0
}

// recycle gives the text blocks of b, a loaded batch being cleared, to
// its layout's shared Blocks (if the engine keeps no value: see
// tablemap.Blocks). Only the coordinator calls it, after the batch's job
// completed, before the owners are dropped.
func (b *buffer) recycle() {
	if b.layout != nil {
		b.layout.Recycle(b.owners.blocks)
	}
	clear(b.owners.blocks) // given once: the owners still hold them
	b.owners.blocks = b.owners.blocks[:0]
}

// set writes v into column c of row vals, a row of b: held first (once
// for a value every row gets, as batch metadata).
func (b *buffer) set(vals []string, c int, v string) {
	if v == "" {
		vals[c] = "" // not v: see the rules above
		return
	}
	if p := dataOf(v); c >= len(b.owners.last) || b.owners.last[c] != p {
		b.owners.owners = append(b.owners.owners, v)
		if c < len(b.owners.last) {
			b.owners.last[c] = p
		}
	}
	vals[c] = v
}

// checkHeldUnderRace is checkHeld in a build with the race detector, and
// nothing otherwise (a pass over every value of the batch).
func (b *buffer) checkHeldUnderRace() error {
	if !raceEnabled {
		return nil
	}
	if err := b.checkHeld(); err != nil {
		return fmt.Errorf("internal error: %w", err)
	}
	return nil
}

// checkHeld reports a value of b's rows that no owner holds (see above).
func (b *buffer) checkHeld() error {
	type span struct{ lo, hi uintptr }
	held := make([]span, 0, len(b.owners.owners))
	for _, o := range b.owners.owners {
		p := dataOf(o)
		held = append(held, span{p, p + uintptr(len(o))})
	}
	slices.SortFunc(held, func(x, y span) int { return cmp.Compare(x.lo, y.lo) })
	merged := held[:0]
	for _, h := range held {
		if n := len(merged); n > 0 && h.lo <= merged[n-1].hi {
			merged[n-1].hi = max(merged[n-1].hi, h.hi)
			continue
		}
		merged = append(merged, h)
	}
	for i := range b.rows() {
		for c, v := range b.row(i) {
			if v == "" {
				continue
			}
			p := dataOf(v)
			// The first span starting after p; the one before must hold p.
			k := sort.Search(len(merged), func(k int) bool { return merged[k].lo > p })
			if k == 0 || p >= merged[k-1].hi {
				return fmt.Errorf("row %d (line %d) column %d: value %.40q is held by no owner: a write into a buffered row must go through buffer.set (slots.go)", i, b.lines[i], c, v)
			}
		}
	}
	return nil
}
