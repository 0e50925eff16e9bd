// Package conformance finds the conformance streams: other projects' Singer
// test streams kept in ../shared/conformance (and more, from real taps too,
// in ../shared/conformance-more) beside the repository. Tests of several
// packages run them; a clone on its own skips those tests.
package conformance

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns ../shared/conformance beside the repository that holds the
// working directory (the first parent with a go.mod), or skips the test
// with a message when it is absent.
func Dir(tb testing.TB) string {
	tb.Helper()
	return shared(tb, "conformance")
}

// MoreDir returns ../shared/conformance-more as Dir does.
func MoreDir(tb testing.TB) string {
	tb.Helper()
	return shared(tb, "conformance-more")
}

func shared(tb testing.TB, name string) string {
	tb.Helper()
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for dir := wd; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
			continue
		}
		c := filepath.Join(dir, "..", "shared", name)
		if _, err := os.Stat(c); err == nil {
			return c
		}
		break
	}
	tb.Skipf("../shared/%s is absent beside the repository: conformance streams not run", name)
	return ""
}
