//go:build !unix

package memory

// mapWords maps nothing here: arrays stay on the heap.
func mapWords(int) ([]uint64, bool) { return nil, false }

func unmapWords([]uint64) {}
