//go:build linux

package prefault

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

func populate(p unsafe.Pointer, n int) {
	_ = unix.Madvise(unsafe.Slice((*byte)(p), n), unix.MADV_POPULATE_WRITE)
}
