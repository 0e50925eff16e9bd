//go:build linux

package prefault

import (
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// BenchmarkFirstWrite prices the first write to a page of memory the
// process has never written, against a page written before: the cost that
// separates a run whose buffers fill max_buffered_bytes (200 interleaved
// streams) from one that reuses a few megabytes (docs/performance.md,
// "Issue 18 rows, thirteenth session"). Each op maps 16 MiB of fresh
// anonymous memory (munmapped after, so no op sees another's pages) and
// writes one word per 64-byte line: "fresh" as the pages come,
// "populated-4k" after MADV_POPULATE_WRITE alone and "populated" after
// Write (huge pages where the kernel gives them), both outside the timer,
// "again" a second pass over pages already written. ns/page is the figure.
func BenchmarkFirstWrite(b *testing.B) {
	const size = 16 << 20
	for _, mode := range []string{"fresh", "populated-4k", "populated", "again"} {
		b.Run(mode, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				m, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
				if err != nil {
					b.Fatal(err)
				}
				switch mode {
				case "populated-4k":
					_ = unix.Madvise(m, unix.MADV_POPULATE_WRITE)
				case "populated":
					Write(unsafe.Pointer(&m[0]), size)
				case "again":
					touch(m)
				}
				b.StartTimer()
				touch(m)
				b.StopTimer()
				if err := unix.Munmap(m); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*size/pageSize), "ns/page")
		})
	}
}

func touch(m []byte) {
	for i := 0; i < len(m); i += 64 {
		m[i] = 1
	}
}
