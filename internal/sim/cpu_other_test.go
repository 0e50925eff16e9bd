//go:build !unix

package sim

import "time"

// cpuTime is not measured here: trial reports show 0 CPU.
func cpuTime() time.Duration { return 0 }
