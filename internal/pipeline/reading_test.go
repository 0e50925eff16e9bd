package pipeline_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// canSeeReads reports whether readingFile works here: it needs Linux's
// /proc/self/fdinfo.
func canSeeReads() bool {
	_, err := os.Stat("/proc/self/fdinfo")
	return err == nil
}

// readingFile returns once this process has path open and its offset is
// past the first byte: the run under test is inside that file, which a
// sleep could only guess. It fails the test when done yields first (the run
// ended without reading the file) or after 20 s.
func readingFile(t *testing.T, path string, done <-chan error) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for !fileReadPast(path, 0) {
		select {
		case err := <-done:
			t.Fatalf("the run ended (%v) before reading %s", err, path)
		case <-deadline:
			t.Fatalf("%s not read after 20 s", path)
		case <-tick.C:
		}
	}
}

// fileReadPast reports whether a descriptor of this process open on path
// has its offset beyond n.
func fileReadPast(path string, n int64) bool {
	fds, _ := filepath.Glob("/proc/self/fd/*")
	for _, fd := range fds {
		if target, err := os.Readlink(fd); err != nil || target != path {
			continue
		}
		info, err := os.ReadFile("/proc/self/fdinfo/" + filepath.Base(fd))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(info), "\n") {
			if v, ok := strings.CutPrefix(line, "pos:"); ok {
				if pos, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && pos > n {
					return true
				}
			}
		}
	}
	return false
}
