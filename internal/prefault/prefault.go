// Package prefault maps the pages of fresh memory in one system call
// instead of one page fault per page at its first write.
//
// The loader's buffered rows (row slots and text blocks, 16 KiB each) are
// mostly new memory: with many streams, max_buffered_bytes worth of them
// is first written while the buffers fill. Each 4 KiB page's first write
// was a fault, and on the virtual machines this project runs on a fault
// costs several microseconds of system time (200 interleaved streams,
// 1,000,000 records: 43,000 faults, 0.3 s of 1.7 s). Asking the kernel to
// populate a new chunk's pages at once (MADV_POPULATE_WRITE, Linux 5.14)
// maps the same pages, zeroed as a fault would, for less than half the
// system time (docs/performance.md). On Linux with 4 KiB pages the new
// chunk's 2 MiB range is populated on a transparent huge page when none of
// it is mapped yet (prefault_linux.go): even populated, each 4 KiB page's
// first write cost some 3 µs on those machines. Where the calls are not
// available they do nothing, and the pages fault in as before: the
// contents never differ.
package prefault

import "unsafe"

const pageSize = 4096

// Write asks for the whole pages inside [p, p+n) to be mapped writable
// now. It never changes what the memory holds; errors (an old kernel, a
// range the kernel refuses) are ignored, as the first writes then map the
// pages.
func Write(p unsafe.Pointer, n int) {
	if p == nil || n < pageSize {
		return
	}
	start := (uintptr(p) + pageSize - 1) &^ (pageSize - 1)
	end := (uintptr(p) + uintptr(n)) &^ (pageSize - 1)
	if end <= start {
		return
	}
	// Only the pages wholly inside the object: a page it shares with
	// another object is the allocator's, not ours to advise on.
	populate(unsafe.Add(p, start-uintptr(p)), int(end-start))
}
