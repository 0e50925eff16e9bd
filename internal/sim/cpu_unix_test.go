//go:build unix

package sim

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time used so far by this process and its waited-for
// children (the subprocess trials' target-oracle runs).
func cpuTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total
}
