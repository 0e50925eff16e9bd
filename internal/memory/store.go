package memory

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/target-oracle/target-oracle/internal/table"
)

// A store makes the embedded engine durable across processes, for crash
// tests: a test kills the target with SIGKILL at any moment, then runs it
// again on the same store, and compares the tables. Every change is
// committed by writing the whole snapshot to a temporary file, syncing it,
// renaming it over the old one and syncing the directory, so a killed process leaves either the
// state before a change or the state after it — the atomicity a database
// transaction gives. It is for tests only (the cost grows with the rows).

type snapshot struct {
	Tables map[string]snapshotTable `json:"tables"`
}

type snapshotTable struct {
	Def     *table.Table        `json:"def"`
	HasRows bool                `json:"has_rows"`
	Rows    []map[string]string `json:"rows"`
	// Unused and Migration: see memTable.
	Unused    int        `json:"unused,omitempty"`
	Migration *migration `json:"migration,omitempty"`
}

// load reads the store, if it exists. The caller holds no lock (New).
func (e *Engine) load() error {
	b, err := os.ReadFile(e.opts.StorePath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	var s snapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("store %s: %w", e.opts.StorePath, err)
	}
	for name, st := range s.Tables {
		t := newMemTable(st.Def, true, nil)
		t.hasRows, t.rows, t.unused, t.migration = st.HasRows, st.Rows, st.Unused, st.Migration
		t.reindex()
		e.setTable(name, t)
	}
	return nil
}

// commit writes the store; the caller holds e.mu.
func (e *Engine) commit() error {
	if e.opts.StorePath == "" {
		return nil
	}
	s := snapshot{Tables: map[string]snapshotTable{}}
	for name, t := range e.tables {
		s.Tables[name] = snapshotTable{Def: t.def, HasRows: t.hasRows, Rows: t.ordered(), Unused: t.unused, Migration: t.migration}
	}
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(e.opts.StorePath), ".store-*")
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("store: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("store: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if err := os.Rename(tmp.Name(), e.opts.StorePath); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	// The rename is durable only once the directory entry is: without
	// this sync a crash of the machine (not only of the process) could
	// bring back the old snapshot after a state was written.
	return syncDir(filepath.Dir(e.opts.StorePath))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("store: sync %s: %w", dir, err)
	}
	return nil
}
