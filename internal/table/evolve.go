package table

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/target-oracle/target-oracle/internal/inputerr"
)

// Join is the widening lattice of §5.5: the narrowest type that holds
// every value of a and of b. a is the existing column's type where one
// exists: the differences that only an auto setting causes (BOOLEAN vs
// NUMBER(1), JSON vs CLOB IS JSON) and a timestamp's time zone are kept
// from a.
//
//	NUMBER(1) bool < NUMBER(38,0) < NUMBER(p,s) < NUMBER  (larger integer digits and scale; > 38 digits: NUMBER)
//	DATE < TIMESTAMP(6) < TIMESTAMP(9)
//	VARCHAR2(n) < VARCHAR2(m) < CLOB; number, boolean or time with text: text wide enough for their canonical text
//	two different scalar families: VARCHAR2(ceiling BYTE)
//	JSON with anything else: CLOB without IS JSON
//
// National (NVARCHAR2/NCLOB) wins over non-national text.
func Join(a, b Type, ceiling int) Type {
	if ceiling <= 0 {
		ceiling = DefaultVarcharMaxBytes
	}
	switch {
	case a == b:
		return a
	case a.Kind == KindJSON && b.Kind == KindJSON:
		return a
	case a.Kind == KindJSON && a.JSONUnchecked:
		// JSON text without a check holds any value as JSON text.
		return a
	case a.Kind == KindVector && b.Kind == KindVector && a.VectorFormat == "":
		// The catalog read shows a VECTOR but not its shape: it stays,
		// and rows are converted for the shape the schema asks (plan).
		return a
	case a.Kind == KindJSON && b.Kind == KindVector:
		// A vector stored as JSON where the server had no VECTOR type
		// stays JSON when the server gets one (an auto setting's
		// difference, as for BOOLEAN and JSON).
		return a
	case a.Kind == KindJSON || b.Kind == KindJSON, a.Kind == KindVector || b.Kind == KindVector:
		// A vector with anything but itself (another dimension or format)
		// has no exact conversion: CLOB, whose migration is refused.
		return Type{Kind: KindClob, National: a.National || b.National}
	case a.IsBinary() || b.IsBinary():
		return joinBinary(a, b, ceiling)
	case a.isBool() && b.isBool():
		return a
	case isNumeric(a) && isNumeric(b):
		return joinNumber(a, b)
	case isTime(a) && isTime(b):
		return joinTime(a, b)
	case a.IsText() && b.IsText():
		return joinText(a, b, ceiling)
	case a.IsText():
		return joinText(a, scalarText(b, a.National), ceiling)
	case b.IsText():
		return joinText(scalarText(a, b.National), b, ceiling)
	}
	return wideText(a.National || b.National, ceiling)
}

func isNumeric(t Type) bool { return t.Kind == KindNumber || t.Kind == KindBoolean }
func isTime(t Type) bool    { return t.Kind == KindDate || t.Kind == KindTimestamp }

// numberDigits returns a NUMBER type's integer digits and scale, or
// unconstrained.
func numberDigits(t Type) (intDigits, scale int, unconstrained bool) {
	switch {
	case t.isBool():
		return 1, 0, false
	case t.Precision == 0:
		return 0, 0, true
	}
	return t.Precision - t.Scale, t.Scale, false
}

// numberOf is NUMBER(i+s, s), or NUMBER when that exceeds 38 digits.
func numberOf(intDigits, scale int) Type {
	p := intDigits + scale
	if p > 38 {
		return NumberType()
	}
	return Type{Kind: KindNumber, Precision: max(p, 1), Scale: scale}
}

func joinNumber(a, b Type) Type {
	ai, as, au := numberDigits(a)
	bi, bs, bu := numberDigits(b)
	if au || bu {
		return NumberType()
	}
	return numberOf(max(ai, bi), max(as, bs))
}

func joinTime(a, b Type) Type {
	switch {
	case a.Kind == KindDate:
		return b
	case b.Kind == KindDate:
		return a
	}
	a.Frac = max(a.Frac, b.Frac)
	return a
}

// holds reports whether every value that fits VARCHAR2 y fits VARCHAR2 x
// (both non-national). A CHAR column also obeys the byte ceiling, and k
// bytes are at most k characters.
func holds(x, y Type, ceiling int) bool {
	if x.CharSemantics {
		return y.Length <= x.Length
	}
	if y.CharSemantics {
		return min(4*y.Length, ceiling) <= x.Length
	}
	return y.Length <= x.Length
}

func joinText(a, b Type, ceiling int) Type {
	national := a.National || b.National
	if a.Kind == KindClob || b.Kind == KindClob {
		return Type{Kind: KindClob, National: national}
	}
	if national {
		// NVARCHAR2 lengths are characters; k bytes are at most k characters.
		n := max(a.Length, b.Length)
		switch {
		case n > ceiling/2:
			return Type{Kind: KindClob, National: true}
		case a.National && a.Length >= n:
			return a
		case b.National && b.Length >= n:
			return b
		}
		return Type{Kind: KindVarchar, Length: n, CharSemantics: true, National: true}
	}
	switch {
	case holds(a, b, ceiling):
		return a
	case holds(b, a, ceiling):
		return b
	}
	n := max(a.Length, b.Length)
	if n > ceiling {
		return Type{Kind: KindClob}
	}
	return Type{Kind: KindVarchar, Length: n, CharSemantics: true}
}

// scalarText is the narrowest text type that holds every canonical text of
// a non-text scalar type.
func scalarText(t Type, national bool) Type {
	n := scalarTextBytes(t)
	if national {
		return Type{Kind: KindVarchar, Length: n, CharSemantics: true, National: true}
	}
	return Type{Kind: KindVarchar, Length: n}
}

func wideText(national bool, ceiling int) Type {
	if national {
		return Type{Kind: KindVarchar, Length: ceiling / 2, CharSemantics: true, National: true}
	}
	return Type{Kind: KindVarchar, Length: ceiling}
}

// Fit returns t widened so that the values summarised by s fit (§5.2: a
// 5000-byte string in VARCHAR2(4000 BYTE) becomes CLOB, a seventh
// fractional digit in TIMESTAMP(6) gives TIMESTAMP(9), a third decimal in
// NUMBER(10,2) gives NUMBER(11,3)). A VARCHAR2 that is too short grows to
// the ceiling in one step, so that growing values do not cost one ALTER
// per batch.
func Fit(t Type, s Stats, ceiling int) Type {
	if ceiling <= 0 {
		ceiling = DefaultVarcharMaxBytes
	}
	switch t.Kind {
	case KindRaw:
		return fitBinary(t, s, ceiling)
	case KindVarchar:
		if textFits(t, s, ceiling) {
			return t
		}
		switch {
		case t.National && s.MaxChars > ceiling/2, !t.National && s.MaxBytes > ceiling:
			return Type{Kind: KindClob, National: t.National}
		case t.National:
			return Type{Kind: KindVarchar, Length: ceiling / 2, CharSemantics: true, National: true}
		}
		return Type{Kind: KindVarchar, Length: ceiling, CharSemantics: t.CharSemantics}
	case KindNumber:
		i, sc, u := numberDigits(t)
		if u || t.BoolNumber || (s.MaxIntDigits <= i && s.MaxScale <= sc) {
			return t
		}
		return numberOf(max(i, s.MaxIntDigits), max(sc, s.MaxScale))
	case KindTimestamp:
		if s.MaxFrac > t.Frac {
			t.Frac = 9
		}
	}
	return t
}

// KeyType is the type a key column of type existing has for a property
// whose values want the type wanted: existing, wherever their join would
// change it, because keys never widen (SPEC §5.2): a wider key column
// could outgrow the index key limit, and rewriting a primary key locks a
// large table. That holds within the kind (a longer VARCHAR2, more NUMBER
// digits or scale, more fractional seconds, a longer RAW) and across
// kinds (text for a NUMBER key, NUMBER for a boolean one, TIMESTAMP for a
// DATE): the row builder converts the key values into existing's kind,
// and those that do not fit it, or would not keep their text there, are
// invalid input. kept reports that the join would have changed existing.
// A join to national text (NVARCHAR2 for VARCHAR2) is returned as the
// join: a VARCHAR2 key could not hold every character the schema now
// means to keep; so is a LOB existing key, which NewLayout refuses.
func KeyType(existing, wanted Type, ceiling int) (t Type, kept bool) {
	j := Join(existing, wanted, ceiling)
	if j == existing || j.National != existing.National || existing.IsLOB() {
		return j, false
	}
	switch existing.Kind {
	case KindVarchar, KindNumber, KindBoolean, KindDate, KindTimestamp, KindRaw:
		return existing, true
	}
	return j, false
}

func textFits(t Type, s Stats, ceiling int) bool {
	switch {
	case t.National, t.CharSemantics:
		return s.MaxChars <= t.Length && s.MaxBytes <= ceiling
	}
	return s.MaxBytes <= t.Length
}

// ChangeKind is the kind of one step of a schema change.
type ChangeKind uint8

const (
	// CreateTable creates the table (Change.Column is "").
	CreateTable ChangeKind = iota + 1
	// AddColumn adds a nullable column at the end.
	AddColumn
	// WidenInPlace is an ALTER TABLE … MODIFY that only changes the
	// dictionary: a longer VARCHAR2 (either length semantics), more NUMBER
	// digits (also NUMBER(1) → NUMBER(p,s), whose 0/1 check constraint the
	// engine must drop), more TIMESTAMP fractional digits, or CLOB IS JSON →
	// CLOB (drop the check).
	WidenInPlace
	// Migrate rewrites the column's data (ORA-01439/ORA-22858 forbid
	// MODIFY): add a column of the new type, copy with MigrateValue's
	// conversion in chunks, drop the old one, rename. The column moves to
	// the end of the table.
	Migrate
	// ReplaceKey replaces the primary key (changed key_properties). Only
	// an empty table may have it replaced: the caller checks that before
	// applying it (SPEC §4). New key columns become NOT NULL, old key
	// columns outside the new key nullable.
	ReplaceKey
	// AddIndex creates the custom index Change.Index that an existing
	// table lacks (an entry added to custom_indexes later, an index
	// dropped by hand, a run killed before its CREATE INDEX).
	AddIndex
	// RecordStreams rewrites the table comment to name every stream that
	// loads the table (Table.Streams): a stream joining a table another
	// stream made, in this run or a later one. ACTIVATE_VERSION,
	// delete_missing and overwrite refuse a table shared this way, as its
	// rows do not record their stream. Only the comment changes.
	RecordStreams
)

func (k ChangeKind) String() string {
	switch k {
	case CreateTable:
		return "create table"
	case AddColumn:
		return "add column"
	case WidenInPlace:
		return "widen in place"
	case Migrate:
		return "migrate"
	case ReplaceKey:
		return "replace primary key"
	case AddIndex:
		return "add index"
	case RecordStreams:
		return "record streams"
	}
	return "unknown change"
}

// Change is one step from the current table to the next.
type Change struct {
	Kind     ChangeKind
	Column   string
	From, To Type // From is zero for CreateTable and AddColumn
	// OldKey is the primary key ReplaceKey replaces.
	OldKey []string
	// Index is the index AddIndex creates.
	Index Index
}

// String describes the change, naming the DDL it stands for.
func (c Change) String() string {
	switch c.Kind {
	case CreateTable:
		return "CREATE TABLE"
	case AddColumn:
		return fmt.Sprintf("ADD (%s %s)", Quote(c.Column), c.To)
	case WidenInPlace:
		return fmt.Sprintf("MODIFY (%s %s) -- from %s", Quote(c.Column), c.To, c.From)
	case ReplaceKey:
		return "replace the PRIMARY KEY constraint"
	case AddIndex:
		kind := "INDEX"
		if c.Index.Unique {
			kind = "UNIQUE INDEX"
		}
		return fmt.Sprintf("CREATE %s %s (%s)", kind, Quote(c.Index.Name), strings.Join(c.Index.Columns, ", "))
	case RecordStreams:
		return "COMMENT ON TABLE (the streams that load it)"
	}
	return fmt.Sprintf("rewrite %s from %s to %s (add, copy, drop, rename)", Quote(c.Column), c.From, c.To)
}

// EvolutionError reports changes that schema_evolution refused, or
// (Kept set) rewrites refused whatever the policy because they would drop
// objects of the database's that the target does not recreate.
type EvolutionError struct {
	Table   string // SCHEMA.TABLE
	Policy  string
	Refused []Change
	Kept    string // why, and what to do, when the refusal is not the policy's
	Lead    string // with Kept: what the table needs (default: a rewrite that would drop the database's objects)
}

func (e *EvolutionError) Error() string {
	var b strings.Builder
	if e.Kept != "" {
		lead := "a rewrite that would drop what target-oracle did not create"
		if e.Lead != "" {
			lead = e.Lead
		}
		fmt.Fprintf(&b, "table %s needs %s: %s", e.Table, lead, e.Kept)
		return b.String()
	}
	fmt.Fprintf(&b, "table %s needs changes that schema_evolution %q does not allow:", e.Table, e.Policy)
	for _, c := range e.Refused {
		if c.Kind == AddIndex {
			kind := "INDEX"
			if c.Index.Unique {
				kind = "UNIQUE INDEX"
			}
			fmt.Fprintf(&b, "\n  CREATE %s %s ON %s (%s)", kind, Quote(c.Index.Name), e.Table, strings.Join(c.Index.Columns, ", "))
			continue
		}
		b.WriteString("\n  ALTER TABLE ")
		b.WriteString(e.Table)
		b.WriteString(" ")
		b.WriteString(c.String())
	}
	return b.String()
}

// Evolution policies (schema_evolution).
const (
	PolicyWiden    = "widen"
	PolicyAdditive = "additive"
	PolicyFail     = "fail"
)

// inPlace reports whether an ALTER TABLE … MODIFY from → to keeps the
// stored values valid on a non-empty column.
func inPlace(from, to Type) bool {
	switch {
	case from.Kind == KindVarchar && to.Kind == KindVarchar:
		return from.National == to.National
	case from.Kind == KindNumber && to.Kind == KindNumber:
		return true
	case from.Kind == KindTimestamp && to.Kind == KindTimestamp:
		return from.TZ == to.TZ
	case from.Kind == KindRaw && to.Kind == KindRaw:
		return true
	case from.Kind == KindJSON && from.JSONAsClob && to.Kind == KindClob:
		return from.National == to.National
	}
	return false
}

// Rewrites reports whether changing a column from one type to the other
// rewrites its data (a Migrate change) rather than only the dictionary.
func Rewrites(from, to Type) bool { return from != to && !inPlace(from, to) }

// Reconcile joins the current table (nil: it does not exist) with the
// layout's wanted shape and with what a batch's values need, and returns
// the next table and the ordered changes to get there. stats[i] describes
// want.Columns[i] (the Layout's column order); it may be shorter or nil.
// Columns are matched by exact name; current columns the layout does not
// know stay as they are. Key columns are never widened by values (Row
// refuses key values that do not fit), and existing key columns not by
// the layout either, in their kind or across kinds (KeyType).
//
// policy widen applies everything; additive applies new columns and
// in-place widenings and fails if a migration is needed; fail refuses any
// change to an existing table. A refusal returns an *EvolutionError that
// lists every change refused, and no table. Creating a missing table is
// allowed under every policy.
//
// Migrated columns move to the end of next, as they do in Oracle; engines
// bind values by column name, not position.
func Reconcile(current, want *Table, stats []Stats, policy string, opts Options) (*Table, []Change, error) {
	limit := opts.ColumnLimit()
	ceiling := opts.Ceiling()
	statAt := func(i int) Stats {
		if i < len(stats) {
			return stats[i]
		}
		return Stats{}
	}
	if current == nil {
		next := want.Clone()
		for i := range next.Columns {
			next.Columns[i].Type = Fit(next.Columns[i].Type, statAt(i), ceiling)
		}
		return next, []Change{{Kind: CreateTable}}, nil
	}
	next := current.Clone()
	var changes, refused []Change
	for i, wc := range want.Columns {
		ci := next.ColumnIndex(wc.Name)
		if ci < 0 {
			c := wc
			c.Type = Fit(wc.Type, statAt(i), ceiling)
			c.Nullable = true
			next.Columns = append(next.Columns, c)
			changes = append(changes, Change{Kind: AddColumn, Column: c.Name, To: c.Type})
			continue
		}
		cur := next.Columns[ci].Type
		nt := Join(cur, wc.Type, ceiling)
		if key := slicesContain(want.PrimaryKey, wc.Name); !key {
			nt = Fit(nt, statAt(i), ceiling)
		} else if slicesContain(current.PrimaryKey, wc.Name) {
			// An existing key column stays as it is, whatever the
			// layout wants (the row builder checked the key values
			// against the layout's type).
			nt, _ = KeyType(cur, wc.Type, ceiling)
		}
		if nt == cur {
			continue
		}
		ch := Change{Kind: WidenInPlace, Column: wc.Name, From: cur, To: nt}
		if !inPlace(cur, nt) {
			ch.Kind = Migrate
			col := next.Columns[ci]
			next.Columns = append(next.Columns[:ci], next.Columns[ci+1:]...)
			col.Type = nt
			next.Columns = append(next.Columns, col)
		} else {
			next.Columns[ci].Type = nt
		}
		changes = append(changes, ch)
	}
	if keyChanged(current, want, opts) {
		for i := range next.Columns {
			c := &next.Columns[i]
			switch {
			case slicesContain(want.PrimaryKey, c.Name):
				c.Nullable = false
			case slicesContain(current.PrimaryKey, c.Name):
				c.Nullable = true
			}
		}
		next.PrimaryKey = slices.Clone(want.PrimaryKey)
		next.ReplacedKey = append([]string{}, current.PrimaryKey...) // empty, not nil, for "no key"
		next.EarlierKeys = earlierKeys(current, next.ReplacedKey, next.PrimaryKey)
		changes = append(changes, Change{Kind: ReplaceKey, OldKey: slices.Clone(current.PrimaryKey)})
	}
	added, err := missingIndexes(current, want)
	if err != nil {
		return nil, nil, err
	}
	for _, ix := range added {
		next.Indexes = append(next.Indexes, ix)
		changes = append(changes, Change{Kind: AddIndex, Index: ix})
	}
	if want.Streams != nil {
		// Also on an adopted table (current.Streams nil): its loaders
		// are recorded from its first run on.
		for _, s := range want.Streams {
			if !StreamsInclude(next.Streams, s) {
				next.Streams = append(slices.Clone(next.Streams), s)
			}
		}
		if len(next.Streams) > len(current.Streams) {
			if !TableCommentFits(next.Streams, next.ReplacedKey, next.EarlierKeys...) {
				// Oracle refuses a COMMENT over 4000 bytes; unrecorded, the
				// stream would be a sharer the guards cannot see.
				return nil, nil, fmt.Errorf("table %s is loaded by %d streams, more than its comment can record in Oracle's 4000 bytes "+
					"(ACTIVATE_VERSION, overwrite and delete_missing rely on that record): map the new stream(s) %s to another table",
					current.QualifiedName(), len(next.Streams), strings.Join(next.Streams[len(current.Streams):], ", "))
			}
			changes = append(changes, Change{Kind: RecordStreams})
		}
	}
	for _, c := range changes {
		if !allowed(c.Kind, policy) {
			refused = append(refused, c)
		}
	}
	if len(refused) > 0 {
		return nil, nil, &EvolutionError{Table: current.QualifiedName(), Policy: policy, Refused: refused}
	}
	if err := fitsColumnLimit(current, changes, limit); err != nil {
		return nil, nil, err
	}
	if err := indexesStayIndexable(current, append(slices.Clone(want.Indexes), next.Indexes...), changes); err != nil {
		return nil, nil, err
	}
	if err := partitionKeyStays(current, changes); err != nil {
		return nil, nil, err
	}
	if err := rewritesKeepDBAObjects(current, next, changes, policy); err != nil {
		return nil, nil, err
	}
	if err := widensPastDBAChecks(current, changes, policy); err != nil {
		return nil, nil, err
	}
	for _, c := range changes {
		if c.Kind == Migrate {
			next.Unused++ // the old column, set UNUSED
		}
	}
	return next, changes, nil
}

// fitsColumnLimit refuses changes that would take the table past Oracle's
// column limit at any statement (SPEC §5.2): each added column counts, and
// so does each rewrite's temporary column, which stays behind as an
// UNUSED column; so do the table's UNUSED columns. The refusal comes
// before any change is made, with the manual procedure.
func fitsColumnLimit(current *Table, changes []Change, limit int) error {
	peak := len(current.Columns) + current.Unused
	var rewrites []Change
	for _, c := range changes {
		switch c.Kind {
		case AddColumn:
			peak++
		case Migrate:
			peak++
			rewrites = append(rewrites, c)
		}
	}
	if peak <= limit {
		return nil
	}
	name := Quote(current.Schema) + "." + Quote(current.Name)
	var b strings.Builder
	fmt.Fprintf(&b, "table %s would need %d columns at once (%d in use", current.QualifiedName(), peak, len(current.Columns))
	if current.Unused > 0 {
		fmt.Fprintf(&b, ", %d UNUSED left by earlier migrations", current.Unused)
	}
	fmt.Fprintf(&b, "), more than %s; nothing was changed.", ColumnLimitText(limit))
	if current.Unused > 0 {
		fmt.Fprintf(&b, " Free the UNUSED columns first (it rewrites every row): ALTER TABLE %s DROP UNUSED COLUMNS CHECKPOINT 10000; then run the load again.", name)
	}
	if len(rewrites) > 0 {
		c := rewrites[0]
		col := Quote(c.Column)
		fmt.Fprintf(&b, " Rewriting column %s from %s to %s needs a temporary column. To rewrite it by hand: "+
			"CREATE TABLE %s AS SELECT ROWID AS RID, %s FROM %s; ALTER TABLE %s SET UNUSED (%s); ALTER TABLE %s DROP UNUSED COLUMNS CHECKPOINT 10000; "+
			"ALTER TABLE %s ADD (%s %s); then copy the values back converted (UPDATE %s T SET %s = (SELECT … FROM the copy WHERE RID = T.ROWID)) and drop the copy; see docs/types.md.",
			col, c.From, c.To, Quote(current.Schema)+"."+Quote(DerivedName(current.Name, "$COPY", MaxBytesShort)), col, name, name, col, name, name, col, c.To, name, col)
	}
	b.WriteString(" Or keep the table smaller: storage_mode json, a smaller flattening_max_depth or ignored_columns.")
	return inputError("", "", "%s", b.String())
}

// UnfitColumn is the cause of an input error refusing a change that
// values of a batch need in one column of the existing table: the caller
// knows the batch's rows, and names the line of the first record whose
// value does not fit the column as it is.
type UnfitColumn struct {
	Column string // of the existing table
	Msg    string
}

func (u *UnfitColumn) Error() string { return u.Msg }

// partitionKeyStays refuses a change of a partitioned table's key column
// (or the WITH TIME ZONE column its virtual key derives from): Oracle
// refuses to MODIFY a partitioning column's type (ORA-14060) or one a
// virtual column uses (ORA-54031), and to SET UNUSED it (ORA-12984), so a
// widening or rewrite would fail on every run. The refusal comes before
// any change is made, in the plan both engines share.
func partitionKeyStays(current *Table, changes []Change) error {
	p := current.Partition
	if p == nil {
		return nil
	}
	for _, c := range changes {
		if (c.Kind == Migrate || c.Kind == WidenInPlace) && (c.Column == p.Column || c.Column == p.KeyColumn() || slicesContain(p.More, c.Column)) {
			return &inputerr.Error{Err: &UnfitColumn{Column: c.Column, Msg: fmt.Sprintf("column %s of table %s would change from %s to %s, but the table is partitioned by it "+
				"and Oracle cannot change a partitioning column's type (ORA-14060, ORA-54031) nor drop it (ORA-12984); nothing was changed. "+
				"Make the values fit the column as it is (fewer fractional digits, the same type), or load into a new table",
				Quote(c.Column), current.QualifiedName(), c.From, c.To)}}
		}
	}
	return nil
}

// rewritesKeepDBAObjects refuses a rewrite (Migrate) of a column that
// has a DEFAULT, an identity or a virtual expression (Column.Fill), or
// objects of the database's on it that the target does not recreate
// (Column.Dependents, less the custom indexes next has, which the rewrite
// makes again): its SET UNUSED … CASCADE CONSTRAINTS would drop them, and
// the new column has no DEFAULT. The refusal comes before any change is
// made, in the plan both engines share, and names every object.
func rewritesKeepDBAObjects(current, next *Table, changes []Change, policy string) error {
	var refused []Change
	var why []string
	for _, c := range changes {
		if c.Kind != Migrate {
			continue
		}
		col := current.Column(c.Column)
		if col == nil {
			continue
		}
		var objs []string
		if col.Fill != FillNone {
			objs = append(objs, "its DEFAULT (it is "+col.Fill.String()+")")
		}
		for _, d := range col.Dependents {
			if d.Kind == DependentIndex && slices.ContainsFunc(next.Indexes, func(ix Index) bool { return ix.Name == d.Name }) {
				continue // a custom index: the rewrite creates it again
			}
			objs = append(objs, d.String())
		}
		if len(objs) == 0 {
			continue
		}
		refused = append(refused, c)
		why = append(why, fmt.Sprintf("column %s would be rewritten from %s to %s (add, copy, SET UNUSED … CASCADE CONSTRAINTS, rename), which drops %s",
			Quote(c.Column), c.From, c.To, strings.Join(objs, ", ")))
	}
	if len(refused) == 0 {
		return nil
	}
	return &EvolutionError{Table: current.QualifiedName(), Policy: policy, Refused: refused,
		Kept: strings.Join(why, "; ") + "; target-oracle will not recreate them, so nothing was changed. " +
			"Drop the indexes and constraints yourself if the table may lose them (DROP INDEX …, ALTER TABLE … DROP CONSTRAINT …) and run again; " +
			"otherwise (a DEFAULT stays in the catalog) rewrite the column by hand and recreate them (docs/types.md), " +
			"or map the property to a new column (column_mappings)"}
}

// widensPastDBAChecks refuses a widening in place that drops one of the
// target's own checks (the IS JSON of a CLOB JSON column becoming a plain
// CLOB, the IN (0, 1) of a NUMBER(1) boolean becoming a wider NUMBER)
// when the column has a check constraint the target did not create
// (Column.Dependents: the catalog's checks less the target's own names).
// Such a check stays after the widening, and if it is an IS JSON (or 0/1)
// check under another name (a DBA's, SYS_C…), Oracle refuses every value
// the widening was for (ORA-02290) after the DDL, while the plan both
// engines share, and the embedded engine, which does not model a DBA's
// checks, show the load done. The refusal comes before any change, naming
// the checks (cli.TestAttackObjectWidenedToScalarKeepsISJSONCheck; the
// target's own names under either identifier limit are not a DBA's:
// oraclesql.OwnCheck).
func widensPastDBAChecks(current *Table, changes []Change, policy string) error {
	var refused []Change
	var why []string
	for _, c := range changes {
		if c.Kind != WidenInPlace {
			continue
		}
		dropsJSON := c.From.Kind == KindJSON && c.From.JSONAsClob && !c.From.JSONUnchecked && !(c.To.Kind == KindJSON && c.To.JSONAsClob && !c.To.JSONUnchecked)
		dropsBool := c.From.isBool() && c.From.Kind == KindNumber && !c.To.BoolNumber
		col := current.Column(c.Column)
		if col == nil || !dropsJSON && !dropsBool {
			continue
		}
		var checks []string
		for _, d := range col.Dependents {
			if d.Kind == DependentCheck {
				checks = append(checks, d.String())
			}
		}
		if len(checks) == 0 {
			continue
		}
		what, from := "IS JSON", c.From.String()+" IS JSON"
		if dropsBool {
			what, from = "IN (0, 1)", c.From.String()
		}
		refused = append(refused, c)
		why = append(why, fmt.Sprintf("column %s would widen from %s to %s, dropping target-oracle's own %s check, but %s on it is not target-oracle's "+
			"and would stay: if it checks %s too, Oracle refuses every value the widening is for (ORA-02290)",
			Quote(c.Column), from, c.To, what, strings.Join(checks, ", "), what))
	}
	if len(refused) == 0 {
		return nil
	}
	return &EvolutionError{Table: current.QualifiedName(), Policy: policy, Refused: refused,
		Lead: "a widening that a check constraint target-oracle did not create may defeat",
		Kept: strings.Join(why, "; ") + "; nothing was changed. Drop the constraint yourself (ALTER TABLE … DROP CONSTRAINT …) if the column may lose it and run again, " +
			"or map the property to a new column (column_mappings)"}
}

// indexesStayIndexable refuses a change that makes an indexed column a
// LOB (a value past VARCHAR2's limit): Oracle cannot index a LOB
// (ORA-02327), and the rewrite's SET UNUSED of the old column would drop
// the index with it, silently, a unique one's guarantee included. The
// refusal comes before any change is made.
func indexesStayIndexable(current *Table, indexes []Index, changes []Change) error {
	for _, c := range changes {
		if c.Kind != Migrate && c.Kind != WidenInPlace || !c.To.IsLOB() {
			continue
		}
		for _, ix := range indexes {
			if slicesContain(ix.Columns, c.Column) {
				return &inputerr.Error{Err: &UnfitColumn{Column: c.Column, Msg: fmt.Sprintf("column %s of table %s would become %s (from %s) for a value that does not fit it, but index %s is on it and Oracle cannot index a %s column (ORA-02327): rewriting the column would drop the index; nothing was changed. "+
					"Remove the index from custom_indexes (and drop it), or make the values fit (a maxLength the column can hold, or a stream map that cuts them)",
					Quote(c.Column), current.QualifiedName(), c.To, c.From, Quote(ix.Name), c.To)}}
			}
		}
	}
	return nil
}

// missingIndexes are the custom indexes want asks for that the existing
// table current lacks. Indexes are matched by their column list, in
// order, and uniqueness, not by name: releases before named them
// differently. An index of current on the columns serves a non-unique
// wish whether unique or not, and the primary key serves as a unique
// index; an existing non-unique index where a unique one is wanted is an
// error (Oracle refuses a second index on the same column list,
// ORA-01408), naming the index and what to do. Nothing is compared when
// the catalog read did not list current's indexes (IndexesUnread).
func missingIndexes(current, want *Table) ([]Index, error) {
	if current.IndexesUnread {
		return nil, nil
	}
	var out []Index
	for _, w := range want.Indexes {
		served, err := indexServed(current, w)
		if err != nil {
			return nil, err
		}
		if !served && !slices.ContainsFunc(out, func(o Index) bool { return slices.Equal(o.Columns, w.Columns) }) {
			out = append(out, w)
		}
	}
	return out, nil
}

// indexServed reports whether an index of t (or its primary key) serves
// the wanted index w, or why one on its columns cannot.
func indexServed(t *Table, w Index) (bool, error) {
	if len(t.PrimaryKey) > 0 && slices.Equal(t.PrimaryKey, w.Columns) {
		return true, nil
	}
	for _, h := range t.Indexes {
		if !slices.Equal(h.Columns, w.Columns) {
			continue
		}
		if h.Unique || !w.Unique {
			return true, nil
		}
		return false, &ConfigError{Setting: "custom_indexes", Msg: fmt.Sprintf(
			"UNIQUE index %s on (%s) of table %s is not made: index %s has these columns but is not unique "+
				"(drop it, or make the custom_indexes entry not unique)",
			Quote(w.Name), strings.Join(w.Columns, ", "), t.QualifiedName(), Quote(h.Name))}
	}
	return false, nil
}

// keyChanged reports whether the stream's key differs from the table's
// primary key. Append-only loads leave the constraint as it is (they add
// none). A table without a primary key whose columns for the wanted key
// are all NOT NULL was made for that key by an append-only load (or by
// hand): upserts match on those columns without a constraint (SPEC §6), so
// that is no change; otherwise a key appearing or disappearing is one.
// earlierKeys are the keys a table whose key is replaced again has had
// before its replaced key: current's earlier keys and its replaced key,
// oldest first, each once, without replaced (the new ReplacedKey) and key
// (the new primary key, should the table get an old key back).
func earlierKeys(current *Table, replaced, key []string) [][]string {
	var out [][]string
	for _, k := range append(slices.Clone(current.EarlierKeys), current.ReplacedKey) {
		if k == nil || slices.Equal(k, replaced) || slices.Equal(k, key) || slices.ContainsFunc(out, func(o []string) bool { return slices.Equal(o, k) }) {
			continue
		}
		out = append(out, append([]string{}, k...))
	}
	return out
}

// KeyReplaced reports whether key is one the table had before the target
// replaced its key: its ReplacedKey or one of its EarlierKeys, as the
// comment records them (ReplacedKeyIs). A SCHEMA with such a key on a
// table with rows is input from before the change, replayed (SPEC §7.6).
func (t *Table) KeyReplaced(key []string) bool {
	if ReplacedKeyIs(t.ReplacedKey, key) {
		return true
	}
	return slices.ContainsFunc(t.EarlierKeys, func(k []string) bool { return ReplacedKeyIs(k, key) })
}

func keyChanged(current, want *Table, opts Options) bool {
	switch {
	case opts.NoKeyConstraint || slices.Equal(current.PrimaryKey, want.PrimaryKey):
		return false
	case len(current.PrimaryKey) == 0:
		for _, k := range want.PrimaryKey {
			if c := current.Column(k); c == nil || c.Nullable {
				return true
			}
		}
		return false
	}
	return true
}

func allowed(k ChangeKind, policy string) bool {
	if k == RecordStreams {
		return true // a comment: no data, no column, and what keeps other streams' rows safe
	}
	switch policy {
	case PolicyFail:
		// Not even a missing custom index: building one locks and reads
		// the whole table, which a policy of no table changes (and
		// allow_alter_table: false) rules out; the error gives the DDL.
		return false
	case PolicyAdditive:
		// Replacing the key only ever happens on an empty table: it
		// changes no data.
		return k == AddColumn || k == WidenInPlace || k == ReplaceKey || k == AddIndex
	}
	return true
}

func slicesContain(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// index returns the position of the column with that exact name, or -1.
func (t *Table) ColumnIndex(name string) int {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return i
		}
	}
	return -1
}

// Clone returns a deep copy of t.
func (t *Table) Clone() *Table {
	c := *t
	c.Columns = make([]Column, len(t.Columns))
	for i, col := range t.Columns {
		col.Source = append([]string(nil), col.Source...)
		col.Dependents = slices.Clone(col.Dependents)
		c.Columns[i] = col
	}
	c.PrimaryKey = append([]string(nil), t.PrimaryKey...)
	if t.Streams != nil {
		c.Streams = append([]string{}, t.Streams...)
	}
	c.Indexes = make([]Index, len(t.Indexes))
	for i, ix := range t.Indexes {
		ix.Columns = append([]string(nil), ix.Columns...)
		c.Indexes[i] = ix
	}
	return &c
}

// MigrateValue converts a value stored in a column of type from into the
// stored form of type to, with exactly the text a new value of type to
// would get: numbers stay canonical decimal, booleans become 1/0 in a
// number and true/false in BOOLEAN or text, dates become midnight UTC in a
// timestamp, and everything else keeps its text (canonical date-times,
// YYYY-MM-DD dates and compact JSON are already what a text column gets).
// "" (NULL) stays "". Conversions the lattice never asks for are errors.
func MigrateValue(from, to Type, stored string) (string, error) {
	if stored == "" {
		return "", nil
	}
	switch {
	case from.IsBinary() || to.IsBinary():
		return migrateBinary(from, to, stored)
	case from.isBool():
		b, err := storedBool(from, stored)
		if err != nil {
			return "", err
		}
		switch {
		case to.Kind == KindNumber && b:
			return "1", nil
		case to.Kind == KindNumber:
			return "0", nil
		case to.Kind == KindBoolean, to.IsText(), to.Kind == KindJSON:
			return strconv.FormatBool(b), nil
		}
	case from.Kind == KindNumber && (to.Kind == KindNumber && !to.BoolNumber || to.IsText()):
		return stored, nil
	case from.Kind == KindDate && to.Kind == KindTimestamp:
		return stored + "T00:00:00Z", nil
	case from.Kind == KindDate || from.Kind == KindTimestamp:
		if to.Kind == from.Kind || to.IsText() {
			return stored, nil
		}
	case from.IsText(), from.Kind == KindJSON:
		if to.IsText() || to.Kind == KindJSON {
			return stored, nil
		}
	}
	return "", fmt.Errorf("cannot migrate a %s value to %s", from, to)
}

// ConvertsOnWrite reports whether a value made for a column of type from
// must go through MigrateValue before it is written to a column of type
// to, the join of from with the column's type: the table changed after
// the value was made (another stream loading into the table widened it,
// SPEC §5.1), and the value must land with exactly the text a value made
// for to gets (SPEC §5.5). That is so for a boolean between NUMBER(1) and
// BOOLEAN or text ("1" is "true" there), for a DATE in a timestamp, and
// for a RAW value in text, which gets the base16 text a rewritten RAW
// value gets (BinaryText), not its stored base64; every other pair of the
// lattice keeps its text.
func ConvertsOnWrite(from, to Type) bool {
	switch {
	case from == to:
		return false
	case from.isBool():
		return (from.Kind == KindNumber) != (to.Kind == KindNumber)
	case from.Kind == KindDate:
		return to.Kind == KindTimestamp
	case from.Kind == KindRaw:
		return to.IsText()
	}
	return false
}

func storedBool(t Type, s string) (bool, error) {
	switch s {
	case "1", "true":
		return true, nil
	case "0", "false":
		return false, nil
	}
	return false, fmt.Errorf("stored %s value %q is not a boolean", t, s)
}
