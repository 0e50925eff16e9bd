package table

import (
	"fmt"
	"strings"

	"github.com/target-oracle/target-oracle/internal/inputerr"
)

// Fixed sizes of Oracle's that the model applies.
const (
	DefaultVarcharMaxBytes = 4000
	// MaxColumns is Oracle's limit of columns per table;
	// MaxColumnsExtended is 23ai's with MAX_COLUMNS=EXTENDED.
	MaxColumns         = 1000
	MaxColumnsExtended = 4096
)

// Storage modes (§5.3).
const (
	ModeHybrid    = "hybrid"
	ModeFlattened = "flattened"
	ModeJSON      = "json"
)

// Metadata column names (§5.4).
const (
	MetaExtractedAt   = "_SDC_EXTRACTED_AT"
	MetaReceivedAt    = "_SDC_RECEIVED_AT"
	MetaBatchedAt     = "_SDC_BATCHED_AT"
	MetaLoadedAt      = "_SDC_LOADED_AT"
	MetaDeletedAt     = "_SDC_DELETED_AT"
	MetaSequence      = "_SDC_SEQUENCE"
	MetaTableVersion  = "_SDC_TABLE_VERSION"
	MetaSyncStartedAt = "_SDC_SYNC_STARTED_AT"
	// MetaRunID holds the id of the run that last wrote the row
	// (delete_missing, SPEC §6.4): the loader fills it, like
	// _SDC_BATCHED_AT.
	MetaRunID = "_SDC_RUN_ID"
)

// RunIDBytes is the length of a run id: 32 hex digits.
const RunIDBytes = 32

// MetaColumns lists the metadata columns in the order a new table gets them.
func MetaColumns() [9]string {
	return [...]string{MetaExtractedAt, MetaReceivedAt, MetaBatchedAt, MetaLoadedAt,
		MetaDeletedAt, MetaSequence, MetaTableVersion, MetaSyncStartedAt, MetaRunID}
}

// Options are one stream's settings, resolved by the caller from the
// configuration and the server's facts (auto settings already decided).
type Options struct {
	Schema                   string // owner, already conformed (SchemaName)
	TablePrefix, TableSuffix string
	TableName                string // table_name_mappings entry; "" = generate
	// TablePart is the part of the stream name the table is named from
	// when default_target_schema routes by {stream_schema} (the last
	// "-"-separated part); "" = the whole stream name. Hashed suffixes
	// still hash the stream name.
	TablePart      string
	ColumnMappings map[string]string // property path "a.b" → column, verbatim
	IgnoredColumns []string          // property paths "a.b"

	IdentifierUpper    bool
	IdentifierMaxBytes int    // 30 or 128; 0 means 128
	ColumnOrdering     string // "schema" (default) or "alphabetical"
	ColumnComments     bool

	StorageMode         string // hybrid (default), flattened, json
	FlatteningMaxDepth  int
	FlatteningSeparator string // "" means "__"
	JSONColumnName      string // "" means "DATA"

	AddRecordMetadata bool
	// UsesVersions and UsesDeletes say that the stream sends versions
	// (ACTIVATE_VERSION / RECORD version) or deletes, so _SDC_TABLE_VERSION
	// and _SDC_DELETED_AT are needed even without AddRecordMetadata.
	UsesVersions, UsesDeletes bool
	// UsesRunID says that the stream prunes what a run did not write
	// (delete_missing): _SDC_RUN_ID and _SDC_DELETED_AT are needed
	// whatever AddRecordMetadata says. Without it _SDC_RUN_ID is used only
	// where the table already has it.
	UsesRunID bool
	// NoKeyConstraint leaves out the PRIMARY KEY constraint (key columns
	// stay NOT NULL): append-only streams may repeat a key, and an
	// at-least-once re-run must not fail on ORA-00001.
	NoKeyConstraint bool
	// History adds the history columns (load_method history) and makes
	// the primary key the key columns plus MetaValidFrom.
	History bool

	VarcharMaxBytes int // VARCHAR2 ceiling in bytes; 0 means 4000
	// MaxColumns is the most columns a table may have: 1000, or 4096
	// with MAX_COLUMNS=EXTENDED (23ai); 0 means 1000.
	MaxColumns int
	// InterpretContentEncoding makes base64/base16 strings binary
	// columns (RAW/BLOB); VectorNative says the server has VECTOR (23ai).
	InterpretContentEncoding bool
	VectorNative             bool
	BooleanNative            bool
	JSONNative               bool
	TimestampTZ              bool
	National                 bool

	CustomIndexes []Index // Columns name property paths "a.b" or column names

	// Partitioning and Compression apply when the table is created.
	Partitioning PartitionOption
	Compression  string // "" or "none": no compression clause
}

// PartitionOption is the partitioning setting for one stream: Column is a
// property path ("a.b"), or "_sdc_received_at"; "" = none.
type PartitionOption struct {
	Column   string
	Interval string // day | month | year
}

// MaxBytes is the identifier length limit in bytes (IdentifierMaxBytes).
func (o *Options) MaxBytes() int {
	if o.IdentifierMaxBytes <= 0 {
		return MaxBytesLong
	}
	return o.IdentifierMaxBytes
}

// Separator joins the path of a flattened property into a column name.
func (o *Options) Separator() string {
	if o.FlatteningSeparator == "" {
		return "__"
	}
	return o.FlatteningSeparator
}

// ConfigError is a setting that cannot be applied to a stream (a mapping
// with a forbidden character, an unknown key in custom_indexes, …).
type ConfigError struct {
	Setting string
	Msg     string
}

func (e *ConfigError) Error() string { return e.Setting + ": " + e.Msg }

// ColumnLimit is the most columns a table may have (Options.MaxColumns).
func (o *Options) ColumnLimit() int {
	if o.MaxColumns <= 0 {
		return MaxColumns
	}
	return o.MaxColumns
}

// ColumnLimitText names a column limit in messages.
func ColumnLimitText(limit int) string {
	if limit > MaxColumns {
		return fmt.Sprintf("the %d Oracle allows with MAX_COLUMNS=EXTENDED (max_columns)", limit)
	}
	return fmt.Sprintf("Oracle's %d (max_columns; 4096 needs MAX_COLUMNS=EXTENDED, 23ai)", limit)
}

// PartitionedByReceivedAt reports whether new tables are partitioned by
// _SDC_RECEIVED_AT, which the table then needs whatever
// add_record_metadata says.
func (o *Options) PartitionedByReceivedAt() bool {
	return strings.EqualFold(o.Partitioning.Column, strings.ToLower(MetaReceivedAt))
}

// Ceiling is the VARCHAR2 limit in bytes (VarcharMaxBytes).
func (o *Options) Ceiling() int {
	if o.VarcharMaxBytes <= 0 {
		return DefaultVarcharMaxBytes
	}
	return o.VarcharMaxBytes
}

// BoolType is the type of boolean columns: BOOLEAN, or NUMBER(1).
func (o *Options) BoolType() Type {
	if o.BooleanNative {
		return Type{Kind: KindBoolean}
	}
	return Type{Kind: KindNumber, Precision: 1, BoolNumber: true}
}

// JSONType is the type of JSON columns: JSON, or CLOB (NCLOB) with an IS
// JSON check.
func (o *Options) JSONType() Type {
	return Type{Kind: KindJSON, JSONAsClob: !o.JSONNative, National: o.National && !o.JSONNative}
}

// TimestampType is the type of date-time and metadata time columns.
func (o *Options) TimestampType() Type {
	return Type{Kind: KindTimestamp, Frac: 6, TZ: o.TimestampTZ}
}

// inputError is the error for what the stream's own messages got wrong.
func inputError(stream, property, format string, args ...any) error {
	return &inputerr.Error{Stream: stream, Property: property, Msg: fmt.Sprintf(format, args...)}
}
