package memory

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// CheckDumpDir refuses a --dry-run-dump directory that the dump must not
// replace: one that holds the working directory, a file, or a directory
// with anything but an earlier dump's files. "Replaces DIR" (SPEC §11)
// must never mean deleting a user's data.
func CheckDumpDir(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("dump directory %s: %w", dir, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if wd, err := os.Getwd(); err == nil {
		if real, err := filepath.EvalSymlinks(wd); err == nil {
			wd = real
		}
		if wd == abs || strings.HasPrefix(wd, abs+string(filepath.Separator)) {
			return fmt.Errorf("dump directory %s holds the working directory: choose a new directory", dir)
		}
	}
	fi, err := os.Stat(abs)
	if os.IsNotExist(err) {
		return canCreate(dir, abs)
	}
	if err != nil {
		return fmt.Errorf("dump directory %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("dump directory %s is a file: choose a new directory", dir)
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return fmt.Errorf("dump directory %s: %w", dir, err)
	}
	for _, e := range entries {
		switch name := e.Name(); {
		case name == "tables.json" || name == "statements.sql":
		case name == "tables" && e.IsDir():
			if err := onlyRowFiles(filepath.Join(abs, name)); err != nil {
				return fmt.Errorf("dump directory %s: %w", dir, err)
			}
		default:
			return fmt.Errorf("dump directory %s holds %q, which is not part of a dump: choose a new or empty directory", dir, name)
		}
	}
	return nil
}

func onlyRowFiles(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			return fmt.Errorf("tables/%s is not part of a dump: choose a new or empty directory", e.Name())
		}
	}
	return nil
}

// canCreate proves that a dump directory which does not exist yet can be
// made, by making it and removing what was made: a dump to a place that
// cannot be written (a path under a file, a read-only file system, a
// folder without permission) fails before the run, not after it has read
// its whole input and written its states.
func canCreate(dir, abs string) error {
	first := abs // the highest directory that MkdirAll makes
	for p := filepath.Dir(abs); p != first; p = filepath.Dir(p) {
		if _, err := os.Lstat(p); err == nil {
			break
		}
		first = p
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return fmt.Errorf("dump directory %s cannot be created: %w", dir, err)
	}
	return os.RemoveAll(first)
}
