package prefault

import (
	"testing"
	"unsafe"
)

// Write never changes what memory holds: new memory stays zero, written
// memory keeps its bytes, whatever the range's alignment and size.
func TestWriteKeepsContents(t *testing.T) {
	for _, size := range []int{0, 1, pageSize - 1, pageSize, pageSize + 1, 5*pageSize + 123, 64 << 10} {
		fresh := make([]byte, size+2*pageSize)
		written := make([]byte, size+2*pageSize)
		for i := range written {
			written[i] = byte(i*7 + 1)
		}
		for _, off := range []int{0, 1, pageSize - 1} {
			Write(unsafe.Pointer(&fresh[off]), size)
			Write(unsafe.Pointer(&written[off]), size)
		}
		for i, b := range fresh {
			if b != 0 {
				t.Fatalf("size %d: fresh byte %d = %#x, want 0", size, i, b)
			}
		}
		for i, b := range written {
			if b != byte(i*7+1) {
				t.Fatalf("size %d: written byte %d = %#x, want %#x", size, i, b, byte(i*7+1))
			}
		}
	}
	Write(nil, 1<<20) // nothing to advise on
}

// Write's advice covers the huge-page range around what it is given
// (prefault_linux.go): the memory around a range, other objects' in the
// heap, keeps its bytes too, as does the range itself, called again and
// across a huge page's boundary.
func TestWriteKeepsNeighbours(t *testing.T) {
	const size = 8 << 20
	mem := make([]byte, size)
	for i := range mem {
		mem[i] = byte(i*13 + 5)
	}
	for _, r := range [][2]int{{3<<20 + 123, 16 << 10}, {3<<20 + 123, 16 << 10}, {4<<20 - 5000, 16 << 10}, {6<<20 - 7, 64 << 10}, {1 << 20, 2 << 20}} {
		Write(unsafe.Pointer(&mem[r[0]]), r[1])
	}
	for i, b := range mem {
		if b != byte(i*13+5) {
			t.Fatalf("byte %d = %#x, want %#x", i, b, byte(i*13+5))
		}
	}
}
