//go:build unix

package bench

import (
	"syscall"
	"time"
)

// CPUTime is the user and system CPU time this process has used so far,
// all threads. Benchmarks report it per record beside wall-clock time: on
// a shared machine the wall clock moves with the other jobs, the CPU
// time far less.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
