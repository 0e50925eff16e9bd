// Package table is the table model: names, column types, keys, storage
// modes and metadata columns, comments, how a column widens or migrates
// (Join, Fit, Reconcile), the facts of adopted tables, and the partitioning
// and compression specs. It knows nothing of Singer or JSON Schema: package
// tablemap maps a stream's schema and records onto a table of this model, and
// the engines and the SQL renderer use the model alone.
package table

import "strconv"

// Kind is the family of an Oracle column type.
type Kind uint8

const (
	KindNumber    Kind = iota + 1 // NUMBER, NUMBER(p,s)
	KindBoolean                   // BOOLEAN (23ai+)
	KindVarchar                   // VARCHAR2 / NVARCHAR2
	KindClob                      // CLOB / NCLOB
	KindDate                      // DATE
	KindTimestamp                 // TIMESTAMP(f) [WITH TIME ZONE]
	KindJSON                      // JSON, or CLOB CHECK (… IS JSON) when JSONAsClob
	KindRaw                       // RAW(n): Length bytes (interpret_content_encoding)
	KindBlob                      // BLOB (interpret_content_encoding)
	KindVector                    // VECTOR(Dim, VectorFormat) (23ai)
)

// Type is an Oracle column type as the target creates or finds it.
type Type struct {
	Kind Kind

	// KindNumber: Precision 0 means unconstrained NUMBER. BoolNumber marks
	// NUMBER(1) holding booleans as 0/1.
	Precision  int
	Scale      int
	BoolNumber bool

	// KindVarchar: Length in bytes, or in characters when CharSemantics.
	// National selects NVARCHAR2/NCLOB.
	Length        int
	CharSemantics bool
	National      bool

	// KindTimestamp: fractional second digits (6 or 9) and WITH TIME ZONE.
	Frac int
	TZ   bool

	// KindJSON: stored as CLOB with an IS JSON check instead of JSON.
	// JSONUnchecked (with JSONAsClob): a plain CLOB without the check,
	// holding the same compact JSON text, for a property whose schema
	// admits a top-level scalar, which IS JSON refuses before RFC 8259
	// support (Oracle 21c with COMPATIBLE >= 20). Its column comment
	// records it (FormatComment), so the catalog reads it back.
	JSONAsClob    bool
	JSONUnchecked bool

	// KindVector: Dim elements (0: any number, "*"), each of VectorFormat
	// (VectorFloat32, VectorFloat64 or VectorInt8).
	Dim          int
	VectorFormat string
}

// Role says where a column's values come from.
type Role uint8

const (
	RoleProperty Role = iota + 1 // a (possibly flattened) record property
	RoleDocument                 // the json storage mode's document column
	RoleMetadata                 // an _SDC_* column
	// RoleMigration is the marker column of a rewrite migration
	// (oraclesql Renderer.MigrationColumn): Source[0] is the column it
	// replaces and Comment that column's own comment (FormatComment's
	// text), restored when the marker takes its place. Only a column so
	// commented is a marker: a column of the same name that a user made,
	// or an earlier release made for a property, is never taken for one.
	RoleMigration
)

// Column is one column of a table.
type Column struct {
	Name     string // exact Oracle name (always quoted in SQL)
	Type     Type
	Nullable bool
	Role     Role
	// Source is the property path the column holds ("address__city" is
	// ["address","city"]); for metadata columns the _sdc_ name. It is
	// written into the column comment so later runs recover the mapping.
	Source  []string
	Comment string // schema description, "" when none
	// Fill and Hidden are the catalog's facts on a column the target did
	// not make (SPEC §5.5: adopted tables). The target never creates such
	// columns, so both are zero for its own.
	Fill   Fill
	Hidden bool // INVISIBLE: left out of SELECT * and of INSERT without a column list
	// Dependents are the catalog's objects on the column that dropping
	// it (a rewrite's SET UNUSED … CASCADE CONSTRAINTS) drops with it and
	// that the target did not create: indexes, and constraints other
	// than NOT NULL, the primary key and the target's own checks. A
	// rewrite of a column that has any is refused (Reconcile).
	Dependents []Dependent
	// Marker is what a migration marker's comment records of the column
	// it replaces (RoleMigration, as the catalog reads it; never
	// changed once read): nil for any other column.
	Marker *MarkerFacts
}

// Dependent is an object of the database on a column (Column.Dependents).
type Dependent struct {
	Kind DependentKind
	Name string // as the catalog spells it; TABLE.NAME for a foreign key of another table
}

// DependentKind is what a Dependent is.
type DependentKind uint8

const (
	DependentIndex      DependentKind = iota + 1 // an index (unique or not) not backing a constraint
	DependentUnique                              // a UNIQUE constraint
	DependentCheck                               // a CHECK constraint other than NOT NULL
	DependentForeignKey                          // a FOREIGN KEY of the table on the column
	DependentReferenced                          // another table's FOREIGN KEY referencing the column's key
)

func (d Dependent) String() string {
	kind := [...]string{"object", "index", "unique constraint", "check constraint", "foreign key", "foreign key"}[d.Kind]
	if d.Kind == DependentReferenced {
		return kind + " " + d.Name + " (of another table, referencing it)"
	}
	return kind + " " + Quote(d.Name)
}

// Fill says what the database puts into a column the load leaves out of
// its statements, as ALL_TAB_COLS tells (IDENTITY_COLUMN, DEFAULT_ON_NULL,
// DEFAULT_LENGTH, VIRTUAL_COLUMN; the identity's ALWAYS or BY DEFAULT from
// ALL_TAB_IDENTITY_COLS). The DEFAULT's expression (the LONG DATA_DEFAULT)
// is never read: only that there is one.
type Fill uint8

const (
	FillNone           Fill = iota // nothing: NULL, or ORA-01400 when NOT NULL
	FillDefault                    // DEFAULT: applies when the column is left out, not when NULL is bound
	FillDefaultOnNull              // DEFAULT ON NULL: applies to a bound NULL too
	FillIdentity                   // GENERATED BY DEFAULT AS IDENTITY: like DEFAULT
	FillIdentityOnNull             // GENERATED BY DEFAULT ON NULL AS IDENTITY: like DEFAULT ON NULL
	FillIdentityAlways             // GENERATED ALWAYS AS IDENTITY: refuses any value
	FillVirtual                    // a virtual column: refuses any value
)

func (f Fill) String() string {
	return [...]string{"no default", "a DEFAULT column", "a DEFAULT ON NULL column", "a GENERATED BY DEFAULT identity column",
		"a GENERATED BY DEFAULT ON NULL identity column", "a GENERATED ALWAYS identity column", "a virtual column"}[f]
}

// DatabaseFills reports whether the database gives the column its value
// when a load leaves it out: such a column the schema does not fill is
// never bound, widened or counted as missing (SPEC §5.5). An invisible
// column counts (it is NULL or its default), unless it is NOT NULL with
// nothing to fill it.
func (c *Column) DatabaseFills() bool {
	return c.Fill != FillNone || (c.Hidden && c.Nullable)
}

// Writable reports whether a load may bind a value to the column: virtual
// and GENERATED ALWAYS identity columns refuse every value.
func (c *Column) Writable() bool {
	return c.Fill != FillIdentityAlways && c.Fill != FillVirtual
}

// NeedsValue reports whether every record must carry the column's
// property: a NOT NULL column whose DEFAULT (or BY DEFAULT identity) does
// not apply to a bound NULL would refuse the row (ORA-01400), and the load
// binds every column it writes.
func (c *Column) NeedsValue() bool {
	return !c.Nullable && (c.Fill == FillDefault || c.Fill == FillIdentity)
}

// Index is a custom index: created with the table, or added to an
// existing table that lacks it (AddIndex).
type Index struct {
	Name    string
	Columns []string
	Unique  bool
}

// Table is a table shape: what the target wants, or what the catalog has.
type Table struct {
	Schema     string // owner
	Name       string
	Columns    []Column
	PrimaryKey []string // column names; empty when the stream has no key
	Indexes    []Index
	// IndexesUnread says that Indexes does not list the table's indexes:
	// the catalog read (Oracle's Describe) skipped them, so Reconcile does
	// not compare them. An engine.IndexReader fills them in when the
	// wanted table has custom indexes.
	IndexesUnread bool
	// Streams are the source streams the table's comment records
	// (target-oracle:streams=[…], SPEC §5.1): a created table names the
	// stream that created it. nil when the table has no such comment (a
	// table the target did not create, or made by an older release).
	Streams []string
	// Description is the text of the table's comment that is not the
	// target's record: a DBA's comment on an adopted table, kept before
	// the record when the target adds it (FormatTableCommentDescribed).
	Description string
	// ReplacedKey is the primary key the table had before the target
	// last replaced it (key_properties changed on the empty table), as
	// the table's comment records it; nil when none is recorded, empty
	// when the table had no key. A run resumed from before the change
	// re-sends the SCHEMA with this key: it is the input replayed, not a
	// new change (SPEC §7.6).
	ReplacedKey []string
	// EarlierKeys are the keys the table had before ReplacedKey, oldest
	// first, when its key was replaced more than once while it was empty
	// (SCHEMA [a], then [b], then [c]): a run resumed from before those
	// changes re-sends each of them, and each is the input replayed. The
	// comment records them with ReplacedKey; nil when there are none.
	EarlierKeys [][]string
	// Unused counts the columns set UNUSED (the old columns of rewrite
	// migrations): Oracle counts them toward its column limit until
	// ALTER TABLE … DROP UNUSED COLUMNS removes them.
	Unused int
	// Partition and Compression are creation options (SPEC §3
	// partitioning, compression): set on a table the target is about to
	// create, and kept by the embedded engine's model of tables it made.
	// They are never applied to an existing table. nil / "" = none.
	Partition   *Partition `json:",omitempty"`
	Compression string     `json:",omitempty"` // advanced | query_low | query_high | archive_low | archive_high
}

// Partition is interval range partitioning by one date-time column.
type Partition struct {
	// Column is the partition key column. For a WITH TIME ZONE column
	// (Oracle refuses those as partition keys) it is a virtual column,
	// Source's UTC instant (SYS_EXTRACT_UTC), that the table's Columns do
	// not list: the database computes it and no row binds it.
	Column   string `json:"column"`
	Source   string `json:"source,omitempty"` // the WITH TIME ZONE column; "" when Column is stored
	Frac     int    `json:"frac,omitempty"`   // fraction digits of the virtual column
	Interval string `json:"interval"`         // day | month | year
	// RowMovement is ENABLE ROW MOVEMENT (always on tables the target
	// creates: an upsert that rewrites _SDC_RECEIVED_AT moves the row;
	// without it Oracle refuses the update with ORA-14402).
	RowMovement bool `json:"row_movement"`
	// More are the further columns of a partitioning key of several
	// columns, in key order: a table the target did not make, as the
	// Oracle engine reads it (ALL_PART_KEY_COLUMNS). The target makes
	// one-column keys only. None of them is widened or rewritten either.
	More []string `json:"more,omitempty"`
}

// KeyColumn is the stored column whose value decides the partition.
func (p *Partition) KeyColumn() string {
	if p.Source != "" {
		return p.Source
	}
	return p.Column
}

// QualifiedName is SCHEMA.TABLE as used in dump file names and messages.
func (t *Table) QualifiedName() string { return t.Schema + "." + t.Name }

// Column returns the column with that exact name, or nil.
func (t *Table) Column(name string) *Column {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i]
		}
	}
	return nil
}

// String renders the bare Oracle data type, as the dump's tables.json and
// DDL use it: NUMBER(38,0), NUMBER, NUMBER(1), VARCHAR2(4000 BYTE),
// VARCHAR2(36 CHAR), NVARCHAR2(100), CLOB, NCLOB, DATE,
// TIMESTAMP(6) WITH TIME ZONE, TIMESTAMP(9), BOOLEAN, JSON. A JSON column
// stored as CLOB renders as CLOB (its IS JSON check is a constraint, not
// part of the type).
func (t Type) String() string {
	switch t.Kind {
	case KindNumber:
		switch {
		case t.BoolNumber:
			return "NUMBER(1)"
		case t.Precision == 0:
			return "NUMBER"
		}
		return "NUMBER(" + strconv.Itoa(t.Precision) + "," + strconv.Itoa(t.Scale) + ")"
	case KindBoolean:
		return "BOOLEAN"
	case KindVarchar:
		n := strconv.Itoa(t.Length)
		switch {
		case t.National:
			return "NVARCHAR2(" + n + ")"
		case t.CharSemantics:
			return "VARCHAR2(" + n + " CHAR)"
		}
		return "VARCHAR2(" + n + " BYTE)"
	case KindClob:
		if t.National {
			return "NCLOB"
		}
		return "CLOB"
	case KindDate:
		return "DATE"
	case KindTimestamp:
		s := "TIMESTAMP(" + strconv.Itoa(t.Frac) + ")"
		if t.TZ {
			s += " WITH TIME ZONE"
		}
		return s
	case KindJSON:
		if !t.JSONAsClob {
			return "JSON"
		}
		if t.National {
			return "NCLOB"
		}
		return "CLOB"
	case KindRaw, KindBlob, KindVector:
		return t.nativeString()
	}
	return "UNKNOWN"
}

// IsLOB reports whether t is stored as a LOB (or JSON or VECTOR), which
// Oracle does not allow in a primary key.
func (t Type) IsLOB() bool {
	return t.Kind == KindClob || t.Kind == KindJSON || t.Kind == KindBlob || t.Kind == KindVector
}

// IsText reports whether values of t are stored as plain text.
func (t Type) IsText() bool { return t.Kind == KindVarchar || t.Kind == KindClob }

// isBool reports whether t holds booleans (NUMBER(1) or BOOLEAN).
func (t Type) isBool() bool {
	return t.Kind == KindBoolean || (t.Kind == KindNumber && t.BoolNumber)
}

// IntegerType is the type of integer columns, NUMBER(38,0); NumberType
// is unconstrained NUMBER.
func IntegerType() Type { return Type{Kind: KindNumber, Precision: 38} }
func NumberType() Type  { return Type{Kind: KindNumber} }

// numberTextBytes is the longest canonical text of a value of a NUMBER
// type: sign, integer digits, point and fraction digits. Unconstrained
// NUMBER holds magnitudes from 1e-130 to below 1e126 with 38 significant
// digits, so its longest text is "-0." followed by 129 zeros and 38 digits.
func numberTextBytes(t Type) int {
	if t.Precision == 0 {
		return 3 + 129 + 38
	}
	intDigits := max(t.Precision-t.Scale, 1)
	if t.Scale <= 0 {
		return 1 + intDigits
	}
	return 1 + intDigits + 1 + t.Scale
}

// scalarTextBytes is the longest text a non-text scalar type's values
// get when they land in a text column.
func scalarTextBytes(t Type) int {
	if t.isBool() {
		return len("false")
	}
	switch t.Kind {
	case KindNumber:
		return numberTextBytes(t)
	case KindDate:
		return len("2006-01-02")
	case KindTimestamp:
		return len("2006-01-02T15:04:05.") + 9 + 1
	}
	return 0
}
