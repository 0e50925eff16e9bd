//go:build linux

package prefault

import (
	"os"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of a transparent huge page where base pages are
// 4 KiB (amd64, and arm64 in its usual configuration). With larger base
// pages a huge page is 32 MiB or more, too coarse for a 16 KiB chunk:
// there populate asks for no huge pages.
const hugePage = 2 << 20

// populate maps [p, p+n) in one call, on huge pages where it can.
//
// On the virtual machines this project measures on, the first write to
// each 4 KiB page of fresh memory costs some 3 µs even once the page is
// populated, against ~0.2 µs a page when a huge page backs it
// (BenchmarkFirstWrite, docs/performance.md): a run that fills
// max_buffered_bytes writes tens of thousands of fresh pages. Under the
// usual setting ("madvise") the Go heap gets no huge pages, so the
// huge-page-aligned range around [p, p+n) is marked eligible
// (MADV_HUGEPAGE) for the populate, which then backs a range none of
// whose pages is mapped yet with one huge page, and is marked ineligible
// again (MADV_NOHUGEPAGE) at once, so that khugepaged never fills pages
// the runtime has given back to the system into huge pages later (which
// made the Go 1.21 runtime's own use of the advice grow RSS, and RSS is
// what max_buffered_bytes bounds). Advice changes no byte of memory, the
// range's other objects' included. Errors (no THP in the kernel, "never"
// set) are ignored: the pages are then mapped as before.
func populate(p unsafe.Pointer, n int) {
	if os.Getpagesize() != 4096 {
		_ = unix.Madvise(unsafe.Slice((*byte)(p), n), unix.MADV_POPULATE_WRITE)
		return
	}
	lo := uintptr(p) &^ (hugePage - 1)
	hi := (uintptr(p) + uintptr(n) + hugePage - 1) &^ (hugePage - 1)
	if hi-lo == hugePage && lastHuge.Swap(lo) == lo {
		// Inside the huge-page range the last call advised: populated
		// then, on a huge page or not.
		_ = unix.Madvise(unsafe.Slice((*byte)(p), n), unix.MADV_POPULATE_WRITE)
		return
	}
	advise(lo, hi, unix.MADV_HUGEPAGE)
	_ = unix.Madvise(unsafe.Slice((*byte)(p), n), unix.MADV_POPULATE_WRITE)
	advise(lo, hi, unix.MADV_NOHUGEPAGE)
}

// lastHuge is the start of the huge-page range populate advised last: the
// next chunks are mostly cut from the same range, which needs the advice
// once. A hint about the process's memory, as the kernel's flags are: a
// stale one only costs a huge page not asked for.
var lastHuge atomic.Uintptr

// advise gives advice for [lo, hi), addresses rather than a slice: the
// range may reach past the object p pointed into (the heap's other
// objects), which no Go pointer may be made for.
func advise(lo, hi uintptr, advice int) {
	_, _, _ = unix.Syscall(unix.SYS_MADVISE, lo, hi-lo, uintptr(advice))
}
