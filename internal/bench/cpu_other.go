//go:build !unix

package bench

import "time"

// CPUTime is not measured where the OS does not report it.
func CPUTime() time.Duration { return 0 }
