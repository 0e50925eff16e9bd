package memory

// words is a growable array of 64-bit words (a dump run's spill
// references and key index, a few words a row). Large arrays live outside
// the Go heap where the system allows (words_unix.go): the collector lets
// the heap grow to twice what it holds live, and these arrays, which grow
// with the rows and hold no pointers, would otherwise double with it.
type words struct {
	w      []uint64
	mapped bool // w is mapped memory, given back by free
}

// mapMin is the size from which words are mapped: smaller arrays (every
// table of a test, a small run) stay on the heap.
const mapMin = 1 << 20

// resize makes the array n words long: words past the old length are
// zero, the others kept.
func (a *words) resize(n int) {
	if n <= cap(a.w) {
		old := len(a.w)
		a.w = a.w[:n]
		if n > old {
			clear(a.w[old:])
		}
		return
	}
	c := max(n, cap(a.w)+cap(a.w)/2, 16)
	next := words{}
	if c*8 >= mapMin {
		next.w, next.mapped = mapWords(c)
	}
	if next.w == nil {
		next.w = make([]uint64, c)
	}
	next.w = next.w[:n]
	copy(next.w, a.w)
	a.free()
	*a = next
}

// free gives the memory back; the array is empty after.
func (a *words) free() {
	if a.mapped {
		unmapWords(a.w)
	}
	*a = words{}
}
