package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"
)

// Result is one timed run of a command over the benchmark file.
type Result struct {
	Seconds float64
	PeakRSS int64 // bytes
}

// Measure runs cmd (with GOMAXPROCS=procs) and returns its wall time and
// peak resident memory.
func Measure(name string, args []string, procs int) (Result, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), fmt.Sprintf("GOMAXPROCS=%d", procs))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = io.Discard
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return Result{}, fmt.Errorf("%s: %w\n%s", filepath.Base(name), err, tail(stderr.Bytes()))
	}
	return Result{Seconds: time.Since(start).Seconds(), PeakRSS: peakRSS(cmd.ProcessState)}, nil
}

func tail(b []byte) string {
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

// Median returns the run with the median time.
func Median(rs []Result) Result {
	s := slices.Clone(rs)
	slices.SortFunc(s, func(a, b Result) int {
		switch {
		case a.Seconds < b.Seconds:
			return -1
		case a.Seconds > b.Seconds:
			return 1
		}
		return 0
	})
	return s[len(s)/2]
}

// Baseline is the yardstick loop of ../shared/bench/baseline, for machines
// without ../shared: every line decoded into maps with exact numbers, no
// validation. It returns the number of RECORD messages.
func Baseline(r io.Reader) (int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	n := 0
	for sc.Scan() {
		var m map[string]any
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		if err := d.Decode(&m); err != nil {
			return n, err
		}
		if m["type"] == "RECORD" {
			n++
		}
	}
	return n, sc.Err()
}
