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
