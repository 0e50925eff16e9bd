//go:build unix

package memory

import (
	"syscall"
	"unsafe"
)

// mapWords maps n zeroed words of anonymous memory; nil if the system
// refuses (the caller then uses the heap).
func mapWords(n int) ([]uint64, bool) {
	b, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, false
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), n), true
}

func unmapWords(w []uint64) {
	w = w[:cap(w)]
	_ = syscall.Munmap(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), len(w)*8))
}
