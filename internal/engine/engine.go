// Package engine defines what a database engine must do for the loader, as
// data: a flush becomes a short list of steps (DDL changes, one data write,
// a version cleanup) that every engine runs the same way. The embedded
// engine (package memory) interprets the steps; the Oracle engine renders
// them to SQL with the one SQL renderer. Keeping the plan as data is what
// lets --dry-run, --plan and a real load agree statement for statement.
package engine

import (
	"context"
	"encoding/binary"
	"time"

	"github.com/target-oracle/target-oracle/internal/table"
)

// Sleep waits for d, or until ctx is done and returns its error: the
// Oracle engine's retry backoff and the embedded engine's test delays.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Engine is a database the loader writes to.
type Engine interface {
	// Describe returns the table as the database has it, or nil when it
	// does not exist. The loader caches the answer for the run and keeps
	// it up to date itself after the DDL it runs.
	Describe(ctx context.Context, schema, name string) (*table.Table, error)
	// Session opens a session for one loader worker. name identifies the
	// worker to the database (Oracle: V$SESSION.ACTION).
	Session(ctx context.Context, name string) (Session, error)
	// Close releases the engine. For the embedded engine it also writes
	// the dry-run dump, if one was asked for.
	Close() error
}

// ValueKeeper is an optional interface of an Engine: whether any of its
// sessions keeps a row value (a string of engine.Row.Values, or one cut
// from it) after Load returns. The loader gives the memory of a loaded
// batch's values to later batches only with an engine that answers false
// (tablemap.Blocks); an engine without it is treated as keeping them.
type ValueKeeper interface {
	KeepsValues() bool
}

// RowChecker is an optional interface of an Engine: whether a table has
// rows. A changed key_properties replaces the primary key of an empty
// table only; an engine without it is treated as "has rows".
type RowChecker interface {
	HasRows(ctx context.Context, t *table.Table) (bool, error)
}

// IndexReader is an optional interface of an Engine whose Describe does
// not read a table's indexes (table.Table.IndexesUnread): it lists them,
// the primary key's index left out. The loader asks only for a table that
// has custom indexes, to add those it lacks (table.AddIndex), so that a
// load without custom_indexes costs no extra round trip.
type IndexReader interface {
	Indexes(ctx context.Context, t *table.Table) ([]table.Index, error)
}

// SchemaChecker is an optional interface of an Engine: whether a schema
// (user) exists. A stream routed to a missing schema then fails at its
// SCHEMA naming the schema, not at its first CREATE TABLE; an engine
// without it is treated as "every schema exists".
type SchemaChecker interface {
	SchemaExists(ctx context.Context, schema string) (bool, error)
}

// Session is one database session. A Session is used by one goroutine at
// a time.
type Session interface {
	// Apply runs one DDL change. On Oracle each DDL commits on its own, so
	// Apply is never part of a data transaction; it must be idempotent
	// (a concurrent run may have made the same change already).
	Apply(ctx context.Context, ch Change) error
	// Load runs the data steps of one batch in a single transaction and
	// returns only after COMMIT succeeded or everything was rolled back.
	// A nil error means every step is durable.
	Load(ctx context.Context, steps []Step) (Result, error)
	// Truncate empties a table outside any transaction
	// (truncate_before_load). On Oracle it is DDL and commits.
	Truncate(ctx context.Context, t *table.Table) error
	Close() error
}

// Change is one DDL step: a table.Change applied to a table.
type Change struct {
	Table  *table.Table // the table after the change (for CreateTable: the whole table)
	Change table.Change
}

// Step is one data step of a batch: a *Write, *DeleteVersions or *Replace;
// or, in a transaction of its own at the end of a run, a *KeepKeys or a
// *DeleteMissing (prune.go).
type Step interface{ isStep() }

// Method is how a Write applies its rows.
type Method uint8

const (
	Insert Method = iota + 1 // append every row
	Upsert                   // rows are unique per key: update or insert by key
)

// Write writes the rows of a batch. For Upsert the rows are already
// deduplicated by key (the last record per key won), so their order does
// not matter. Rows whose kind is RowHardDelete delete by key; RowSoftDelete
// rows update only the metadata columns of an existing row and insert a
// missing one.
type Write struct {
	Table   *table.Table
	Method  Method
	Columns []string // column names, in the order of each row's values
	Rows    []Row
	// DatabaseTime names the column (if any) the engine fills with the
	// database time of the write (_SDC_LOADED_AT).
	DatabaseTime string
	// MetadataColumns are the columns a soft delete updates on an existing
	// row (besides none of the property columns).
	MetadataColumns []string
	KeyColumns      []string
	// NullColumns are table columns outside Columns that an upsert row
	// (RowUpsert) replacing an existing row sets to NULL: columns another
	// stream mapped to the same table brought, which this write's stream
	// does not have. A record replaces the whole row (SPEC §4, §6.2).
	NullColumns []string
}

// RowKind says what a row does.
type RowKind uint8

const (
	RowUpsert     RowKind = iota // insert, or replace the row with the same key
	RowSoftDelete                // set _SDC_DELETED_AT (and metadata) on the existing row, or insert it
	RowHardDelete                // delete the row with this key
)

// Row is one row of a Write: values in Write.Columns order, "" is NULL.
// Values are the pipeline's buffered row slots: an engine reads them and
// copies what it keeps, and never writes into them (the pipeline keeps
// alive only what it wrote itself: pipeline/slots.go).
type Row struct {
	Kind   RowKind
	Line   int64 // input line of the record, for error messages
	Values []string
}

// Replace empties the table inside the batch's transaction before the
// batch's writes (load_method overwrite's first flush): readers see the old
// rows until COMMIT.
type Replace struct {
	Table *table.Table
}

// DeleteVersions handles ACTIVATE_VERSION: rows whose _SDC_TABLE_VERSION is
// older than Version (numerically, never <=) or NULL are deleted (Hard) or get
// _SDC_DELETED_AT = At unless already set.
type DeleteVersions struct {
	Table         *table.Table
	Version       string // integer text
	Hard          bool
	At            string // canonical UTC date-time text
	VersionColumn string
	DeletedColumn string
}

func (*Write) isStep()          {}
func (*Replace) isStep()        {}
func (*DeleteVersions) isStep() {}
func (*KeepKeys) isStep()       {}
func (*DeleteMissing) isStep()  {}

// Result counts what a Load did. Known is false when the engine cannot tell
// inserted from updated rows (Oracle MERGE reports one count; the embedded
// engine keeps no rows without a dump).
type Result struct {
	Inserted, Updated, Deleted int64
	Written                    int64 // rows written (inserted + updated when those are unknown)
	Known                      bool
}

// AppendKey appends one key column's value to a composite key's text,
// length first, so that no two different key tuples give the same text
// (values may hold any byte, NUL included: joined with a separator,
// ("a\x00b","c") and ("a","b\x00c") would be one key). Every place that
// compares keys by text — the loader's in-batch dedupe, the embedded
// engine, the fake Oracle — builds them with it.
func AppendKey(b []byte, v string) []byte {
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}
