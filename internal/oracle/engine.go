// Package oracle is the Oracle engine: it runs the loader's plan
// (engine.Change, engine.Step) on an Oracle server with the statements of
// the one SQL renderer, oraclesql. It builds no SQL itself.
//
// Every database call goes through Conn, a seam in front of database/sql
// that receives the oraclesql.Statement along with its arguments, so that
// tests run the whole pipeline against a fake server (package
// oracle/fake) and fail any call.
//
// Data travels as array binds (SPEC §6.1): one execute per statement and
// chunk of at most Options.MaxArrayRows rows, every value as text in the
// renderer's bind format, one Go type per column, measured as go-ora
// encodes it (binds.go); rows with values too long for a VARCHAR bind run
// in executes of their own, as LONG binds or the split upsert, and as
// temporary LOBs only where neither can carry them. A batch is one
// transaction; transient errors retry the whole batch on a fresh session
// with exponential backoff; a permanent row error is narrowed down to the
// failing record's input line by re-running halves of the batch in
// transactions that are rolled back (SPEC §6.3).
package oracle

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// Options configure the engine. Zero values take the defaults.
type Options struct {
	// MaxStringBytes is the longest value the server takes as a VARCHAR
	// bind: 4000, or 32767 with MAX_STRING_SIZE=EXTENDED. Longer values of
	// LOB columns are bound as LOBs.
	MaxStringBytes int
	// NationalCharsetID is the national character set's id (go-ora's
	// converters): 2000 (AL16UTF16, the default when 0) or 871 (UTF8).
	// National binds are measured in it.
	NationalCharsetID int
	// Charset is the database character set (NLS_CHARACTERSET). When it
	// is not Unicode, text it cannot hold is refused before it is sent
	// and JSON travels as ASCII; "" means Unicode.
	Charset string
	// MaxTempLOBs bounds the temporary LOBs of one execute; 0 means
	// DefaultMaxTempLOBs.
	MaxTempLOBs int
	// MaxArrayRows bounds the rows of one array execute (at most
	// MaxArrayRowsLimit; 0 means DefaultMaxArrayRows).
	MaxArrayRows int
	// StatementTimeout bounds each statement (statement_timeout_seconds);
	// 0 means none.
	StatementTimeout time.Duration
	// DDLLockTimeoutSeconds is the session's DDL_LOCK_TIMEOUT
	// (ddl_lock_timeout_seconds); 0 leaves the server's.
	DDLLockTimeoutSeconds int
	// Retry is the backoff of transient errors.
	Retry Retry
	// MaxBisectProbes bounds the executes spent finding a failing row;
	// 0 means 40 (enough for 2^20 rows).
	MaxBisectProbes int
	// Log receives retry warnings; nil discards them.
	Log *slog.Logger
	// ReadOnly makes the engine refuse every change: --plan reads the
	// catalog and nothing else (a migration left half-way by a killed run
	// is then reported, not finished).
	ReadOnly bool
	// Sleep waits between retries; nil waits on a timer. Tests make it
	// instant.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Retry is an exponential backoff: Attempts tries in all, the n-th retry
// waiting Base·2^(n-1), at most Max.
type Retry struct {
	Attempts  int           // 0 means 5
	Base, Max time.Duration // 0 means 1s and 30s
}

// Engine is the Oracle engine. It is safe for concurrent use; each
// Session is one pinned database session.
type Engine struct {
	dial Dialer
	r    *oraclesql.Renderer
	o    Options

	// The catalog session reads table shapes (Describe) and finishes
	// migrations a killed run left; it is opened on first use.
	catMu sync.Mutex
	cat   *session
}

var _ engine.Engine = (*Engine)(nil)

// New returns an engine that opens sessions with dial and renders every
// statement with r.
func New(dial Dialer, r *oraclesql.Renderer, opts Options) *Engine {
	if opts.MaxStringBytes <= 0 {
		opts.MaxStringBytes = DefaultMaxStringBytes
	}
	if opts.MaxArrayRows <= 0 {
		opts.MaxArrayRows = DefaultMaxArrayRows
	}
	opts.MaxArrayRows = min(opts.MaxArrayRows, MaxArrayRowsLimit)
	if opts.Retry.Attempts <= 0 {
		opts.Retry.Attempts = 5
	}
	if opts.Retry.Base <= 0 {
		opts.Retry.Base = time.Second
	}
	if opts.Retry.Max <= 0 {
		opts.Retry.Max = 30 * time.Second
	}
	if opts.MaxBisectProbes <= 0 {
		opts.MaxBisectProbes = 40
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Sleep == nil {
		opts.Sleep = engine.Sleep
	}
	e := &Engine{dial: dial, r: r, o: opts}
	e.cat = e.newSession("catalog")
	return e
}

// backoff is the wait before retry n (1-based).
func (e *Engine) backoff(n int) time.Duration {
	d := e.o.Retry.Base
	for i := 1; i < n && d < e.o.Retry.Max; i++ {
		d *= 2
	}
	return min(d, e.o.Retry.Max)
}

// retry runs op until it succeeds, fails with an error that is not
// transient, or used up the attempts. op must leave the session ready for
// a fresh start (drop a lost connection) before it returns a transient
// error.
func (e *Engine) retry(ctx context.Context, what string, op func() error) error {
	for attempt := 1; ; attempt++ {
		err := op()
		if err == nil || !transient(err) || ctx.Err() != nil {
			return err
		}
		if attempt >= e.o.Retry.Attempts {
			return fmt.Errorf("%s: gave up after %d attempts: %w", what, attempt, err)
		}
		d := e.backoff(attempt)
		e.o.Log.Warn("transient database error, retrying on a fresh session", "op", what, "attempt", attempt, "wait", d, "error", err)
		if err := e.o.Sleep(ctx, d); err != nil {
			return err
		}
	}
}

// Session implements engine.Engine: it opens a pinned session named name
// (V$SESSION.ACTION), retrying transient connection errors.
func (e *Engine) Session(ctx context.Context, name string) (engine.Session, error) {
	if e.o.ReadOnly {
		return nil, errors.New("oracle: the engine is read-only (--plan)")
	}
	s := e.newSession(name)
	err := e.retry(ctx, "open a session", func() error {
		_, err := s.connect(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// KeepsValues implements engine.ValueKeeper: no value of a row outlives
// Load. The engine reads a batch's values while it builds the binds of a
// statement and hands them to go-ora, which (v2.9.0) runs every execute
// on a statement of its own (Connection.ExecContext: NewStmt, exec, Close),
// encodes the values onto the wire during the execute, writes LOB values
// into temporary LOBs it frees at Close, and keeps no statement cache; no
// Go value of it is read after the execute returns. So the loader may give
// a loaded batch's text blocks to later rows (tablemap.Blocks), as it does
// for the dry run. TestOracleEngineLoadsReusedBlocksAsRead
// (internal/pipeline) runs that through go-ora and the wire peer.
// Verified on Oracle: not yet.
func (e *Engine) KeepsValues() bool { return false }

// Close implements engine.Engine: it closes the catalog session.
func (e *Engine) Close() error {
	e.catMu.Lock()
	defer e.catMu.Unlock()
	return e.cat.Close()
}

// Describe implements engine.Engine. It reads the catalog once per table;
// when it finds the marker column of a migration that a killed run left,
// it finishes that migration first (SPEC §5.5), so that nothing ever
// writes to a half-migrated table: after the old column was dropped it
// renames the marker; while the old column is still there it runs the
// same migration again (its statements are idempotent: the copy goes on
// from the rows not copied yet). A write beside a half-filled marker
// would leave stale copies: the copy skips rows whose marker is set, so
// their newer values would be lost when the marker replaces the column.
// In read-only mode (--plan) a half-done migration is an error.
func (e *Engine) Describe(ctx context.Context, schema, name string) (*table.Table, error) {
	e.catMu.Lock()
	defer e.catMu.Unlock()
	t, err := e.cat.describe(ctx, schema, name)
	if err != nil || t == nil {
		return t, err
	}
	orphans, away, pending, renamed := e.markers(t)
	unmarked, err := e.cat.unmarkedMarkers(ctx, t)
	if err != nil {
		return nil, err
	}
	if len(orphans)+len(away)+len(pending)+len(renamed)+len(unmarked) == 0 {
		return t, nil
	}
	for _, m := range pending {
		if err := e.cat.checkMarker(ctx, t, m); err != nil {
			return nil, err // before any change: nothing is lost
		}
	}
	if e.o.ReadOnly {
		col := append(append(append(append(orphans, away...), pending...), renamed...), unmarked...)[0].column
		return nil, &Error{Table: t.QualifiedName(), Err: fmt.Errorf("a migration of column %s left half-way by an earlier run must be finished first: run without --plan once", table.Quote(col))}
	}
	for _, m := range unmarked {
		e.o.Log.Warn("finishing a migration an earlier run left half-way (stopped before it marked its migration column)",
			"table", t.QualifiedName(), "column", m.column, "migration_column", m.name)
		if err := e.cat.rerunMigration(ctx, t, m); err != nil {
			return nil, &Error{Table: t.QualifiedName(), Code: oraCode(err), Err: fmt.Errorf("finish the migration of column %s left by an earlier run: %w", table.Quote(m.column), err)}
		}
		if t, err = e.cat.describe(ctx, schema, name); err != nil || t == nil {
			return t, err
		}
	}
	for _, m := range pending {
		e.o.Log.Warn("finishing a migration an earlier run left half-way", "table", t.QualifiedName(), "column", m.column)
		if err := e.cat.rerunMigration(ctx, t, m); err != nil {
			return nil, &Error{Table: t.QualifiedName(), Code: oraCode(err), Err: fmt.Errorf("finish the migration of column %s left by an earlier run: %w", table.Quote(m.column), err)}
		}
		if t, err = e.cat.describe(ctx, schema, name); err != nil || t == nil {
			return t, err
		}
	}
	for _, m := range away {
		e.o.Log.Warn("finishing a migration an earlier run left half-way (its old column renamed away)", "table", t.QualifiedName(), "column", m.column, "old_column", m.old)
		if err := e.cat.finishAway(ctx, t, m); err != nil {
			return nil, &Error{Table: t.QualifiedName(), Code: oraCode(err), Err: fmt.Errorf("finish the migration of column %s left by an earlier run: %w", table.Quote(m.column), err)}
		}
	}
	for _, m := range orphans {
		e.o.Log.Warn("finishing a migration an earlier run left half-way", "table", t.QualifiedName(), "column", m.column)
		if err := e.cat.finishMigration(ctx, t, m); err != nil {
			return nil, &Error{Table: t.QualifiedName(), Code: oraCode(err), Err: fmt.Errorf("finish the migration of column %s left by an earlier run: %w", table.Quote(m.column), err)}
		}
	}
	for _, m := range renamed {
		e.o.Log.Warn("finishing a migration an earlier run left half-way", "table", t.QualifiedName(), "column", m.column)
		if err := e.cat.restoreComment(ctx, t, m); err != nil {
			return nil, &Error{Table: t.QualifiedName(), Code: oraCode(err), Err: fmt.Errorf("finish the migration of column %s left by an earlier run: %w", table.Quote(m.column), err)}
		}
	}
	return e.cat.describe(ctx, schema, name)
}

// SchemaExists implements engine.SchemaChecker: ALL_USERS lists the
// schema. A stream routed to a schema that does not exist then fails at
// its SCHEMA naming it, before any DDL (SPEC §3 default_target_schema).
func (e *Engine) SchemaExists(ctx context.Context, schema string) (bool, error) {
	e.catMu.Lock()
	defer e.catMu.Unlock()
	st := oraclesql.ProbeSchema(schema)
	args, err := e.cat.b.scalarArgs(&st)
	if err != nil {
		return false, err
	}
	var exists bool
	err = e.retry(ctx, "read ALL_USERS", func() error {
		rows, err := e.cat.query(ctx, &st, args)
		if err != nil {
			return err
		}
		exists = len(rows) > 0
		return nil
	})
	if err != nil {
		return false, &Error{Table: schema, Code: oraCode(err), Err: fmt.Errorf("read ALL_USERS: %w", err)}
	}
	return exists, nil
}

var _ engine.IndexReader = (*Engine)(nil)

// Indexes implements engine.IndexReader: t's indexes from ALL_INDEXES,
// without the primary key's (a unique index on exactly the key) and
// without those on expressions or hidden columns, which no custom index
// is.
func (e *Engine) Indexes(ctx context.Context, t *table.Table) ([]table.Index, error) {
	e.catMu.Lock()
	defer e.catMu.Unlock()
	st := oraclesql.DescribeIndexes(t.Schema, t.Name)
	args, err := e.cat.b.scalarArgs(&st)
	if err != nil {
		return nil, err
	}
	var have []catalogIndex
	err = e.retry(ctx, "read the indexes of "+t.QualifiedName(), func() error {
		rows, err := e.cat.query(ctx, &st, args)
		if err != nil {
			return err
		}
		have, err = indexesFromCatalog(rows)
		return err
	})
	if err != nil {
		return nil, &Error{Table: t.QualifiedName(), Code: oraCode(err), Err: fmt.Errorf("read the indexes: %w", err)}
	}
	return tableIndexes(t, have), nil
}

// HasRows implements engine.RowChecker.
func (e *Engine) HasRows(ctx context.Context, t *table.Table) (bool, error) {
	e.catMu.Lock()
	defer e.catMu.Unlock()
	return e.cat.hasRows(ctx, t)
}

// hasRows asks whether t has a row, retrying transient errors.
func (s *session) hasRows(ctx context.Context, t *table.Table) (bool, error) {
	st := oraclesql.HasRows(t)
	var has bool
	err := s.e.retry(ctx, "read "+t.QualifiedName(), func() error {
		rows, err := s.query(ctx, &st, nil)
		if err != nil {
			return err
		}
		has = len(rows) > 0
		return nil
	})
	if err != nil {
		return false, &Error{Table: t.QualifiedName(), Code: oraCode(err), Err: fmt.Errorf("check for rows: %w", err)}
	}
	return has, nil
}

// describe reads a table's shape, retrying transient errors.
func (s *session) describe(ctx context.Context, schema, name string) (*table.Table, error) {
	st := oraclesql.DescribeTable(schema, name)
	args, err := s.b.scalarArgs(&st)
	if err != nil {
		return nil, err
	}
	var t *table.Table
	err = s.e.retry(ctx, "describe "+schema+"."+name, func() error {
		rows, err := s.query(ctx, &st, args)
		if err != nil {
			return err
		}
		t, err = tableFromCatalog(schema, name, rows)
		return err
	})
	if err != nil {
		return nil, &Error{Table: schema + "." + name, Code: oraCode(err), Err: fmt.Errorf("read the catalog: %w", err)}
	}
	if t != nil {
		for i := range t.Columns {
			c := &t.Columns[i]
			c.Dependents = slices.DeleteFunc(c.Dependents, func(d table.Dependent) bool {
				return d.Kind == table.DependentCheck && s.e.r.OwnCheck(t.Name, c.Name, d.Name)
			})
		}
		if err := s.describeComment(ctx, t); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// marker is a migration column found in the catalog.
type marker struct {
	column string // the column being migrated
	name   string // the marker column, MigrationColumn(column)
	// unmarked: the marker has no comment yet (unmarkedMarkers); the
	// column's own role, source and comment still stand.
	unmarked bool
	// old: the name the old column was renamed to (markers' away ones).
	old string
}

// markers finds migration marker columns: orphans (the old column is
// gone: rename the marker), away ones (the old column is renamed to the
// name the marker's comment records, table.MarkerFacts.Old: catch up
// from it, drop it, rename the marker), pending ones (beside their old
// column: the copy was not finished) and renamed ones (the rename was
// done, the column's own comment not put back yet). A marker is known by its
// comment alone (table.RoleMigration, written by the migration right
// after it adds the column), which names the column it replaces: so a
// hashed marker name is traced back too, even after the server's
// identifier limit changed, and a column that only has a marker's name
// (a user's, an earlier release's for a property) is never dropped or
// renamed. A pending marker must have this server's marker name (the
// migration is run again under it); another is left alone.
func (e *Engine) markers(t *table.Table) (orphans, away, pending, renamed []marker) {
	for _, c := range t.Columns {
		if c.Role != table.RoleMigration || len(c.Source) != 1 {
			continue
		}
		m := marker{column: c.Source[0], name: c.Name}
		switch {
		case m.column == m.name:
			renamed = append(renamed, m)
		case t.Column(m.column) == nil && c.Marker != nil && c.Marker.Old != "" && t.Column(c.Marker.Old) != nil:
			m.old = c.Marker.Old
			away = append(away, m)
		case t.Column(m.column) == nil:
			orphans = append(orphans, m)
		case e.r.MigrationColumn(m.column) == m.name:
			pending = append(pending, m)
		}
	}
	return orphans, away, pending, renamed
}

// unmarkedMarkers finds the migration columns that a killed run's
// migration added but did not mark yet: the ADD and the marker's COMMENT
// are two DDL statements, each committed on its own, so a run stopped
// between them (or whose ADD ran but answered with an error) leaves a
// column named MigrationColumn(column) beside column with no comment,
// which markers cannot know (SPEC §5.5: the next run finishes it). Such
// a column is taken for that ADD's work only when it is provably nothing
// more: it has no comment at all, is nullable, visible and without a
// default, its type is one a migration of column adds (a rewrite from
// column's type, with a conversion), and it is NULL in every row (the
// copy runs only after the COMMENT). Finishing the migration then loses
// nothing: the column held no value, and column's values are converted
// into it. Any other column of that name (a DBA's with a comment, a
// value, a default, another type) is left alone, and a migration of
// column is refused as before (its migration column is a column of the
// table). The migration is finished to the type the killed run chose,
// the column's own type; a later SCHEMA may change it again.
func (s *session) unmarkedMarkers(ctx context.Context, t *table.Table) ([]marker, error) {
	var out []marker
	uncommented := map[string]*table.Column{} // the candidates: a wide table is not searched once per column
	for i := range t.Columns {
		if c := &t.Columns[i]; c.Role == 0 && c.Comment == "" {
			uncommented[c.Name] = c
		}
	}
	if len(uncommented) == 0 {
		return nil, nil
	}
	for _, base := range t.Columns {
		name := s.e.r.MigrationColumn(base.Name)
		mc := uncommented[name]
		if mc == nil || name == base.Name || mc.Role != 0 || mc.Marker != nil || mc.Comment != "" ||
			!mc.Nullable || mc.Hidden || mc.Fill != table.FillNone || !table.Rewrites(base.Type, mc.Type) {
			continue
		}
		if _, err := s.e.r.ForeignMarker(t, base.Name, name, base.Type, mc.Type); err != nil {
			continue // no migration converts base's type to mc's
		}
		st := s.e.r.ColumnHasValue(t, name)
		var has bool
		err := s.e.retry(ctx, "read "+t.QualifiedName(), func() error {
			rows, err := s.query(ctx, &st, nil)
			has = len(rows) > 0
			return err
		})
		if err != nil {
			return nil, &Error{Table: t.QualifiedName(), Code: oraCode(err), Err: fmt.Errorf("check column %s, named as the migration column of %s: %w", table.Quote(name), table.Quote(base.Name), err)}
		}
		if !has {
			out = append(out, marker{column: base.Name, name: name, unmarked: true})
		}
	}
	return out, nil
}

// checkMarker refuses to finish a pending migration whose marker holds
// values its copy never wrote (oraclesql.Renderer.ForeignMarker): a
// column of the user's that merely has a marker's comment, whose
// "migration" would drop its column's values. A marker whose type the
// column cannot be converted to is no migration's either.
func (s *session) checkMarker(ctx context.Context, t *table.Table, m marker) error {
	old, mk := t.Column(m.column), t.Column(m.name)
	st, err := s.e.r.ForeignMarker(t, m.column, m.name, old.Type, mk.Type)
	if err != nil {
		return &Error{Table: t.QualifiedName(), Err: &foreignMarkerError{column: m.column, marker: m.name,
			why: fmt.Sprintf("no migration converts %s to its type %s", old.Type, mk.Type)}}
	}
	var foreign bool
	err = s.e.retry(ctx, "read "+t.QualifiedName(), func() error {
		rows, err := s.query(ctx, &st, nil)
		foreign = len(rows) > 0
		return err
	})
	if err != nil {
		return &Error{Table: t.QualifiedName(), Code: oraCode(err), Err: fmt.Errorf("check the migration marker %s of column %s: %w", table.Quote(m.name), table.Quote(m.column), err)}
	}
	if foreign {
		return &Error{Table: t.QualifiedName(), Err: &foreignMarkerError{column: m.column, marker: m.name,
			why: fmt.Sprintf("a row's %s holds a value that is not %s's converted (a migration's copy writes only those)", table.Quote(m.name), table.Quote(m.column))}}
	}
	return nil
}

// foreignMarkerError is a marker column that is not a migration's
// (checkMarker). It is a configuration error (exit 2): the table must be
// put right by hand before a run may use it.
type foreignMarkerError struct {
	column, marker, why string
}

func (e *foreignMarkerError) Error() string {
	return fmt.Sprintf("column %s has the comment of the marker of a migration of column %s (target-oracle:migration-of), but %s: "+
		"it is not a migration an earlier run left half-way, and finishing one would drop the values of %s; nothing was changed. "+
		"If %s is a column of yours, give it another comment (COMMENT ON COLUMN … IS '') or rename it, then run again; "+
		"if it is the migration's own (a run stopped half-way while another writer changed %s), set it to NULL in every row "+
		"(UPDATE … SET %s = NULL) and run again: the copy starts over",
		table.Quote(e.marker), table.Quote(e.column), e.why, table.Quote(e.column), table.Quote(e.marker), table.Quote(e.column), table.Quote(e.marker))
}

func (e *foreignMarkerError) Unwrap() error { return &config.Error{Msg: e.Error()} }

// rerunMigration finishes a migration whose copy was cut off: the change
// is rebuilt from the catalog (the old column's type, and the marker's,
// which the migration created with the new type) and run again; its ADD
// finds the marker there, its copy fills the rows still NULL in it, and
// the rest drops the old column, renames the marker and restores what the
// old column had (NOT NULL, primary key, indexes, comment).
func (s *session) rerunMigration(ctx context.Context, t *table.Table, m marker) error {
	old, mk := t.Column(m.column), t.Column(m.name)
	next := t.Clone()
	next.Columns = next.Columns[:0]
	for _, c := range t.Columns {
		if c.Name != m.column && c.Name != m.name {
			next.Columns = append(next.Columns, c)
		}
	}
	moved := *old
	moved.Type = mk.Type
	if !m.unmarked {
		carried(&moved, mk)
	}
	next.Columns = append(next.Columns, moved)
	ch := engine.Change{Table: next, Change: table.Change{Kind: table.Migrate, Column: m.column, From: old.Type, To: mk.Type}}
	stmts, err := s.e.r.Change(ch)
	if err != nil {
		return err
	}
	_, err = s.runDDL(ctx, next, stmts)
	return err
}

// finishMigration renames an orphaned marker column to its column with
// Renderer.FinishMigration. The table as it should be is the catalog's
// with the marker renamed, and what the marker's comment carries: the
// column's comment, its NOT NULL and the primary key it was in, which
// SET UNUSED … CASCADE CONSTRAINTS took out of the catalog (a marker of
// an earlier release records neither: the column then comes back
// nullable, without a key).
func (s *session) finishMigration(ctx context.Context, t *table.Table, m marker) error {
	want := t.Clone()
	for i := range want.Columns {
		if want.Columns[i].Name == m.name {
			c := want.Columns[i]
			want.Columns = append(want.Columns[:i], want.Columns[i+1:]...)
			c.Name = m.column
			carried(&c, t.Column(m.name))
			want.Columns = append(want.Columns, c)
			break
		}
	}
	restoreFacts(want, m.column, t.Column(m.name))
	stmts, err := s.e.r.FinishMigration(want, m.column, m.name)
	if err != nil {
		return err
	}
	_, err = s.runDDL(ctx, want, stmts)
	return err
}

// finishAway finishes a migration stopped after it renamed the old
// column away (m.old), with Renderer.FinishRenamedAway. The table as it
// should be is the catalog's without the old column, with the marker
// renamed and what its comment carries (see finishMigration); the
// primary key, if the old column is in it, is the one the marker records
// (the catalog's names the old column until its drop takes the key).
func (s *session) finishAway(ctx context.Context, t *table.Table, m marker) error {
	want := t.Clone()
	want.Columns = want.Columns[:0]
	for _, c := range t.Columns {
		if c.Name != m.name && c.Name != m.old {
			want.Columns = append(want.Columns, c)
		}
	}
	mk, old := t.Column(m.name), t.Column(m.old)
	c := *mk
	c.Name = m.column
	carried(&c, mk)
	want.Columns = append(want.Columns, c)
	if slices.Contains(want.PrimaryKey, m.old) {
		want.PrimaryKey = nil // restoreFacts takes the marker's
	}
	for i := range want.Indexes { // Clone copied them
		for k, col := range want.Indexes[i].Columns {
			if col == m.old {
				want.Indexes[i].Columns[k] = m.column
			}
		}
	}
	restoreFacts(want, m.column, mk)
	stmts, err := s.e.r.FinishRenamedAway(want, m.column, m.name, m.old, old.Type, mk.Type)
	if err != nil {
		return err
	}
	_, err = s.runDDL(ctx, want, stmts)
	return err
}

// restoreComment finishes a migration stopped after its rename: the
// column still has the marker's comment, and gets what that comment
// carries (Renderer.FinishRenamed: NOT NULL, the primary key, then its
// comment, or none) in its place.
func (s *session) restoreComment(ctx context.Context, t *table.Table, m marker) error {
	want := t.Clone()
	c := want.Column(m.column)
	carried(c, t.Column(m.name))
	restoreFacts(want, m.column, t.Column(m.name))
	stmts, err := s.e.r.FinishRenamed(want, m.column)
	if err != nil {
		return err
	}
	_, err = s.runDDL(ctx, want, stmts)
	return err
}

// restoreFacts gives column of want the NOT NULL and the primary key the
// marker mk's comment records (table.MarkerFacts), or, for a marker
// without them, leaves both as the catalog has them. A
// recorded key is taken only when the table has no primary key now
// (CASCADE CONSTRAINTS dropped it) and every one of its columns is there.
func restoreFacts(want *table.Table, column string, mk *table.Column) {
	if mk.Marker == nil {
		return
	}
	if mk.Marker.NotNull {
		want.Column(column).Nullable = false
	}
	key := mk.Marker.Key
	if len(key) == 0 || !slices.Contains(key, column) {
		return
	}
	if len(want.PrimaryKey) > 0 {
		return // a key is there: the statement would fail (ORA-02260) or change it
	}
	for _, k := range key {
		if want.Column(k) == nil {
			return
		}
	}
	want.PrimaryKey = slices.Clone(key)
}

// carried gives c the role, source and comment the marker mk carries for
// it (Renderer.markerComment: the comment c had, a DBA's text as it was,
// or none), so that the finished column gets that comment back, or none:
// never the marker's.
func carried(c *table.Column, mk *table.Column) {
	c.Role, c.Source, c.Comment = 0, nil, mk.Comment // a DBA's text unless it parses
	if role, src, desc, ok := table.ParseComment(mk.Comment); ok {
		c.Role, c.Source, c.Comment = role, src, desc
		if table.CommentJSONText(mk.Comment) { // as describe reads such a column
			c.Type = table.Type{Kind: table.KindJSON, JSONAsClob: true, JSONUnchecked: true, National: c.Type.National}
		}
	}
}
