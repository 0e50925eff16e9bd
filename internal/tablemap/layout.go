package tablemap

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/oravalue"
	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/table"
)

// deletedProperty is the record property that feeds _SDC_DELETED_AT.
const deletedProperty = "_sdc_deleted_at"

// inputError is the error for what the stream's own messages got wrong.
func inputError(stream, property, format string, args ...any) error {
	return &inputerr.Error{Stream: stream, Property: property, Msg: fmt.Sprintf(format, args...)}
}

// Layout is one stream's mapping of records onto a table. It is built once
// per SCHEMA; Row is the per-record hot path. A Layout is not safe for
// concurrent use (Row reuses buffers).
type Layout struct {
	stream string
	table  table.Table
	cols   []colPlan
	root   *objPlan
	keys   []int
	// required are adopted NOT NULL columns whose DEFAULT does not apply
	// to a bound NULL (Column.NeedsValue): a record must carry them.
	required []int
	meta     map[string]int
	metaAt   [len(metaFilled)]int // columns of metaFilled, -1 when absent
	doc      int                  // the json mode document column, -1 otherwise
	docTrie  *trie
	ceiling  int

	checks  bool // UseOnePass succeeded
	checker schema.Checker

	buf     []byte
	block   []byte // the text block rows are cut from (rowText)
	sealed  int    // the capacity of the block Seal ended (newBlock grows from it)
	blocks  *Blocks
	scratch []byte
	// names checks the JSON values appendJSON compacts for repeated
	// member names (reset per value).
	names   oravalue.NameCheck[[]byte]
	rs      *RowState // what building one row needs and nothing after it
	lastRow int       // the last row's size in its text block (startRow)
	gen     uint64    // the record's number (objPlan.gen)

	needsDeleted bool // the record carries an undeclared _sdc_deleted_at the table has no column for

	seqHigh     int64  // _sdc_sequence / 1e9 of the last row, 0 before the first (appendSequence)
	seqHighText []byte // seqHigh's decimal text

	bin      []byte   // decoded binary values (binary)
	warnings []string // what the mapping chose that the user should know (Warnings)
}

// cand is a column the layout wants before it has a name.
type cand struct {
	source []string // property path, or {"_sdc_x"} for metadata
	path   string   // source joined with "."
	role   table.Role
	prop   *schema.Property
	typ    table.Type
	key    bool
	meta   string // metadata column name
	// optional metadata columns are only used when the table has them.
	optional bool
	mapped   string // column mapping, verbatim
	base     string // conformed generated name
	desc     string

	name     string
	existing int // index in the existing table, -1 when new
	// wanted is the type a key property's values want when its existing
	// column keeps another type (keepKey), else the zero Type.
	wanted table.Type
}

// NewLayout maps one stream's compiled schema onto a table (§5).
//
// existing is the table as the catalog has it (nil when absent): its
// columns keep their names, types and order; columns are matched by their
// comment's source path, then by exact name, then case-insensitively;
// their types are joined with what the schema needs, never narrowed; new
// columns go at the end. keyProps are the SCHEMA's key_properties
// (top-level property names).
//
// Errors are *inputerr.Error for what the stream got wrong (a missing
// or LOB key, too many columns, an existing NOT NULL column the schema
// does not fill) and *ConfigError for unusable settings.
func NewLayout(stream string, root *schema.Property, keyProps []string, opts table.Options, existing *table.Table) (*Layout, error) {
	if root == nil {
		root = &schema.Property{Types: schema.Object, MaxLength: -1}
	}
	switch opts.StorageMode {
	case "":
		opts.StorageMode = table.ModeHybrid
	case table.ModeHybrid, table.ModeFlattened, table.ModeJSON:
	default:
		return nil, &table.ConfigError{Setting: "storage_mode", Msg: fmt.Sprintf("unknown mode %q", opts.StorageMode)}
	}
	if opts.Schema != "" {
		if err := table.CheckName(opts.Schema, opts.MaxBytes()); err != nil {
			return nil, &table.ConfigError{Setting: "default_target_schema", Msg: err.Error()}
		}
	}
	if !root.HasProperties && opts.StorageMode != table.ModeJSON {
		return nil, inputError(stream, "", "schema has no properties; only storage_mode json can load it")
	}
	name, err := table.TableName(stream, &opts)
	if err != nil {
		return nil, err
	}
	if err := checkPaths(stream, root, &opts); err != nil {
		return nil, err
	}
	b := &builder{stream: stream, opts: &opts, ignored: &trie{}, maxColumns: opts.ColumnLimit()}
	for _, p := range opts.IgnoredColumns {
		b.ignored.add(strings.Split(p, "."))
	}
	if err := b.collect(root, keyProps); err != nil {
		return nil, err
	}
	if err := b.sizeKeys(); err != nil {
		return nil, err
	}
	if err := b.name(existing); err != nil {
		return nil, err
	}
	t, err := b.table(name, existing)
	if err != nil {
		return nil, err
	}
	l := &Layout{stream: stream, table: *t, doc: -1, ceiling: opts.Ceiling(), meta: make(map[string]int), warnings: b.warnings}
	if len(b.ignored.kids) > 0 {
		l.docTrie = b.ignored // nil otherwise: documents are copied without a walk
	}
	if err := l.plan(b, root); err != nil {
		return nil, err
	}
	for i := range l.table.Columns {
		if l.table.Columns[i].NeedsValue() && l.cols[i].path != "" {
			l.required = append(l.required, i)
		}
	}
	return l, nil
}

// builder carries NewLayout's intermediate state.
type builder struct {
	stream  string
	opts    *table.Options
	ignored *trie
	keys    []*cand // key_properties order
	props   []*cand // schema order (keys included where they appear)
	doc     *cand
	meta    []*cand

	maxColumns int      // the column limit (Options.MaxColumns)
	warnings   []string // see Layout.Warnings
}

func (b *builder) ignoredPath(path []string) bool {
	n := b.ignored
	for _, k := range path {
		if n = n.child(k); n == nil {
			return false
		}
		if n.drop {
			return true
		}
	}
	return false
}

func (b *builder) newCand(p *schema.Property, role table.Role) *cand {
	path := strings.Join(p.Path, ".")
	c := &cand{source: p.Path, path: path, role: role, prop: p, desc: p.Description, existing: -1}
	c.typ = PropertyType(p, b.opts)
	c.mapped = b.opts.ColumnMappings[path]
	b.noteNative(c)
	return c
}

// collect lists the wanted columns: keys, properties (or the document),
// metadata.
func (b *builder) collect(root *schema.Property, keyProps []string) error {
	o := b.opts
	keySet := make(map[string]*cand, len(keyProps))
	for _, k := range keyProps {
		p := root.Lookup(k)
		switch {
		case p == nil:
			return inputError(b.stream, k, "key property is not in the schema")
		case b.ignoredPath(p.Path):
			return &table.ConfigError{Setting: "ignored_columns", Msg: fmt.Sprintf("stream %q: key property %q cannot be ignored", b.stream, k)}
		case keySet[k] != nil:
			return inputError(b.stream, k, "key property is listed twice")
		}
		c := b.newCand(p, table.RoleProperty)
		c.key = true
		if err := b.checkNative(c); err != nil {
			return err
		}
		if c.typ.IsLOB() {
			return inputError(b.stream, k, "key property would need a %s column, which Oracle cannot index: give it a maxLength or a scalar type", c.typ)
		}
		keySet[k] = c
		b.keys = append(b.keys, c)
	}
	hasDeleted := root.Lookup(deletedProperty) != nil
	if o.StorageMode == table.ModeJSON {
		b.props = append(b.props, b.keys...)
		doc := cmp.Or(o.JSONColumnName, "DATA")
		b.doc = &cand{role: table.RoleDocument, typ: o.JSONType(), existing: -1, path: doc,
			base: table.FitName(table.ConformName(doc, o.IdentifierUpper), doc, o.MaxBytes())}
	} else {
		b.walk(root, 0, keySet)
		for _, c := range b.props {
			if err := b.checkNative(c); err != nil {
				return err
			}
		}
	}
	for _, m := range table.MetaColumns() {
		c := &cand{source: []string{strings.ToLower(m)}, path: strings.ToLower(m), role: table.RoleMetadata, meta: m, name: m, base: m, existing: -1}
		c.typ = o.TimestampType()
		if m == table.MetaSequence || m == table.MetaTableVersion {
			c.typ = table.IntegerType()
		}
		if m == table.MetaRunID {
			c.typ = table.Type{Kind: table.KindVarchar, Length: table.RunIDBytes}
		}
		switch {
		case m == table.MetaRunID:
			c.optional = !o.UsesRunID
		case o.AddRecordMetadata:
		case m == table.MetaReceivedAt && o.PartitionedByReceivedAt():
		case m == table.MetaDeletedAt && (hasDeleted || o.UsesVersions || o.UsesDeletes || o.UsesRunID):
		case m == table.MetaTableVersion && o.UsesVersions:
		default:
			c.optional = true
		}
		if m == table.MetaDeletedAt && hasDeleted {
			c.desc = root.Lookup(deletedProperty).Description
		}
		b.meta = append(b.meta, c)
	}
	b.meta = append(b.meta, b.historyCands()...)
	return nil
}

// walk adds the columns of obj's properties in schema order, expanding
// objects in flattened mode down to the maximum depth.
func (b *builder) walk(obj *schema.Property, depth int, keys map[string]*cand) {
	for _, p := range obj.Properties {
		if depth == 0 && keys[p.Name] != nil {
			b.props = append(b.props, keys[p.Name])
			continue
		}
		if b.ignoredPath(p.Path) || (depth == 0 && p.Name == deletedProperty) {
			continue
		}
		if b.expands(p, depth) {
			b.walk(p, depth+1, keys)
			continue
		}
		b.props = append(b.props, b.newCand(p, table.RoleProperty))
	}
}

// checkNative returns the error of a property whose native type is not
// possible (see noteNative); walk's candidates are checked by
// checkNatives.
func (b *builder) checkNative(c *cand) error {
	if c.prop == nil || !isVector(c.prop) {
		return nil
	}
	if _, _, err := vectorSpec(c.prop); err != nil {
		return inputError(b.stream, c.path, "%v", err)
	}
	return nil
}

// expands reports whether p's properties become columns of their own.
func (b *builder) expands(p *schema.Property, depth int) bool {
	return b.opts.StorageMode == table.ModeFlattened && depth < b.opts.FlatteningMaxDepth &&
		p.Types.NonNull() == schema.Object && p.HasProperties
}

// sizeKeys fits the key columns within KeyBudgetBytes: fixed-size keys
// first, then the string keys share what is left, the shortest keeping
// their declared size and the rest getting an equal VARCHAR2(n BYTE)
// share.
func (b *builder) sizeKeys() error {
	ceiling := b.opts.Ceiling()
	budget := KeyBudgetBytes
	var strs []*cand
	for _, c := range b.keys {
		if c.typ.Kind == table.KindVarchar {
			strs = append(strs, c)
			continue
		}
		budget -= keyBytes(c.typ, ceiling)
		if budget < 0 {
			return inputError(b.stream, c.path, "key columns do not fit Oracle's index key limit of %d bytes (a %s key takes %d)", KeyBudgetBytes, c.typ, keyBytes(c.typ, ceiling))
		}
	}
	slices.SortStableFunc(strs, func(x, y *cand) int {
		return cmp.Compare(keyBytes(x.typ, ceiling), keyBytes(y.typ, ceiling))
	})
	for i, c := range strs {
		share := budget / (len(strs) - i)
		if w := keyBytes(c.typ, ceiling); w <= share {
			budget -= w
			continue
		}
		if share < 1 || (c.typ.National && share < 2) {
			return inputError(b.stream, c.path, "key columns do not fit Oracle's index key limit of %d bytes", KeyBudgetBytes)
		}
		if c.typ.National {
			c.typ = table.Type{Kind: table.KindVarchar, Length: share / 2, CharSemantics: true, National: true}
		} else {
			c.typ = table.Type{Kind: table.KindVarchar, Length: share}
		}
		budget -= share
	}
	return nil
}

// all returns the candidates in naming order: properties in schema order
// (keys where the schema lists them), the document, then metadata.
func (b *builder) all() []*cand {
	all := append([]*cand(nil), b.props...)
	if b.doc != nil {
		all = append(all, b.doc)
	}
	return append(all, b.meta...)
}

// name matches candidates with existing columns and names the new ones.
func (b *builder) name(existing *table.Table) error {
	o := b.opts
	max := o.MaxBytes()
	sep := o.Separator()
	all := b.all()
	for _, c := range all {
		if c.role == table.RoleProperty {
			c.base = table.ConformName(strings.Join(c.source, sep), o.IdentifierUpper)
		}
	}
	if err := b.checkMappings(all, max); err != nil {
		return err
	}
	namer := table.NewNamer(max)
	if existing != nil {
		matchExisting(all, existing, max)
		if err := b.checkMetaNames(all, existing); err != nil {
			return err
		}
		for _, col := range existing.Columns {
			namer.Reserve(col.Name)
		}
	}
	// Fixed names first: metadata, then mappings; generated names yield.
	for _, c := range b.meta {
		if c.existing < 0 && !c.optional {
			namer.Reserve(c.name)
		}
	}
	for _, c := range all {
		if c.existing >= 0 || c.mapped == "" {
			continue
		}
		if err := table.CheckName(c.mapped, max); err != nil {
			return &table.ConfigError{Setting: "column_mappings", Msg: fmt.Sprintf("stream %q, property %q: %v", b.stream, c.path, err)}
		}
		if strings.EqualFold(c.mapped, "ROWID") {
			return &table.ConfigError{Setting: "column_mappings", Msg: fmt.Sprintf("stream %q, property %q: Oracle does not allow a column named ROWID", b.stream, c.path)}
		}
		if !namer.Reserve(c.mapped) {
			// checkMappings ruled out the other wanted columns: the
			// name belongs to a column of the existing table.
			return &table.ConfigError{Setting: "column_mappings", Msg: fmt.Sprintf("stream %q, property %q: column %q is already a column of the existing table that holds something else", b.stream, c.path, c.mapped)}
		}
		c.name = c.mapped
	}
	for _, c := range all {
		if c.existing >= 0 || c.mapped != "" || c.role == table.RoleMetadata {
			continue
		}
		c.name = namer.Name(c.base, c.path)
	}
	return nil
}

// checkMappings refuses column_mappings that would put two things in one
// column (SPEC §5.1): two properties mapped onto one name, a property
// mapped onto the name a key property takes, or onto a metadata column's
// name. Mappings are verbatim, so no suffix can part them without
// renaming a column the user named or the key. Names are compared
// exactly, as Oracle compares quoted identifiers: a mapped name against
// the key's final name (its own mapping, or its generated name after
// identifier_case and the byte limit). Every metadata name counts, also
// of columns this table lacks for now: the target adds them on demand (a
// record's _sdc_deleted_at, versions, add_record_metadata turned on). A
// mapping onto a generated non-key property's name is no error: the
// mapping wins and the generated name takes the hash suffix.
func (b *builder) checkMappings(all []*cand, max int) error {
	refuse := func(format string, args ...any) error {
		return &table.ConfigError{Setting: "column_mappings", Msg: fmt.Sprintf("stream %q: ", b.stream) + fmt.Sprintf(format, args...)}
	}
	byName := make(map[string]*cand)
	for _, c := range all {
		if c.mapped == "" {
			continue
		}
		if o := byName[c.mapped]; o != nil {
			return refuse("properties %q and %q are both mapped to column %q: one column cannot hold both", o.path, c.path, c.mapped)
		}
		byName[c.mapped] = c
	}
	for _, k := range b.keys {
		if k.mapped != "" {
			continue // compared above
		}
		if c := byName[table.ColumnName(k.base, k.path, max)]; c != nil {
			return refuse("property %q is mapped to column %q, the column of key property %q: map it to another name", c.path, c.mapped, k.path)
		}
	}
	for _, m := range b.metaNames() {
		if c := byName[m]; c != nil {
			return refuse("property %q is mapped to column %q, the name of a metadata column of the target (add_record_metadata): map it to another name", c.path, c.mapped)
		}
	}
	return nil
}

// metaNames lists every metadata column name the table may ever need.
func (b *builder) metaNames() []string {
	names := table.MetaColumns()
	out := names[:]
	for _, c := range b.meta {
		if !slices.Contains(out, c.name) {
			out = append(out, c.name)
		}
	}
	return out
}

// matchExisting pairs candidates with existing columns: by the source
// recorded in the column comment, then by the exact expected name, then
// case-insensitively. Columns whose comment names another source are
// never matched by name.
func matchExisting(all []*cand, t *table.Table, max int) {
	claimed := make([]bool, len(t.Columns))
	sources := make([][]string, len(t.Columns))
	roles := make([]table.Role, len(t.Columns))
	for i, col := range t.Columns {
		sources[i], roles[i] = col.Source, col.Role
		if col.Source == nil && col.Role != table.RoleDocument {
			if r, src, _, ok := table.ParseComment(col.Comment); ok {
				sources[i], roles[i] = src, r
			}
		}
	}
	claim := func(c *cand, i int) {
		c.existing, claimed[i] = i, true
		c.name = t.Columns[i].Name
	}
	for _, c := range all {
		for i := range t.Columns {
			if claimed[i] || roles[i] != c.role {
				continue
			}
			if c.role == table.RoleDocument || (sources[i] != nil && table.SourceMatches(sources[i], c.source)) {
				claim(c, i)
				break
			}
		}
	}
	metaName := map[string]bool{}
	for _, c := range all {
		if c.role == table.RoleMetadata {
			metaName[c.name] = true
		}
	}
	for _, fold := range []bool{false, true} {
		for _, c := range all {
			if c.existing >= 0 {
				continue
			}
			want := cmp.Or(c.mapped, table.FitName(c.base, c.path, max))
			if c.role == table.RoleProperty && c.mapped == "" && !fold && metaName[want] {
				// A property whose name is a metadata column's got the
				// suffixed name when that column was there first
				// (Namer.Name): without comments (column_comments false)
				// only that name tells its column from the metadata one.
				// Else the property holds the name (checkMetaNames).
				taken := table.TakenName(want, c.path, max)
				if i := slices.IndexFunc(t.Columns, func(col table.Column) bool { return col.Name == taken }); i >= 0 && !claimed[i] && sources[i] == nil {
					claim(c, i)
					continue
				}
			}
			for i, col := range t.Columns {
				if claimed[i] || (sources[i] != nil && c.role != table.RoleMetadata) {
					continue
				}
				if col.Name == want || (fold && strings.EqualFold(col.Name, want)) {
					claim(c, i)
					break
				}
			}
		}
	}
}

// table builds the wanted table: existing columns in their order (types
// joined with the schema's), then new columns ordered keys, properties,
// document, metadata.
func (b *builder) table(name string, existing *table.Table) (*table.Table, error) {
	o := b.opts
	t := &table.Table{Schema: o.Schema, Name: name, Streams: []string{b.stream}}
	if existing != nil {
		t.Streams, t.Unused, t.ReplacedKey, t.Description = existing.Streams, existing.Unused, existing.ReplacedKey, existing.Description
		if t.Streams == nil {
			// An adopted table (no target comment): record its loader, a
			// DBA's comment kept (table.FormatTableCommentDescribed), so
			// that a stream sharing it later is seen by the guards.
			t.Streams = []string{b.stream}
		} else {
			t.Streams = append([]string{}, t.Streams...)
			if !table.StreamsInclude(t.Streams, b.stream) {
				// A stream joining the target's table: its comment will
				// name both (table.RecordStreams).
				t.Streams = append(t.Streams, b.stream)
			}
		}
		if t.ReplacedKey != nil {
			t.ReplacedKey = append([]string{}, t.ReplacedKey...)
		}
	}
	ceiling := o.Ceiling()
	byExisting := make(map[int]*cand)
	for _, c := range b.all() {
		if c.existing >= 0 {
			byExisting[c.existing] = c
		}
	}
	if existing != nil {
		for i, col := range existing.Columns {
			c := byExisting[i]
			if c == nil {
				if col.DatabaseFills() {
					// Identity, DEFAULT, virtual or invisible: never bound,
					// widened or counted as missing (SPEC §5.5).
					continue
				}
				if !col.Nullable {
					return nil, inputError(b.stream, "", "existing column %s is NOT NULL but the schema does not fill it (and the database does not: it has no DEFAULT and is no identity column)", table.Quote(col.Name))
				}
				col.Source = append([]string(nil), col.Source...)
				t.Columns = append(t.Columns, col)
				continue
			}
			if !col.Writable() {
				return nil, inputError(b.stream, c.path, "the property matches the existing column %s, %s, which refuses values: map the property elsewhere (column_mappings) or leave it out (ignored_columns)", table.Quote(col.Name), col.Fill)
			}
			wanted, own := c.typ, b.asText(c, col.Type)
			c.typ = table.Join(col.Type, own, ceiling)
			if c.key {
				b.keepKey(c, col.Type, own)
			}
			b.noteJoin(c, col.Type, wanted)
			if c.key && c.typ.IsLOB() {
				return nil, inputError(b.stream, c.path, "key property's existing column %s is a LOB", table.Quote(col.Name))
			}
			if c.key && c.typ.Kind == table.KindTimestamp && c.typ.TZ && !b.opts.NoKeyConstraint {
				// Only a PRIMARY KEY constraint refuses the type: an
				// append-only stream's key makes none.
				return nil, inputError(b.stream, c.path, "key property's existing column %s is %s, which Oracle cannot put in a primary key (ORA-02329): key the stream on another property, or load it into a new table (table_name_mappings)", table.Quote(col.Name), col.Type)
			}
			nc := b.column(c, col.Nullable)
			nc.Fill, nc.Hidden = col.Fill, col.Hidden
			t.Columns = append(t.Columns, nc)
		}
	}
	var props []*cand
	for _, c := range b.props {
		if c.existing < 0 && !c.key {
			props = append(props, c)
		}
	}
	if o.ColumnOrdering == "alphabetical" {
		slices.SortStableFunc(props, func(x, y *cand) int { return strings.Compare(x.name, y.name) })
	}
	var fresh []*cand
	for _, c := range b.keys {
		if c.existing < 0 {
			if c.typ.Kind == table.KindTimestamp {
				// Keys never widen: no fraction is too fine (SPEC §5.2).
				// And never WITH TIME ZONE, whatever timestamp_type says:
				// Oracle refuses such a column in a primary key
				// (ORA-02329); the value is the UTC instant either way.
				c.typ.Frac, c.typ.TZ = 9, false
			}
			fresh = append(fresh, c)
		}
	}
	fresh = append(fresh, props...)
	if b.doc != nil && b.doc.existing < 0 {
		fresh = append(fresh, b.doc)
	}
	for _, c := range b.meta {
		if c.existing < 0 && !c.optional {
			fresh = append(fresh, c)
		}
	}
	for _, c := range fresh {
		t.Columns = append(t.Columns, b.column(c, !c.key && c.meta != table.MetaValidFrom))
	}
	if len(t.Columns) > b.maxColumns {
		return nil, inputError(b.stream, "", "the table would need %d columns, more than %s: use storage_mode json, a smaller flattening_max_depth or ignored_columns", len(t.Columns), table.ColumnLimitText(b.maxColumns))
	}
	for _, c := range b.keys {
		if !b.opts.NoKeyConstraint {
			t.PrimaryKey = append(t.PrimaryKey, c.name)
		}
	}
	if b.opts.History && len(t.PrimaryKey) > 0 {
		t.PrimaryKey = append(t.PrimaryKey, table.MetaValidFrom)
	}
	if err := b.indexes(t); err != nil {
		return nil, err
	}
	if existing != nil {
		t.Partition, t.Compression = existing.Partition, existing.Compression
		return t, nil
	}
	if err := b.partition(t); err != nil {
		return nil, err
	}
	if o.Compression != "none" {
		t.Compression = o.Compression
	}
	return t, nil
}

// keepKey gives a key property matched to an existing column that
// column's type where the schema would change it (table.KeyType): keys
// never widen (SPEC §5.2), in their kind or across kinds, so key values
// that do not fit it are invalid input when rows are built, with a
// warning at the SCHEMA that says so.
func (b *builder) keepKey(c *cand, existing, wanted table.Type) {
	if t, kept := table.KeyType(existing, wanted, b.opts.Ceiling()); kept {
		c.typ, c.wanted = t, wanted
		b.warn(keyKeptWarning, b.stream, c.path, wanted, table.Quote(c.name), existing)
	}
}

// keyKeptWarning is the warning of a key column the schema would change:
// the stream, the key property, the type the schema asks for, the column
// and its type.
const keyKeptWarning = "stream %q, key property %q: the schema asks for %s but its key column %s is %s and keys never widen: " +
	"key values that do not fit it are invalid input (on_invalid_record applies)"

func (b *builder) column(c *cand, nullable bool) table.Column {
	col := table.Column{Name: c.name, Type: c.typ, Nullable: nullable, Role: c.role, Comment: c.desc}
	if c.source != nil {
		col.Source = append([]string(nil), c.source...)
	}
	return col
}

// maxIndexColumns is Oracle's limit of columns in a B-tree index
// (ORA-01793).
const maxIndexColumns = 32

// indexes resolves custom_indexes: each column is a property path, a
// metadata column's Singer name (_sdc_batched_at) or a column name; an
// index without a name gets table.IndexName.
func (b *builder) indexes(t *table.Table) error {
	max := b.opts.MaxBytes()
	byPath := make(map[string]string)
	for _, c := range b.all() {
		if c.role == table.RoleProperty {
			byPath[c.path] = c.name
		}
	}
	// Metadata columns by their Singer names too (_sdc_batched_at, as
	// other targets' settings name them), unless a property has the name.
	for _, c := range t.Columns {
		if c.Role == table.RoleMetadata && len(c.Source) == 1 {
			if _, taken := byPath[c.Source[0]]; !taken {
				byPath[c.Source[0]] = c.Name
			}
		}
	}
	for _, ix := range b.opts.CustomIndexes {
		out := table.Index{Name: ix.Name, Unique: ix.Unique}
		for _, ref := range ix.Columns {
			col, ok := byPath[ref]
			if !ok && t.Column(ref) != nil {
				col, ok = ref, true
			}
			if !ok {
				return &table.ConfigError{Setting: "custom_indexes", Msg: fmt.Sprintf("stream %q: %q is neither a property nor a column of table %s", b.stream, ref, t.Name)}
			}
			if c := t.Column(col); c != nil && c.Type.IsLOB() {
				// Oracle refuses a B-tree index on a LOB (ORA-02327): found
				// here, before any of the stream's data, not at CREATE INDEX
				// on the user's server after the table was made.
				return &table.ConfigError{Setting: "custom_indexes", Msg: fmt.Sprintf("stream %q: index on %q: its column %s is %s, and Oracle cannot index a LOB, JSON or VECTOR column (ORA-02327); index another property, or give this one a maxLength that fits VARCHAR2", b.stream, ref, table.Quote(col), c.Type)}
			}
			if slices.Contains(out.Columns, col) {
				return &table.ConfigError{Setting: "custom_indexes", Msg: fmt.Sprintf("stream %q: index on %s: %q is column %s a second time, and Oracle refuses a column twice in one index (ORA-00957); name it once", b.stream, strings.Join(ix.Columns, ", "), ref, table.Quote(col))}
			}
			out.Columns = append(out.Columns, col)
		}
		if len(out.Columns) == 0 {
			return &table.ConfigError{Setting: "custom_indexes", Msg: fmt.Sprintf("stream %q: an index needs columns", b.stream)}
		}
		if len(out.Columns) > maxIndexColumns {
			return &table.ConfigError{Setting: "custom_indexes", Msg: fmt.Sprintf("stream %q: an index of %d columns; Oracle's B-tree indexes take at most %d (ORA-01793)", b.stream, len(out.Columns), maxIndexColumns)}
		}
		b.warnIndexKey(t, out.Columns)
		if out.Name == "" {
			out.Name = table.IndexName(t.Name, out.Columns, max)
		} else if err := table.CheckName(out.Name, max); err != nil {
			return &table.ConfigError{Setting: "custom_indexes", Msg: fmt.Sprintf("stream %q: %v", b.stream, err)}
		}
		keep, err := b.indexFits(t, out)
		if err != nil {
			return err
		}
		if keep {
			t.Indexes = append(t.Indexes, out)
		}
	}
	return nil
}

// indexFits checks a custom index against the table's primary key and
// the indexes before it, as Oracle would at CREATE INDEX, so that the
// dry run and the load refuse the same entries before any row: a name
// another entry or the primary key constraint's index has (ORA-00955),
// and a UNIQUE entry on the column list of a plain one before it
// (ORA-01408: Oracle makes one index per column list, so it would not
// hold). An entry on the columns of one before it that serves it, or on
// the primary key's columns, is not kept: the load would meet ORA-01408
// and count it done (oracle's indexDone), and the dry run does the same.
func (b *builder) indexFits(t *table.Table, ix table.Index) (bool, error) {
	fail := func(format string, args ...any) (bool, error) {
		return false, &table.ConfigError{Setting: "custom_indexes", Msg: fmt.Sprintf("stream %q: ", b.stream) + fmt.Sprintf(format, args...)}
	}
	if ix.Name == t.Name {
		return fail("index %s has its table's name, and tables and indexes share a schema's names (ORA-00955); give the entry another \"name\"", table.Quote(ix.Name))
	}
	if len(t.PrimaryKey) > 0 && ix.Name == table.PrimaryKeyName(t.Name, b.opts.MaxBytes()) {
		return fail("index %s has the name of the table's primary key constraint and its index (ORA-00955); give the entry another \"name\"", table.Quote(ix.Name))
	}
	for _, o := range t.Indexes {
		switch {
		case slices.Equal(o.Columns, ix.Columns) && (o.Unique || !ix.Unique):
			return false, nil
		case slices.Equal(o.Columns, ix.Columns):
			return fail("indexes %s and %s have the same columns (%s), one UNIQUE and one not, and Oracle makes only one index per column list (ORA-01408); keep one entry", table.Quote(o.Name), table.Quote(ix.Name), strings.Join(ix.Columns, ", "))
		case o.Name == ix.Name:
			return fail("two entries are named %s (ORA-00955: index names are unique per schema); give one another \"name\"", table.Quote(ix.Name))
		}
	}
	if slices.Equal(t.PrimaryKey, ix.Columns) {
		return false, nil
	}
	return true, nil
}

// warnIndexKey warns of a custom index whose columns may take more bytes
// than Oracle's index key limit with the default 8 KB blocks (ORA-01450
// at CREATE INDEX, or ORA-01404 when a column widens later): a warning,
// not an error, as a database with larger blocks takes it (the primary
// key, which every table has, is sized to fit instead: sizeKeys).
func (b *builder) warnIndexKey(t *table.Table, cols []string) {
	ceiling, n := b.opts.Ceiling(), 0
	for _, name := range cols {
		if c := t.Column(name); c != nil {
			n += keyBytes(c.Type, ceiling)
		}
	}
	if n > KeyBudgetBytes {
		quoted := make([]string, len(cols))
		for i, c := range cols {
			quoted[i] = table.Quote(c)
		}
		b.warn("stream %q: custom index on %s: its columns may take %d bytes, more than the %d kept within Oracle's index key limit (about 6,400 bytes with 8 KB blocks: ORA-01450 when the index is made, ORA-01404 when a column widens); give its string properties a maxLength, or index fewer columns", b.stream, strings.Join(quoted, ", "), n, KeyBudgetBytes)
	}
}

// Table returns the table the layout wants: existing columns kept (types
// joined), new ones appended. Row values follow its column order. The
// caller must not modify it.
func (l *Layout) Table() *table.Table { return &l.table }

// Columns returns the number of columns, the length of a row.
func (l *Layout) Columns() int { return len(l.table.Columns) }

// MetaIndex returns the position of a metadata column (MetaBatchedAt, …)
// in row order, or -1 when the table has none.
func (l *Layout) MetaIndex(name string) int {
	if i, ok := l.meta[name]; ok {
		return i
	}
	return -1
}

// KeepKeyTypes gives the key columns the types prev, an earlier layout of
// the same table in this run, gave them, where the table the layout was
// made for did not have them yet (existing: that table, nil when absent):
// the catalog the SCHEMA was mapped with may not show the columns an
// earlier SCHEMA's DDL is about to create, and keys never widen (SPEC
// §5.2), so the table's key column is prev's, also when the schema now
// wants another kind (table.KeyType); the key's values are then converted
// into prev's kind. It is called before any row is built and before
// PrepareOnePass.
func (l *Layout) KeepKeyTypes(prev *Layout, existing *table.Table) {
	for _, k := range l.keys {
		col := &l.table.Columns[k]
		if existing != nil && existing.Column(col.Name) != nil {
			continue // NewLayout kept the existing column's type
		}
		pc := prev.keyColumn(col.Name)
		if pc == nil || pc.Type == col.Type {
			continue
		}
		t, kept := table.KeyType(pc.Type, col.Type, l.ceiling)
		if t == col.Type || t.National != col.Type.National {
			continue
		}
		if kept {
			l.warnings = append(l.warnings, fmt.Sprintf(keyKeptWarning, l.stream, l.cols[k].path, col.Type, table.Quote(col.Name), t))
		}
		cp := &l.cols[k]
		own := cp.conv
		cp.typ, cp.conv = t, convOf(t)
		cp.keyConv(own)
		col.Type = t
	}
}

// keyColumn returns the key column of that name, or nil.
func (l *Layout) keyColumn(name string) *table.Column {
	for _, k := range l.keys {
		if l.table.Columns[k].Name == name {
			return &l.table.Columns[k]
		}
	}
	return nil
}

// KeyIndexes returns the positions of the key columns in key_properties
// order. The caller must not modify the slice.
func (l *Layout) KeyIndexes() []int { return l.keys }

// NumberTextPaths says where Oracle NUMBER's bounds do not apply to a
// record's numbers, for schema.KeepNumberText. Inside are the property
// paths whose objects and arrays are stored as compact JSON text (CLOB
// JSON, CLOB and VARCHAR2 columns; the empty path for a CLOB JSON
// document), Bare those where a number itself keeps its text too (CLOB
// JSON columns) (SPEC §5.3). Unloaded and Open are the values never loaded
// anywhere (SPEC §5.2: only a stored number must fit NUMBER): ignored
// properties, ignored paths inside JSON columns and documents, and the
// undeclared members of the objects whose members are columns (the record
// outside storage_mode json, flattened objects). NUMBER columns, native
// JSON columns and documents, which hold numbers in Oracle's canonical
// form, are bounded by Oracle NUMBER.
func (l *Layout) NumberTextPaths() schema.NumberPaths {
	var p schema.NumberPaths
	for i, c := range l.table.Columns {
		clobJSON := c.Type.Kind == table.KindJSON && c.Type.JSONAsClob
		switch {
		case i == l.doc:
			if clobJSON {
				p.Inside = append(p.Inside, nil)
			} else {
				p.Unloaded = l.docTrie.paths(nil, p.Unloaded)
			}
		case c.Role != table.RoleProperty || l.cols[i].conv == convNone:
		case clobJSON:
			p.Inside, p.Bare = append(p.Inside, c.Source), append(p.Bare, c.Source)
		case l.cols[i].conv == convText, l.cols[i].conv == convVector:
			// A vector's elements are rounded to its format, not held
			// as NUMBER: Oracle NUMBER's bounds do not apply.
			p.Inside = append(p.Inside, c.Source)
		case l.cols[i].conv == convJSON:
			p.Unloaded = l.cols[i].filter.paths(c.Source, p.Unloaded)
		}
	}
	if l.doc < 0 {
		l.root.numberPaths(nil, &p)
	}
	return p
}

// numberPaths adds to p what the members of an object at path (op) feed:
// an undeclared or ignored member feeds nothing (Open, Unloaded).
func (op *objPlan) numberPaths(path []string, p *schema.NumberPaths) {
	p.Open = append(p.Open, path)
	for i, e := range op.entries {
		at := append(slices.Clip(path), op.names[i])
		switch {
		case e.child != nil:
			op.entries[i].child.numberPaths(at, p)
		case e.col >= 0 || e.needsDeleted:
			p.Loaded = append(p.Loaded, at)
		default:
			p.Unloaded = append(p.Unloaded, at)
		}
	}
}
