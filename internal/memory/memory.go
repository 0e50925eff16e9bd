// Package memory is the embedded engine behind --dry-run: an in-memory model
// of the Oracle behaviour the loader relies on (column types and their byte
// and digit limits, ” = NULL, NOT NULL keys, MERGE/DELETE/UPDATE semantics,
// versions). It runs the same plan as the Oracle engine, so a dry run shows
// what a real run would do. Without a dump directory it keeps no rows, so
// any input size stays within the memory bounds.
package memory

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oravalue"
	"github.com/target-oracle/target-oracle/internal/table"
)

// Options configure the embedded engine.
type Options struct {
	// DumpDir, when set, makes the engine keep every row and write the
	// dump (SPEC §11) there on Close.
	DumpDir string
	// KeepRows keeps every row without writing a dump (tests read them
	// with Rows).
	KeepRows bool
	// Now is the database clock (_SDC_LOADED_AT, activation stamps).
	Now func() time.Time
	// Render, when set, renders each executed change and step to SQL
	// statements for statements.sql.
	Render Renderer
	// Hooks inject faults for tests; nil fields do nothing.
	Hooks Hooks
	// Catalog, when set, answers Describe for tables the engine has not
	// seen: --plan starts from the real database's catalog (read only) and
	// runs everything else here.
	Catalog func(ctx context.Context, schema, name string) (*table.Table, error)
	// StorePath, when set, keeps every table and row in this file across
	// processes, each change committed atomically (crash tests; implies
	// keeping rows). See store.go.
	StorePath string
	// LoadDelay makes every Load take this long (or until its context is
	// cancelled), so tests can signal the target in the middle of a flush.
	LoadDelay time.Duration
	// ApplyDelay makes every DDL change take this long (or until its
	// context is cancelled, when the change is not made), so tests can
	// signal or kill the target in the middle of a schema migration.
	ApplyDelay time.Duration
	// MigrationChunkRows is how many rows one committed step of a rewrite
	// migration copies, as the Oracle engine's UPDATE chunks; 0 means
	// oraclesql.DefaultMigrationChunkRows.
	MigrationChunkRows int
	// Schemas, when set, are the only schemas that exist (SchemaExists),
	// as on a database; nil: every schema exists (the dry run has no
	// catalog of users to ask).
	Schemas []string
	// NoColumnComments models column_comments false: the columns' comments
	// are not written, so Describe, like Oracle's catalog, tells neither a
	// column's source property nor its role (a JSON text column without a
	// check is commented anyway, as the renderer does).
	NoColumnComments bool
	// MaxColumns is the server's column limit (ORA-01792): 1000, or 4096
	// with MAX_COLUMNS=EXTENDED; 0 means 1000.
	MaxColumns int
}

// defaultMigrationChunkRows is oraclesql.DefaultMigrationChunkRows (not
// imported: the renderer is optional here).
const defaultMigrationChunkRows = 10000

// Renderer turns plan steps into the SQL the Oracle engine would run.
type Renderer interface {
	RenderChange(ch engine.Change) []string
	RenderSteps(steps []engine.Step) []string
	RenderTruncate(t *table.Table) []string
}

// Hooks let tests fail any engine call. Each returns the error to fail
// with, or nil.
type Hooks struct {
	Session  func(name string) error
	Apply    func(ch engine.Change) error
	Load     func(steps []engine.Step) error
	Commit   func(steps []engine.Step) error
	Truncate func(t *table.Table) error
	// Chunk runs before the n-th (from 1) copy step of a rewrite
	// migration; an error stops the migration there, as a killed run
	// would, with the steps before it committed.
	Chunk func(ch engine.Change, n int) error
	// Try runs at the start of every TryLoad (on_database_error: reject
	// tries parts of a batch in rolled-back transactions).
	Try func(steps []engine.Step) error
	// Refuse, when set, is asked about every row of every Write a Load or
	// TryLoad runs, after the rows the model checks itself: an error
	// refuses the row as the database would (ORA-02291 of a foreign key
	// the model has no notion of, say), failing that transaction.
	Refuse func(table string, r engine.Row) error
	// Done runs after a DDL change ("ddl"), a load ("load") or a truncate
	// ("truncate") is durable, before the caller hears of it: a test can
	// kill the process between the commit and what follows it.
	Done func(kind string)
}

func (h *Hooks) done(kind string) {
	if h.Done != nil {
		h.Done(kind)
	}
}

// Engine is the embedded engine. It is safe for concurrent use.
type Engine struct {
	opts Options

	mu         sync.Mutex
	tables     map[string]*memTable
	names      namespace // the names e.tables' tables and indexes take (namespace.go)
	statements []string
	spill      *spillFile // the dump run's rows on disk (spill.go), created with the first table
	noSpill    bool       // tests: a dump run that keeps its rows in memory
}

// New returns an empty embedded engine.
func New(opts Options) *Engine {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Engine{opts: opts, tables: map[string]*memTable{}}
}

// Open is New for an engine with a StorePath: it reads the tables the
// store holds.
func Open(opts Options) (*Engine, error) {
	e := New(opts)
	if opts.StorePath != "" {
		if err := e.load(); err != nil {
			return nil, err
		}
	}
	return e, nil
}

var (
	_ engine.Engine = (*Engine)(nil)
	_ engine.Trier  = (*session)(nil)
)

type memTable struct {
	def     *table.Table
	keep    bool
	hasRows bool
	rows    []map[string]string // in insertion order; nil entries are deleted (or cold) rows
	byKey   *keyIndex           // key text -> index in rows (keyindex.go)
	keyBuf  []byte              // keyIs's scratch
	// unused counts the columns rewrite migrations set UNUSED: they count
	// toward Oracle's column limit.
	unused int
	// migration is a rewrite migration that was started and not finished
	// (its marker column is in def): the next Describe finishes it.
	migration *migration
	// undo, while steps run, takes their changes back (undo.go).
	undo *undoLog
	// spill holds the committed rows of a dump run, cold lists where
	// (spill.go); spill is nil when rows stay in memory.
	spill  *spillFile
	cold   words // a coldRef per row (or fewer: the rows after are not cold)
	pinned bool  // a history table: its rows stay in memory (warmFor)
	// warm lists rows that may be warm, for spillRows (warmAny: any row
	// may be, after a rollback or reindex).
	warm    []int32
	warmAny bool
	// unsorted says that the live rows in insertion order may not be in
	// key order: the dump sorts them (dumpOrder). lastKey is the key of
	// the last row added (appended; nextKey its scratch).
	unsorted         bool
	hasLast          bool
	lastKey, nextKey []string
}

// newMemTable returns an empty table.
func newMemTable(def *table.Table, keep bool, spill *spillFile) *memTable {
	return &memTable{def: def, keep: keep, byKey: newKeyIndex(), spill: spill}
}

// migration is a rewrite migration in progress, as the store keeps it.
type migration struct {
	Change engine.Change `json:"change"`
	Marker string        `json:"marker"` // the column the copy fills
}

// Describe implements engine.Engine.
func (e *Engine) Describe(ctx context.Context, schema, name string) (*table.Table, error) {
	e.mu.Lock()
	t := e.tables[schema+"."+name]
	if t != nil {
		defer e.mu.Unlock()
		if t.migration != nil {
			// A run stopped half-way through a rewrite: finish it before
			// anything can write beside the half-filled marker (SPEC §5.5).
			ch := t.migration.Change
			if err := e.copyAndSwap(t); err != nil {
				return nil, fmt.Errorf("%s.%s: finish the migration of column %s left by an earlier run: %w", schema, name, table.Quote(ch.Change.Column), err)
			}
			e.render(func(r Renderer) []string { return r.RenderChange(ch) })
		}
		return t.described(e.opts.NoColumnComments), nil
	}
	e.mu.Unlock()
	if e.opts.Catalog == nil {
		return nil, nil
	}
	def, err := e.opts.Catalog(ctx, schema, name)
	if err != nil || def == nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.tables[schema+"."+name] == nil {
		// A real table: assume it has rows (the plan must not promise a
		// key change that would fail).
		mt := newMemTable(cloneTable(def), e.keepRows(), e.spillFile())
		mt.hasRows = true
		e.setTable(schema+"."+name, mt)
	}
	return cloneTable(def), nil
}

// HasRows implements engine.RowChecker. The engine knows it even when it
// keeps no rows.
// SchemaExists reports whether schema is one of Options.Schemas (any
// schema when they are not set).
func (e *Engine) SchemaExists(_ context.Context, schema string) (bool, error) {
	return e.opts.Schemas == nil || slices.Contains(e.opts.Schemas, schema), nil
}

func (e *Engine) HasRows(_ context.Context, t *table.Table) (bool, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	mt := e.tables[t.QualifiedName()]
	if mt == nil {
		return false, nil
	}
	if mt.keep {
		for i := range mt.rows {
			if mt.live(i) {
				return true, nil
			}
		}
		return false, nil
	}
	return mt.hasRows, nil
}

// Session implements engine.Engine.
func (e *Engine) Session(_ context.Context, name string) (engine.Session, error) {
	if h := e.opts.Hooks.Session; h != nil {
		if err := h(name); err != nil {
			return nil, err
		}
	}
	return &session{e: e}, nil
}

// Tables returns a copy of every table's shape, by qualified name.
func (e *Engine) Tables() map[string]*table.Table {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[string]*table.Table, len(e.tables))
	for k, t := range e.tables {
		out[k] = cloneTable(t.def)
	}
	return out
}

// Rows returns the stored rows of a table in dump order (by primary key,
// else insertion), each keyed by column name. Only with a dump directory
// (or KeepRows) are rows kept.
func (e *Engine) Rows(qualified string) []map[string]string {
	e.mu.Lock()
	defer e.mu.Unlock()
	t := e.tables[qualified]
	if t == nil {
		return nil
	}
	var out []map[string]string
	_ = t.eachOrdered(func(r map[string]string) error { // a spill error is the next Load's and Close's
		out = append(out, maps.Clone(r))
		return nil
	})
	return out
}

// Statements returns the SQL rendered so far, in execution order.
func (e *Engine) Statements() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.statements...)
}

// Close implements engine.Engine: it writes the dump, if asked for.
func (e *Engine) Close() error {
	if e.opts.DumpDir == "" {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	err := e.writeDump(e.opts.DumpDir)
	if e.spill != nil {
		err = errors.Join(err, e.spill.err, e.spill.close())
		e.spill = nil
	}
	return err
}

// spillFile returns the file a dump run keeps its committed rows in,
// created on first use; nil when rows stay in memory (no dump, KeepRows,
// or a store, which writes every row at each commit anyway). An error
// creating it leaves rows in memory: the dump is still right.
func (e *Engine) spillFile() *spillFile {
	if e.opts.DumpDir == "" || e.opts.StorePath != "" || e.noSpill {
		return nil
	}
	if e.spill == nil {
		s, err := newSpillFile()
		if err != nil {
			return nil
		}
		e.spill = s
	}
	return e.spill
}

// KeepsValues implements engine.ValueKeeper: the engine keeps the values
// it loads only when it keeps rows (a dump, a store, tests), and tests'
// hooks and the statement renderer are given the steps themselves.
func (e *Engine) KeepsValues() bool {
	h := e.opts.Hooks
	return e.keepRows() || e.opts.Render != nil || h.Load != nil || h.Commit != nil || h.Try != nil || h.Refuse != nil
}

func (e *Engine) keepRows() bool {
	return e.opts.DumpDir != "" || e.opts.KeepRows || e.opts.StorePath != ""
}

type session struct {
	e      *Engine
	closed bool
}

func (s *session) Close() error { s.closed = true; return nil }

// Apply implements engine.Session. The change carries the table's shape
// after it; stored values of a column whose type changed are migrated
// exactly as a new value of the new type would be written. Its errors do
// not name the table: the loader's do, as for the Oracle engine.
func (s *session) Apply(ctx context.Context, ch engine.Change) error {
	if err := delay(ctx, s.e.opts.ApplyDelay); err != nil {
		return fmt.Errorf("DDL interrupted: %w", err)
	}
	if h := s.e.opts.Hooks.Apply; h != nil {
		if err := h(ch); err != nil {
			return err
		}
	}
	e := s.e
	e.mu.Lock()
	defer e.mu.Unlock()
	key := ch.Table.QualifiedName()
	t := e.tables[key]
	if err := t.columnLimit(ch, e.opts.MaxColumns); err != nil {
		return err // the caller names the table
	}
	if err := e.indexesAllowed(t, ch); err != nil {
		return err // the caller names the table
	}
	switch {
	case t == nil:
		t = newMemTable(cloneTable(ch.Table), e.keepRows(), e.spillFile())
		e.setTable(key, t)
	case ch.Change.Kind == table.Migrate && t.rewrites(ch):
		if err := t.warmAll(); err != nil { // a rewrite reads every row (spill.go)
			return err // the caller names the table
		}
		if err := e.rewrite(t, ch); err != nil {
			return err // the caller names the table
		}
	default:
		next := t.inPlace(ch.Table)
		if t.retypes(next) {
			if err := t.warmAll(); err != nil { // migrate converts stored values
				return err // the caller names the table
			}
		}
		if err := t.migrate(next); err != nil {
			return err // the caller names the table
		}
		t.def = next
		e.names.set(key, t.def)
	}
	t.reindex()
	if err := t.spillRows(); err != nil {
		return err // the caller names the table
	}
	if err := e.commit(); err != nil {
		return err
	}
	e.opts.Hooks.done("ddl")
	e.render(func(r Renderer) []string { return r.RenderChange(ch) })
	return nil
}

// indexesAllowed models what Oracle refuses of the indexes a change
// creates (with the table, or one added): an index on a LOB, JSON or
// VECTOR column (ORA-02327), and a name another table's index in the
// schema has (ORA-00955: index names are unique per schema, not per
// table), a primary key constraint's index included, both ways: a new
// table's key index takes the name <TABLE>_PK. Tables share that
// namespace: an index named as a table, or a new table named as an index,
// is refused too.
func (e *Engine) indexesAllowed(t *memTable, ch engine.Change) error {
	var made []table.Index
	switch {
	case t == nil:
		made = ch.Table.Indexes
		if len(ch.Table.PrimaryKey) > 0 {
			made = append([]table.Index{{Name: primaryKeyName(ch.Table)}}, made...)
		}
	case ch.Change.Kind == table.AddIndex:
		made = []table.Index{ch.Change.Index}
	}
	if t == nil {
		if err := e.nameFree(ch.Table, ch.Table.Name, "table"); err != nil {
			return err
		}
	}
	for _, ix := range made {
		if ix.Name == ch.Table.Name {
			return oraError(955, fmt.Sprintf("name is already used by an existing object (index %s is named as its table)", table.Quote(ix.Name)))
		}
		for _, c := range ix.Columns {
			if col := ch.Table.Column(c); col != nil && col.Type.IsLOB() {
				return oraError(2327, fmt.Sprintf("cannot create index on expression with datatype LOB (index %s, column %s is %s)", table.Quote(ix.Name), table.Quote(c), col.Type))
			}
		}
		if err := e.nameFree(ch.Table, ix.Name, "index"); err != nil {
			return err
		}
	}
	return nil
}

// nameFree reports ORA-00955 when a table of t's schema other than t has
// name, or an index of one has (its primary key's included): tables and
// indexes share a schema's namespace, so a new table named as another
// table's index is refused as an index named as another table is.
func (e *Engine) nameFree(t *table.Table, name, what string) error {
	o, ok := e.names.taken(t.QualifiedName(), t.Schema, name)
	if !ok {
		return nil
	}
	switch o.kind {
	case nameTable:
		return oraError(955, fmt.Sprintf("name is already used by an existing object (%s %s: the table %s)", what, table.Quote(name), o.table))
	case nameIndex:
		return oraError(955, fmt.Sprintf("name is already used by an existing object (%s %s: an index of %s)", what, table.Quote(name), o.table))
	default:
		return oraError(955, fmt.Sprintf("name is already used by an existing object (%s %s: the index of %s's primary key)", what, table.Quote(name), o.table))
	}
}

// setTable stores t as the table named q and records the names it takes;
// the caller holds e.mu.
func (e *Engine) setTable(q string, t *memTable) {
	e.tables[q] = t
	e.names.set(q, t.def)
}

// primaryKeyName is the name of t's primary key constraint and its index,
// as the Oracle renderer gives it (the embedded engine models a server
// with long identifiers).
func primaryKeyName(t *table.Table) string {
	return table.PrimaryKeyName(t.Name, table.MaxBytesLong)
}

// Truncate implements engine.Session.
func (s *session) Truncate(_ context.Context, tt *table.Table) error {
	if h := s.e.opts.Hooks.Truncate; h != nil {
		if err := h(tt); err != nil {
			return err
		}
	}
	e := s.e
	e.mu.Lock()
	defer e.mu.Unlock()
	t := e.tables[tt.QualifiedName()]
	if t == nil {
		return oraError(942, "table or view does not exist: "+tt.QualifiedName())
	}
	t.clear()
	if err := e.commit(); err != nil {
		return err
	}
	e.opts.Hooks.done("truncate")
	e.render(func(r Renderer) []string { return r.RenderTruncate(tt) })
	return nil
}

// delay holds a call for a test delay d, if any.
func delay(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	return engine.Sleep(ctx, d)
}

// Load implements engine.Session: all steps apply, or none.
func (s *session) Load(ctx context.Context, steps []engine.Step) (engine.Result, error) {
	if err := delay(ctx, s.e.opts.LoadDelay); err != nil {
		return engine.Result{}, fmt.Errorf("load rolled back: %w", err)
	}
	if h := s.e.opts.Hooks.Load; h != nil {
		if err := h(steps); err != nil {
			return engine.Result{}, err
		}
	}
	e := s.e
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.spill != nil && e.spill.err != nil {
		return engine.Result{}, e.spill.err
	}
	work, res, err := e.applySteps(steps)
	if err != nil {
		return engine.Result{}, err
	}
	committed := false
	defer func() { endUndo(work, !committed) }()
	if e.spill != nil && e.spill.err != nil {
		return engine.Result{}, e.spill.err // a row the steps needed could not be read back: rolled back
	}
	if h := e.opts.Hooks.Commit; h != nil {
		if err := h(steps); err != nil {
			return engine.Result{}, err
		}
	}
	if err := e.commit(); err != nil {
		return engine.Result{}, err // not durable: rolled back
	}
	committed = true
	for name, t := range work {
		if err := t.spillRows(); err != nil {
			return engine.Result{}, fmt.Errorf("%s: %w", name, err)
		}
	}
	e.opts.Hooks.done("load")
	e.render(func(r Renderer) []string { return r.RenderSteps(steps) })
	return res, nil
}

// TryLoad implements engine.Trier: the steps run and are then taken back
// (undo.go), as a rolled-back transaction leaves nothing.
func (s *session) TryLoad(_ context.Context, steps []engine.Step) error {
	if h := s.e.opts.Hooks.Try; h != nil {
		if err := h(steps); err != nil {
			return err
		}
	}
	s.e.mu.Lock()
	defer s.e.mu.Unlock()
	work, _, err := s.e.applySteps(steps)
	endUndo(work, true) // a trial: always rolled back
	return err
}

// applySteps runs steps on their tables in place, each table with an
// undo log (undo.go), and returns the tables it changed: the caller keeps
// or takes back the changes with endUndo. On an error they are already
// taken back. Changing in place costs per row the steps touch; copying
// each table per batch, as before, made a dump's run quadratic.
func (e *Engine) applySteps(steps []engine.Step) (map[string]*memTable, engine.Result, error) {
	work := map[string]*memTable{}
	var res engine.Result
	res.Known = true
	now := canonicalNow(e.opts.Now())
	for _, st := range steps {
		var name string
		switch st := st.(type) {
		case *engine.Write:
			name = st.Table.QualifiedName()
		case *engine.Replace:
			name = st.Table.QualifiedName()
		case *engine.DeleteVersions:
			name = st.Table.QualifiedName()
		case *engine.KeepKeys:
			name = st.Table.QualifiedName()
		case *engine.DeleteMissing:
			name = st.Table.QualifiedName()
		case *engine.History:
			name = st.Table.QualifiedName()
		case *engine.CloseVersions:
			name = st.Table.QualifiedName()
		default:
			endUndo(work, true)
			return nil, engine.Result{}, fmt.Errorf("memory: unknown step %T", st)
		}
		t := work[name]
		if t == nil {
			orig := e.tables[name]
			if orig == nil {
				endUndo(work, true)
				return nil, engine.Result{}, oraError(942, "table or view does not exist: "+name)
			}
			t = orig
			t.begin()
			work[name] = t
		}
		err := t.warmFor(st) // rows on disk that st reads (spill.go)
		var r engine.Result
		if err == nil {
			r, err = t.apply(st, now)
		}
		if err == nil {
			err = e.refuse(name, st)
		}
		if err != nil {
			endUndo(work, true)
			return nil, engine.Result{}, fmt.Errorf("%s: %w", name, err)
		}
		res.Inserted += r.Inserted
		res.Updated += r.Updated
		res.Deleted += r.Deleted
		res.Written += r.Written
		res.Known = res.Known && r.Known
	}
	return work, res, nil
}

// refuse asks Hooks.Refuse about each row of a Write.
func (e *Engine) refuse(name string, st engine.Step) error {
	w, ok := st.(*engine.Write)
	h := e.opts.Hooks.Refuse
	if !ok || h == nil {
		return nil
	}
	for _, r := range w.Rows {
		if err := h(name, r); err != nil {
			return &engine.RowError{Line: r.Line, Err: err}
		}
	}
	return nil
}

func (e *Engine) render(f func(Renderer) []string) {
	if e.opts.Render != nil {
		e.statements = append(e.statements, f(e.opts.Render)...)
	}
}

// OracleError is the embedded engine's model of a server error.
type OracleError struct {
	Code int
	Msg  string
}

func (e *OracleError) Error() string { return fmt.Sprintf("ORA-%05d: %s", e.Code, e.Msg) }

// ORACode and RowLevel implement engine.CodedError.
func (e *OracleError) ORACode() int { return e.Code }

// RowLevel reports whether the code is one of a row's values
// (oravalue.RowLevel, which internal/oracle applies to the server's
// errors too): the others the model raises
// (ORA-00904, 00942, 30926, identity and virtual columns) fail for every
// row alike.
func (e *OracleError) RowLevel() bool { return oravalue.RowLevel(e.Code) }

func oraError(code int, msg string) error { return &OracleError{Code: code, Msg: msg} }

// described is the table as a catalog read shows it.
// described is the table as the catalog tells it; without comments,
// nothing records a column's source or role.
func (t *memTable) described(noComments bool) *table.Table {
	d := cloneTable(t.def)
	d.Unused = t.unused
	if noComments {
		for i := range d.Columns {
			if c := &d.Columns[i]; !c.Type.JSONUnchecked {
				c.Role, c.Source, c.Comment = 0, nil, ""
			}
		}
	}
	return d
}

func cloneTable(t *table.Table) *table.Table {
	c := *t
	c.Columns = append([]table.Column(nil), t.Columns...)
	c.PrimaryKey = append([]string(nil), t.PrimaryKey...)
	if t.ReplacedKey != nil {
		c.ReplacedKey = append([]string{}, t.ReplacedKey...)
	}
	c.Indexes = append([]table.Index(nil), t.Indexes...)
	return &c
}

func (t *memTable) clear() {
	t.byKey.free()
	t.cold.free()
	t.rows, t.byKey, t.hasRows = nil, newKeyIndex(), false
	t.warm, t.warmAny, t.unsorted, t.hasLast = nil, false, false, false
}

// reindex rebuilds the key index (after a change of primary key too),
// reading the keys of cold rows from the spill file, and finds again
// whether the rows are in key order (appended).
func (t *memTable) reindex() {
	t.byKey.free()
	t.byKey = newKeyIndex()
	t.unsorted, t.hasLast, t.warmAny = false, false, true
	if len(t.def.PrimaryKey) == 0 {
		return
	}
	spilled := len(t.cold.w) > 0
	if spilled && len(t.cold.w) < len(t.rows) {
		t.cold.resize(len(t.rows))
	}
	n := 0
	for i := range t.rows {
		if !t.live(i) {
			continue
		}
		t.rows[n] = t.rows[i]
		if spilled {
			t.cold.w[n] = t.cold.w[i]
		}
		n++
	}
	clear(t.rows[n:])
	t.rows = t.rows[:n]
	if spilled {
		t.cold.resize(n)
	}
	var k []byte
	for i := range t.rows {
		var err error
		if k, err = t.keyAt(k[:0], i); err != nil {
			t.spill.err = cmp.Or(t.spill.err, err)
			continue
		}
		t.index(k, i)
		t.appended(k)
	}
}

// keyOf is the key text of a row: its primary key values, each as
// engine.AppendKey writes it.
func (t *memTable) keyOf(r map[string]string) []byte {
	return t.appendKeyOf(nil, r)
}

func (t *memTable) appendKeyOf(dst []byte, r map[string]string) []byte {
	for _, c := range t.def.PrimaryKey {
		dst = engine.AppendKey(dst, r[c])
	}
	return dst
}

// ordered returns the live rows by primary key, else in insertion order.
func (t *memTable) ordered() []map[string]string {
	var out []map[string]string
	for _, r := range t.rows {
		if r != nil {
			out = append(out, r)
		}
	}
	if len(t.def.PrimaryKey) > 0 {
		sort.SliceStable(out, func(i, j int) bool { return t.lessKey(out[i], out[j]) })
	}
	return out
}

func (t *memTable) lessKey(a, b map[string]string) bool {
	for _, name := range t.def.PrimaryKey {
		c := t.def.Column(name)
		if c == nil {
			continue
		}
		if d := compareValues(c.Type, a[name], b[name]); d != 0 {
			return d < 0
		}
	}
	return false
}

func canonicalNow(t time.Time) string {
	// The database clock of TIMESTAMP(6) metadata columns: microseconds.
	return t.UTC().Truncate(time.Microsecond).Format("2006-01-02T15:04:05.999999Z")
}
