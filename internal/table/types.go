// Package table is the table model: it turns a stream's schema and records
// into an Oracle table (names, column types, key, storage mode, metadata
// columns) and row values, and decides how a column widens. It is the one
// place that knows the JSON Schema → Oracle type mapping.
package table

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
	JSONAsClob bool
}

// Role says where a column's values come from.
type Role uint8

const (
	RoleProperty Role = iota + 1 // a (possibly flattened) record property
	RoleDocument                 // the json storage mode's document column
	RoleMetadata                 // an _SDC_* column
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
}

// Index is a custom index created with the table.
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
	// Streams are the source streams the table's comment records
	// (target-oracle:streams=[…], SPEC §5.1): a created table names the
	// stream that created it. nil when the table has no such comment (a
	// table the target did not create, or made by an older release).
	Streams []string
	// Unused counts the columns set UNUSED (the old columns of rewrite
	// migrations): Oracle counts them toward its column limit until
	// ALTER TABLE … DROP UNUSED COLUMNS removes them.
	Unused int
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
