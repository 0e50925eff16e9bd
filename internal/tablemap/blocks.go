package tablemap

import "unsafe"

// Blocks keeps the text blocks of loaded batches for the rows of later
// ones (Layout.ShareBlocks). Without it every batch's text was new memory:
// the heap grew to the collector's goal before any of it was used again,
// and each fresh page cost a fault (a fifth of the CPU of a wide stream's
// dry run, docs/performance.md).
//
// A block may go back only when nothing reads a string cut from it again:
// the loader gives a batch's blocks back once its load finished, and only
// when the engine keeps no row value past Load (engine.ValueKeeper). Rows
// are never cut from a block that holds another batch's rows (Seal). Not
// safe for concurrent use: the pipeline's coordinator owns it.
type Blocks struct {
	free [][]byte
	// Poison overwrites a block given back, so that a string that should
	// not have outlived its batch reads as garbage in a test instead of
	// as another row's text (the pipeline sets it under the race
	// detector, as it checks its slots there).
	Poison bool
	// Reused counts blocks handed out again, for tests.
	Reused int
}

// maxFreeBlocks bounds what Blocks keeps: 16 MiB of text, about one
// default batch of a wide stream, counted in SPEC §10's constant.
const maxFreeBlocks = 16 << 20 / blockSize

// put takes back a block of blockSize bytes; others, and blocks past the
// bound, are left to the collector.
func (bs *Blocks) put(block string) {
	if len(block) != blockSize || len(bs.free) >= maxFreeBlocks {
		return
	}
	b := unsafe.Slice(unsafe.StringData(block), len(block))
	if bs.Poison {
		for i := range b {
			b[i] = 0xff // not UTF-8: any read of it shows
		}
	}
	bs.free = append(bs.free, b[:0])
}

// get returns an empty block of blockSize capacity, or nil.
func (bs *Blocks) get() []byte {
	n := len(bs.free)
	if n == 0 {
		return nil
	}
	b := bs.free[n-1]
	bs.free[n-1] = nil
	bs.free = bs.free[:n-1]
	bs.Reused++
	return b
}

// ShareBlocks makes l take its full-size text blocks from bs (nil: from
// the allocator) and give them back there (Recycle).
func (l *Layout) ShareBlocks(bs *Blocks) { l.blocks = bs }

// Seal ends the current text block for l's rows: the next row starts a new
// one. The loader seals a layout when it hands a batch to be loaded, so
// that a block holds the rows of one batch only, and giving back a loaded
// batch's blocks (Recycle) cannot give back text of rows still buffered.
func (l *Layout) Seal() {
	l.sealed = max(l.sealed, cap(l.block))
	l.block = nil
}

// Recycle gives blocks, held by a loaded batch whose values nothing reads
// again (see Blocks), back to l's Blocks, if it shares one. Each must be
// a whole block as Block returned it.
func (l *Layout) Recycle(blocks []string) {
	if l.blocks == nil {
		return
	}
	for _, b := range blocks {
		l.blocks.put(b)
	}
}
