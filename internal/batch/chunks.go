package batch

import "math/bits"

// FirstChunkRows is the size of a buffer's first chunk; the next ones
// double up to Chunks.Rows, so that a stream with a handful of rows (one
// of thousands) holds a few hundred bytes of slots, not a whole chunk.
const FirstChunkRows = 4

// Chunks lays a buffer's rows out in chunks: chunk k holds
// FirstChunkRows << k rows while that is below Rows, then Rows each. A
// batch costs a handful of allocations whatever its size, and growing
// never copies the rows before.
type Chunks struct {
	Rows int // rows per full chunk, at least 1
}

// Of returns the chunk holding row i and the row's index in it.
func (c Chunks) Of(i int) (k, j int) {
	doubling := c.doubling()
	first := FirstChunkRows * (1<<doubling - 1) // rows in the doubling chunks
	if i < first {
		k = bits.Len(uint(i/FirstChunkRows+1)) - 1
		return k, i - FirstChunkRows*(1<<k-1)
	}
	i -= first
	return doubling + i/c.Rows, i % c.Rows
}

// Size is the number of rows chunk k holds.
func (c Chunks) Size(k int) int {
	if k < c.doubling() {
		return FirstChunkRows << k
	}
	return c.Rows
}

// doubling is how many chunks are smaller than Rows.
func (c Chunks) doubling() int {
	if c.Rows <= FirstChunkRows {
		return 0
	}
	return bits.Len(uint((c.Rows - 1) / FirstChunkRows))
}
