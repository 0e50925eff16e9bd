package tablemap

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/jsonscan"
	"github.com/target-oracle/target-oracle/internal/oravalue"
	"github.com/target-oracle/target-oracle/internal/prefault"
	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/value"
)

// Meta supplies the metadata values of one record, as canonical texts
// ("" for NULL): times as value.CanonicalDateTime gives them, numbers as
// canonical decimals. _SDC_BATCHED_AT and _SDC_LOADED_AT are filled later
// by the pipeline and the engine; _SDC_DELETED_AT comes from the record.
type Meta struct {
	TimeExtracted string
	ReceivedAt    string
	Sequence      int64 // 0 for NULL
	TableVersion  string
	SyncStartedAt string
}

// convKind is how a column's values are produced, from its type family.
type convKind uint8

const (
	convNone       convKind = iota // a column the schema no longer fills
	convNumber                     // NUMBER: canonical decimal, booleans 1/0
	convBoolNumber                 // NUMBER(1): 1/0
	convBoolean                    // BOOLEAN: true/false
	convText                       // VARCHAR2/CLOB: exact text, canonical scalars, compact JSON
	convDate                       // DATE: YYYY-MM-DD
	convTimestamp                  // TIMESTAMP: canonical UTC text
	convJSON                       // JSON: compact JSON
	convBinary                     // RAW/BLOB: the decoded bytes in padded base64
	convVector                     // VECTOR: compact JSON, elements rounded to the format
	convKeptKey                    // a key column kept across a change of kind: colPlan.keptConv, checked (keptKey)
)

type colPlan struct {
	// The fields every value reads come first, so that with many streams
	// (each record's plan out of the cache) a value costs one line or two.
	conv     convKind
	key      bool
	national bool
	// partition: the column is the table's partitioning key, whose
	// values must fall inside Oracle's partitions (decided at plan time,
	// not looked up in the table per value).
	partition bool
	// keptConv is the conversion of a key column that kept its type
	// across a change of the property's kind (table.KeyType; conv is then
	// convKeptKey): a value that does not convert into the column's kind
	// is a key value that does not fit. exact: the property is text, so
	// its value must also keep its exact text there ("1e2" is no NUMBER
	// key, nor a date-time with an offset a TIMESTAMP one), or two keys
	// the schema tells apart would be one.
	keptConv convKind
	exact    bool
	format   string // the source property's format
	typ      table.Type
	encoding string // the source property's binary encoding (binary columns)
	path     string // source path for errors
	filter   *trie  // ignored paths inside a JSON value
}

// keyConv marks a key column whose property's values would have had the
// conversion own (their kind's) when the column kept another: its values
// go through keptKey.
func (cp *colPlan) keyConv(own convKind) {
	if !cp.key || own == cp.conv || cp.conv == convKeptKey {
		return
	}
	cp.keptConv, cp.conv = cp.conv, convKeptKey
	cp.exact = own == convText
	if cp.keptConv == convBinary {
		// A RAW key's text is its base16 (table.BinaryText): a text
		// value is read as such, and must be that text (capitals).
		cp.encoding = table.EncodingBase16
	}
}

// objPlan dispatches the keys of one JSON object of the record.
type objPlan struct {
	prefix  string // "" at the root, else "a.b."
	index   map[string]int
	entries []entry
	names   []string        // names[i] is the key of entries[i]
	seen    map[string]bool // unknown keys already reported
	quiet   bool            // unknown keys are kept in the json document
	depth   int             // 0 for the record, 1 for an object in it, …

	cols []int  // every column this object and the objects below it fill
	gen  uint64 // Layout.gen when the record's walk last met this object: met again, it replaces the first

	// The one-pass checks (see UseOnePass): the object's node, whether the
	// walk below may check members one by one, its required mask, and
	// the node of unknown keys.
	node    schema.Node
	walk    bool
	req     uint64
	unknown schema.Node
}

type entry struct {
	col int // column fed by the value, -1 for none
	// needsDeleted marks the record's undeclared _sdc_deleted_at when the
	// table has no _SDC_DELETED_AT column: a non-null value needs one
	// (ErrDeletedColumnNeeded).
	needsDeleted bool
	child        *objPlan // flattened object
	node         schema.Node
	bit          uint64 // required bit of the one-pass check
	pat          keyPat // the key as records write it
}

type span struct {
	start, end int32
	set        bool
}

func convOf(t table.Type) convKind {
	switch t.Kind {
	case table.KindNumber:
		if t.BoolNumber {
			return convBoolNumber
		}
		return convNumber
	case table.KindBoolean:
		return convBoolean
	case table.KindVarchar, table.KindClob:
		return convText
	case table.KindDate:
		return convDate
	case table.KindTimestamp:
		return convTimestamp
	case table.KindJSON:
		return convJSON
	case table.KindRaw, table.KindBlob:
		return convBinary
	case table.KindVector:
		return convVector
	}
	return convNone
}

// plan compiles the per-record dispatch from the builder's candidates.
func (l *Layout) plan(b *builder, root *schema.Property) error {
	l.cols = make([]colPlan, len(l.table.Columns))
	l.rs = new(RowState)
	l.rs.fit(len(l.table.Columns))
	propCol := make(map[*schema.Property]int)
	for _, c := range b.all() {
		i := l.table.ColumnIndex(c.name)
		if i < 0 || (c.optional && c.existing < 0) {
			continue
		}
		col := &l.table.Columns[i]
		cp := colPlan{conv: convOf(col.Type), path: c.path, key: c.key, typ: col.Type, national: col.Type.National}
		cp.partition = l.table.Partition != nil && col.Name == l.table.Partition.KeyColumn()
		if cp.conv == convVector && col.Type.VectorFormat == "" && c.prop != nil {
			// An existing VECTOR whose shape the catalog did not tell:
			// convert for the shape the schema asks.
			if want := PropertyType(c.prop, b.opts); want.Kind == table.KindVector {
				cp.typ = want
			}
		}
		switch c.role {
		case table.RoleProperty:
			propCol[c.prop] = i
			cp.format = c.prop.Format
			if cp.conv == convBinary {
				cp.encoding = binaryEncoding(c.prop, b.opts)
				if cp.encoding == "" {
					// An existing binary column for a property that is not
					// binary (here): Join made it text, so this is not met;
					// base64 is the stored form.
					cp.encoding = table.EncodingBase64
				}
			}
			cp.filter = b.ignored
			for _, k := range c.source {
				cp.filter = cp.filter.child(k)
			}
		case table.RoleDocument:
			l.doc = i
			cp.conv = convNone // filled from the whole record
		case table.RoleMetadata:
			l.meta[c.meta] = i
			cp.format = "date-time"
			if c.meta == table.MetaDeletedAt {
				cp.path = deletedProperty
			}
		}
		if c.key && c.wanted != (table.Type{}) {
			cp.keyConv(convOf(c.wanted))
		}
		l.cols[i] = cp
	}
	for _, c := range b.keys {
		l.keys = append(l.keys, propCol[c.prop])
	}
	l.root = l.planObject(b, root, 0, propCol)
	for i, name := range metaFilled {
		l.metaAt[i] = l.MetaIndex(name)
	}
	if b.opts.StorageMode == table.ModeJSON {
		l.root.quiet = true
	}
	return nil
}

func (l *Layout) planObject(b *builder, obj *schema.Property, depth int, propCol map[*schema.Property]int) *objPlan {
	op := &objPlan{index: make(map[string]int, len(obj.Properties)), seen: make(map[string]bool), depth: depth}
	if len(obj.Path) > 0 {
		op.prefix = strings.Join(obj.Path, ".") + "."
	}
	declaredDeleted := false
	for _, p := range obj.Properties {
		e := entry{col: -1, pat: newKeyPat(p.Name, jsonscan.Plain(p.Name))}
		declaredDeleted = declaredDeleted || depth == 0 && p.Name == deletedProperty
		if i, ok := propCol[p]; ok {
			e.col = i
		} else if depth == 0 && p.Name == deletedProperty {
			e.col = l.MetaIndex(table.MetaDeletedAt)
		} else if b.expands(p, depth) {
			e.child = l.planObject(b, p, depth+1, propCol)
		}
		op.index[p.Name] = len(op.entries)
		op.entries = append(op.entries, e)
		if e.col >= 0 {
			op.cols = append(op.cols, e.col)
		} else if e.child != nil {
			op.cols = append(op.cols, e.child.cols...)
		}
		op.names = append(op.names, p.Name)
	}
	if depth == 0 && !declaredDeleted {
		// PipelineWise-style taps send _sdc_deleted_at undeclared: it is
		// honoured all the same (SPEC §5.4), as a date-time or null.
		e := entry{col: l.MetaIndex(table.MetaDeletedAt), pat: newKeyPat(deletedProperty, true)}
		e.needsDeleted = e.col < 0
		op.index[deletedProperty] = len(op.entries)
		op.entries = append(op.entries, e)
		if e.col >= 0 {
			op.cols = append(op.cols, e.col)
		}
		op.names = append(op.names, deletedProperty)
	}
	return op
}

// Row converts one record (its exact raw JSON object, already validated
// against the schema) into row values: one string per Table().Columns
// entry, "" meaning NULL, in the stored form of the column's type (see
// docs/types.md): canonical decimal numbers, 1/0 or true/false booleans,
// exact strings (canonical text for numbers, booleans and date-times in a
// text column, compact JSON for objects), canonical UTC date-times,
// YYYY-MM-DD dates, compact JSON minus ignored paths. An empty string is
// NULL, as in Oracle.
//
// stats (one per column, or nil) accumulate what the values need. meta
// supplies the metadata columns (nil: all NULL). unknown, if not nil, is
// called once per Layout for each record property the schema lacks.
// A missing or empty key value, a key value too long for its column, and a
// value its column cannot hold at all are *inputerr.Error naming the
// property. All values of row share one allocation.
func (l *Layout) Row(record []byte, meta *Meta, row []string, stats []table.Stats, unknown func(property string)) error {
	return l.row(record, meta, row, stats, unknown, false)
}

// MaxUnknownReported is how many distinct unknown keys an object of a
// layout reports (and remembers), plus one that tells there are more: a
// tap inventing a key per record must not grow memory or the log without
// bound.
const MaxUnknownReported = 1000

// ErrDeletedColumnNeeded is Row's and RowOnePass's answer for a record
// that carries a non-null _sdc_deleted_at its schema does not declare,
// when the table has no _SDC_DELETED_AT column: the caller adds it (a
// layout with Options.UsesDeletes) before the record's batch is written,
// as for a SCHEMA change, and converts the record again. The record is
// otherwise valid and convertible.
var ErrDeletedColumnNeeded = errors.New("table: the record's _sdc_deleted_at needs an _SDC_DELETED_AT column")

// ErrGeneralPath is RowOnePass's answer when the one-pass checks did not accept
// the record: it may be invalid, or valid in a way only the general path
// decides. Validate it with schema.ValidateRaw, then build the row with
// Row.
var ErrGeneralPath = errors.New("table: record not accepted by the one-pass checks")

// UseOnePass attaches the fast plan of s, the schema the layout was built
// from, so that RowOnePass validates a record in the same pass that
// converts it. It reports false, and RowOnePass must not be used, when the
// plan does not cover s or its root is not an object the walk can check.
func (l *Layout) UseOnePass(s *schema.Schema) bool {
	root, ok := s.FastRoot()
	l.checks = ok && root.Walkable()
	if l.checks {
		l.attachOnePass(l.root, root)
	}
	return l.checks
}

// attachOnePass attaches to each object plan the node checking its members.
func (l *Layout) attachOnePass(op *objPlan, n schema.Node) {
	op.node, op.walk, op.req, op.unknown = n, n.Walkable(), n.Required(), n.Unknown()
	for i := range op.entries {
		e := &op.entries[i]
		e.node, e.bit = n.Property(op.names[i])
		if e.col >= 0 && l.parsesDateTime(e.col) {
			e.node = e.node.WithoutDateTime() // the conversion checks it
		}
		if e.child != nil {
			l.attachOnePass(e.child, e.node)
		}
	}
}

// parsesDateTime reports whether converting a string value into column c
// parses it as a date-time (see text and time).
func (l *Layout) parsesDateTime(c int) bool {
	cp := &l.cols[c]
	return cp.format == "date-time" && (cp.conv == convText || cp.conv == convTimestamp)
}

// RowOnePass is Row for a record not yet validated: it also checks the
// record against the schema given to UseOnePass, member by member as it
// converts them. It returns ErrGeneralPath when the checks do not accept the
// record, and Row's errors otherwise; since a record may break a rule
// after the value whose conversion failed, callers validate on any error
// before they report it.
func (l *Layout) RowOnePass(record []byte, meta *Meta, row []string, stats []table.Stats, unknown func(property string)) error {
	if !l.checks {
		return fmt.Errorf("table: RowOnePass without UseOnePass")
	}
	return l.row(record, meta, row, stats, unknown, true)
}

func (l *Layout) row(record []byte, meta *Meta, row []string, stats []table.Stats, unknown func(property string), check bool) error {
	if len(row) != len(l.cols) || (stats != nil && len(stats) != len(l.cols)) {
		return fmt.Errorf("table: row of %d values and %d stats for %d columns", len(row), len(stats), len(l.cols))
	}
	l.startRow()
	l.gen++
	l.needsDeleted = false
	l.rs.begin(len(l.cols))
	i := skipWS(record, 0)
	if i >= len(record) || record[i] != '{' {
		return inputError(l.stream, "", "record is not a JSON object")
	}
	if l.doc >= 0 {
		var err error
		native := !l.table.Columns[l.doc].Type.JSONAsClob
		docStart := len(l.buf)
		if l.buf, _, err = appendFiltered(l.buf, record, i, l.docTrie, &l.scratch, native); err != nil {
			var ne *numberError
			if errors.As(err, &ne) {
				return inputError(l.stream, strings.Join(pathTo(record, i, ne.at), "."), "%v", err)
			}
			return inputError(l.stream, "", "record: %v", err)
		}
		if p := oravalue.DuplicateName(l.buf[docStart:]); p != nil {
			return duplicateNameError(l.stream, "", p)
		}
		l.rs.spans[l.doc] = span{0, int32(len(l.buf)), true}
		l.rs.vstats[l.doc] = table.Stats{MaxBytes: len(l.buf)}
		l.noteStats(l.doc, stats)
	}
	end, err := l.object(record, i, l.root, stats, unknown, check)
	if err != nil {
		return err
	}
	if check && skipWS(record, end) != len(record) {
		return ErrGeneralPath
	}
	if err := l.held(); err != nil {
		return err
	}
	if c := l.metaAt[atSequence]; c >= 0 && meta != nil && meta.Sequence != 0 {
		// Formatted into the row's one allocation rather than a string
		// of its own.
		start := len(l.buf)
		l.buf = l.appendSequence(l.buf, meta.Sequence)
		l.rs.spans[c] = span{int32(start), int32(len(l.buf)), true}
		l.rs.vstats[c] = table.Stats{MaxIntDigits: len(l.buf) - start}
		l.noteStats(c, stats)
	}
	for _, k := range l.keys {
		if sp := l.rs.spans[k]; sp.start == sp.end {
			return inputError(l.stream, l.cols[k].path, "key property is missing, null or empty")
		}
	}
	for _, c := range l.required {
		if sp := l.rs.spans[c]; sp.start == sp.end {
			col := &l.table.Columns[c]
			return inputError(l.stream, l.cols[c].path, "property is missing, null or empty, but its column %s is NOT NULL and its DEFAULT applies only when a load leaves the column out, never to the NULL this load would bind (SPEC §5.5)", table.Quote(col.Name))
		}
	}
	if l.needsDeleted {
		return ErrDeletedColumnNeeded
	}
	// Only a record that made it into a row counts towards the columns'
	// needs: a rejected record's values must not widen a column.
	s := l.rowText(l.buf)
	for c, sp := range l.rs.spans {
		if sp.set {
			row[c] = s[sp.start:sp.end]
		} else {
			row[c] = ""
		}
	}
	for _, c := range l.rs.grown {
		if l.rs.spans[c].set {
			merge(&stats[c], &l.rs.vstats[c])
		}
	}
	if meta != nil {
		l.setMeta(l.metaAt[atExtracted], meta.TimeExtracted, row, stats)
		l.setMeta(l.metaAt[atReceived], meta.ReceivedAt, row, stats)
		l.setMeta(l.metaAt[atVersion], meta.TableVersion, row, stats)
		l.setMeta(l.metaAt[atSyncStarted], meta.SyncStartedAt, row, stats)
		l.setMeta(l.metaAt[atValidFrom], meta.TimeExtracted, row, stats) // history: the pipeline falls back to the batch time
	}
	return nil
}

// appendSequence appends v's decimal text, as strconv.AppendInt does.
// _SDC_SEQUENCE values are epoch microseconds × 1000 and change their
// digits above the ninth once a second: those are formatted once and kept,
// and only the last nine are formatted per row (a tenth of the benchmark
// row's conversions went to formatting all nineteen).
func (l *Layout) appendSequence(dst []byte, v int64) []byte {
	const low = 1e9
	if v < low {
		return strconv.AppendInt(dst, v, 10)
	}
	high, rest := v/low, uint32(v%low)
	if high != l.seqHigh { // high >= 1: the zero Layout formats it
		l.seqHigh, l.seqHighText = high, strconv.AppendInt(l.seqHighText[:0], high, 10)
	}
	dst = append(dst, l.seqHighText...)
	var d [9]byte
	for i := 8; i >= 0; i-- {
		d[i] = byte('0' + rest%10)
		rest /= 10
	}
	return append(dst, d[:]...)
}

// blockSize is the size of the text blocks rows are cut from, once a
// layout's blocks have grown from firstBlockSize. The unused end of each
// stream's current block counts in its memory (SPEC §10's S): 16 KiB keeps
// that small and the allocations rare (one per ~50 benchmark rows).
const (
	blockSize      = 16 << 10
	firstBlockSize = 512
)

// startRow points the row buffer at the free end of the current text
// block, so that values are converted straight into the block rowText
// cuts the row from: no copy per row. A block with less room than the last
// row took is left for a new one (as rowText did when a row did not fit).
func (l *Layout) startRow() {
	if free := cap(l.block) - len(l.block); free < l.lastRow || free == 0 {
		l.newBlock(l.lastRow)
	}
	l.buf = l.block[len(l.block):len(l.block)]
}

// newBlock starts a text block with room for at least n bytes. Blocks
// double from firstBlockSize: a layout that converts a handful of rows (one
// stream of thousands) holds a small block.
func (l *Layout) newBlock(n int) {
	c := max(min(2*max(cap(l.block), l.sealed), blockSize), firstBlockSize, n)
	if c == blockSize && l.blocks != nil {
		if b := l.blocks.get(); b != nil {
			l.block = b
			return
		}
	}
	l.block = make([]byte, 0, c)
	prefault.Write(unsafe.Pointer(unsafe.SliceData(l.block)), c) // rows fill it next
}

// Block returns the text block rows are being cut from, all of its
// capacity: a buffer that holds it holds every value cut from it
// (pipeline's ownerSet), the only use of the pointer.
func (l *Layout) Block() string {
	b := l.block[:cap(l.block)]
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// rowText returns a row's converted values, b (the row buffer startRow
// set up), as one string. Rows are cut from shared blocks instead of
// allocating a string each: the allocation per row was a tenth of the one
// pass. A block's bytes are never written again once a row's string
// points at them, and it is freed with the last row (or value kept from
// it).
func (l *Layout) rowText(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	// The next row is expected about as large; one larger than a block
	// makes no block larger.
	l.lastRow = len(b)
	if len(b) > blockSize {
		l.lastRow = 0
	}
	if unsafe.SliceData(b) == unsafe.SliceData(l.block[len(l.block):cap(l.block)]) {
		// Converted in place, at the block's free end.
		l.block = l.block[:len(l.block)+len(b)]
		return unsafe.String(&b[0], len(b))
	}
	// The row outgrew the block's free end, and its buffer was moved.
	if len(b) > blockSize {
		// A row larger than a block keeps that buffer instead of a copy:
		// with a 127 MiB value, a copy would be one more 127 MiB alive
		// beside the line (SPEC §10). Nothing writes it again: the next
		// row starts in the block.
		l.buf = nil
		return unsafe.String(&b[0], len(b))
	}
	if cap(l.block)-len(l.block) < len(b) {
		l.newBlock(len(b))
	}
	start := len(l.block)
	l.block = append(l.block, b...)
	return unsafe.String(&l.block[start], len(b))
}

// metaFilled are the metadata columns Row fills from Meta, indexed like
// Layout.metaAt.
var metaFilled = [...]string{
	atExtracted: table.MetaExtractedAt, atReceived: table.MetaReceivedAt, atSequence: table.MetaSequence,
	atVersion: table.MetaTableVersion, atSyncStarted: table.MetaSyncStartedAt, atValidFrom: table.MetaValidFrom,
}

const (
	atExtracted = iota
	atReceived
	atSequence
	atVersion
	atSyncStarted
	atValidFrom
)

func (l *Layout) setMeta(i int, v string, row []string, stats []table.Stats) {
	if i < 0 {
		return
	}
	row[i] = v
	if v == "" || stats == nil {
		return
	}
	st := &stats[i]
	switch l.cols[i].conv {
	case convTimestamp:
		if dot := strings.IndexByte(v, '.'); dot >= 0 {
			st.MaxFrac = max(st.MaxFrac, len(v)-dot-2) // digits between '.' and 'Z'
		}
	case convNumber:
		st.MaxIntDigits = max(st.MaxIntDigits, len(strings.TrimPrefix(v, "-")))
	}
}

// object walks one JSON object at b[i] == '{' and fills the columns its
// keys feed, checking each member against op's nodes when check is set. It
// returns the index past the object.
//
// A member whose key is the one expected next (records mostly follow
// schema order) and that feeds a column is handled here without a call
// per step: the key compared in place with the colon after it, the check,
// the conversion, the comma. Anything else goes through member.
func (l *Layout) object(b []byte, i int, op *objPlan, stats []table.Stats, unknown func(string), check bool) (int, error) {
	var seen uint64
	next := 0 // the entry after the last one matched
	depth := op.depth + 2
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		if check && op.req != 0 {
			return i, ErrGeneralPath
		}
		return i + 1, nil
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, inputError(l.stream, "", "record: %v", errSyntax)
		}
		var j int
		var err error
		var e *entry
		if next < len(op.entries) {
			// keyPat.at, inlined.
			e = &op.entries[next]
			k := &e.pat
			if n := len(k.s); n <= 16 && i+16 <= len(b) {
				if binary.LittleEndian.Uint64(b[i:])&k.mask != k.lo || n > 8 && binary.LittleEndian.Uint64(b[i+n-8:]) != k.hi {
					e = nil
				}
			} else if !k.atEnd(b, i) {
				e = nil
			}
		}
		if e != nil && e.col >= 0 {
			next++
			j = i + len(e.pat.s)
			if j < len(b) && b[j] == ' ' {
				j++
			}
			j = skipWS(b, j)
			end := -1
			if check {
				seen |= e.bit
				var ok bool
				if end, ok = l.checker.Check(e.node, b, j, depth); !ok {
					return j, ErrGeneralPath
				}
			}
			if j, err = l.value(b, j, end, e.col, stats); err != nil {
				return j, err
			}
		} else if j, err = l.member(b, i, op, &next, stats, unknown, check, &seen); err != nil {
			return j, err
		}
		// The comma and the next key, or the end.
		if j < len(b) && b[j] == ',' {
			i = j + 1
			if i < len(b) && b[i] == ' ' {
				i++
			}
			i = skipWS(b, i)
			continue
		}
		if j = skipWS(b, j); j < len(b) {
			if b[j] == '}' {
				i = j
				break
			}
			if b[j] == ',' {
				i = skipWS(b, j+1)
				continue
			}
		}
		return j, inputError(l.stream, "", "record: %v", errSyntax)
	}
	if check && seen&op.req != op.req {
		return i, ErrGeneralPath
	}
	return i + 1, nil
}

// member handles one member of an object, the key at b[i], other than an
// expected key feeding a column (object): it returns the index past the
// value. next is the entry after the last one matched.
func (l *Layout) member(b []byte, i int, op *objPlan, next *int, stats []table.Stats, unknown func(string), check bool, seen *uint64) (int, error) {
	var key []byte
	ei, ok := *next, false
	var j int
	if ei < len(op.entries) && op.entries[ei].pat.at(b, i) {
		ok, j = true, i+len(op.entries[ei].pat.s)
	} else {
		ke, esc, err := stringEnd(b, i)
		if err != nil {
			return i, inputError(l.stream, "", "record: %v", err)
		}
		if check && !validKey(b[i+1:ke-1]) {
			return i, ErrGeneralPath
		}
		key = b[i+1 : ke-1]
		if esc {
			if l.scratch, err = appendUnescaped(l.scratch[:0], key); err != nil {
				return i, inputError(l.stream, "", "record: %v", err)
			}
			key = l.scratch
		}
		if j = skipWS(b, ke); j >= len(b) || b[j] != ':' {
			return j, inputError(l.stream, "", "record: %v", errSyntax)
		}
		j++
		// Taps write keys in schema order nearly always: try the entry
		// after the last match before hashing the key.
		if ok = ei < len(op.names) && op.names[ei] == string(key); !ok {
			ei, ok = op.index[string(key)]
		}
	}
	j = skipWS(b, j)
	if !ok {
		if !op.quiet && unknown != nil && !op.seen[string(key)] && len(op.seen) <= MaxUnknownReported {
			op.seen[string(key)] = true
			unknown(op.prefix + string(key))
		}
		if check {
			return l.check(op.unknown, b, j, op.depth+2)
		}
		return l.skip(b, j)
	}
	*next = ei + 1
	e := &op.entries[ei]
	isObject := e.child != nil && j < len(b) && b[j] == '{'
	end := -1
	if check {
		*seen |= e.bit
		if !isObject || !e.child.walk {
			var err error
			if end, err = l.check(e.node, b, j, op.depth+2); err != nil {
				return j, err
			}
		}
	}
	if e.child != nil {
		if e.child.gen == l.gen {
			l.forget(e.child) // a duplicate key replaces the whole object
		}
		e.child.gen = l.gen
	}
	switch {
	case e.col >= 0:
		return l.value(b, j, end, e.col, stats)
	case e.needsDeleted:
		if end < 0 {
			var err error
			if end, err = l.skip(b, j); err != nil {
				return j, err
			}
		}
		l.needsDeleted = b[j] != 'n' // a duplicate key replaces the value
		if l.needsDeleted {
			// Checked now, so that an invalid value adds no column.
			start := len(l.buf)
			err := l.time(&colPlan{conv: convTimestamp, format: "date-time"}, b[j:end], &table.Stats{})
			l.buf = l.buf[:start]
			if err != nil {
				return j, inputError(l.stream, deletedProperty, "%v", err)
			}
		}
		return end, nil
	case isObject:
		return l.object(b, j, e.child, stats, unknown, check && e.child.walk)
	case end >= 0:
		return end, nil
	}
	return l.skip(b, j)
}

// ForgetUnknown lets the unknown callback of Row and RowOnePass be called
// again for the property paths given, which it reported for a record the
// caller did not use after all (malformed, or converted again once its
// table has a column more): each unknown key is otherwise reported once
// per Layout.
func (l *Layout) ForgetUnknown(paths []string) {
	for _, p := range paths {
		l.root.forgetUnknown(p)
	}
}

func (op *objPlan) forgetUnknown(path string) {
	if key, ok := strings.CutPrefix(path, op.prefix); ok {
		delete(op.seen, key)
	}
	for _, e := range op.entries {
		if e.child != nil {
			e.child.forgetUnknown(path)
		}
	}
}

// forget clears the values (and held errors) of the columns an object
// plan fills.
func (l *Layout) forget(op *objPlan) {
	for _, c := range op.cols {
		l.rs.spans[c] = span{}
		l.settle(c)
	}
}

// check validates the value at b[j] against n and returns the index past
// it; depth is the nesting level of the value's container (a record's own
// members: 2, as singer.MaxDepth counts).
func (l *Layout) check(n schema.Node, b []byte, j, depth int) (int, error) {
	end, ok := l.checker.Check(n, b, j, depth)
	if !ok {
		return j, ErrGeneralPath
	}
	return end, nil
}

func (l *Layout) skip(b []byte, j int) (int, error) {
	e, err := valueEnd(b, j)
	if err != nil {
		return j, inputError(l.stream, "", "record: %v", err)
	}
	return e, nil
}

// value converts the value at b[j] into column c and records its span and
// stats. end is where the value ends, or -1 when not known yet.
func (l *Layout) value(b []byte, j, end int, c int, stats []table.Stats) (int, error) {
	cp := &l.cols[c]
	var err error
	checked := end >= 0 // the checker has just accepted b[j:end]
	if !checked {
		if end, err = valueEnd(b, j); err != nil {
			return j, inputError(l.stream, cp.path, "%v", err)
		}
	}
	raw := b[j:end]
	l.settle(c)        // a later duplicate key replaces the value, and its error
	if raw[0] == 'n' { // null
		l.rs.spans[c] = span{}
		return end, nil
	}
	start := len(l.buf)
	st := &l.rs.vstats[c]
	*st = table.Stats{}
	switch cp.conv {
	case convNone:
		return end, nil
	case convJSON:
		l.buf, err = l.appendJSON(cp, raw)
		st.MaxBytes = len(l.buf) - start
	case convText:
		err = l.text(cp, raw, st)
	case convNumber:
		if checked {
			// The checker's scan found the grammar and the '.': the
			// canonical text needs no second scan.
			if dot, ok := l.checker.PlainNumberAt(j, end); ok {
				var info value.NumberInfo
				l.buf, info = value.AppendPlainNumber(l.buf, raw, dot)
				st.MaxIntDigits, st.MaxScale = info.IntDigits, info.Scale
				break
			}
		}
		err = l.number(raw, st)
	case convBoolNumber, convBoolean:
		err = l.boolean(cp, raw)
	case convDate, convTimestamp:
		err = l.time(cp, raw, st)
	case convBinary:
		err = l.binary(cp, raw, st)
	case convVector:
		err = l.vector(cp, raw)
		st.MaxBytes = len(l.buf) - start
	case convKeptKey:
		err = l.keptKey(cp, raw, st)
	}
	if err != nil {
		l.buf = l.buf[:start]
		l.rs.spans[c] = span{}
		return end, l.hold(c, l.convError(cp, err))
	}
	v := l.buf[start:]
	if cp.conv == convText && len(v) > 0 {
		st.MaxBytes = len(v)
		if cp.key || cp.national || (stats != nil && len(v) > stats[c].MaxChars) {
			st.MaxChars = textChars(v, cp.national)
		}
	}
	if cp.key {
		if err := keyFits(cp, v, st, l.ceiling); err != nil {
			l.buf = l.buf[:start]
			l.rs.spans[c] = span{}
			return end, l.hold(c, inputError(l.stream, cp.path, "%v", err))
		}
	}
	if cp.partition && oravalue.BeyondPartitions(l.table.Partition.Interval, string(v)) {
		l.buf = l.buf[:start]
		l.rs.spans[c] = span{}
		return end, l.hold(c, inputError(l.stream, cp.path, "partition key %s is past Oracle's last interval partition "+
			"(at most %d partitions: daily partitions from 2000-01-01 end before 4870-11-24; ORA-14300)", v, oravalue.MaxPartitions))
	}
	l.rs.spans[c] = span{int32(start), int32(len(l.buf)), true}
	l.noteStats(c, stats)
	return end, nil
}

// noteStats lists column c for the merge of its value's stats into
// stats when the row is done, if they are not within stats already: most
// values widen nothing, so most rows merge nothing.
func (l *Layout) noteStats(c int, stats []table.Stats) {
	if stats == nil {
		return
	}
	d, v := &stats[c], &l.rs.vstats[c]
	if v.MaxBytes > d.MaxBytes || v.MaxChars > d.MaxChars || v.MaxIntDigits > d.MaxIntDigits || v.MaxScale > d.MaxScale || v.MaxFrac > d.MaxFrac {
		l.rs.grown = append(l.rs.grown, c)
	}
}

// hold keeps the conversion error of column c until the record ends: a
// duplicate key later in the record replaces the value, as it does for the
// validator (the last value of a key counts).
func (l *Layout) hold(c int, err error) error {
	if l.rs.pending[c] == nil {
		l.rs.npending++
	}
	l.rs.pending[c] = err
	l.rs.seq++
	l.rs.pendingAt[c] = l.rs.seq
	return nil
}

// settle forgets the held error of column c, if any.
func (l *Layout) settle(c int) {
	if l.rs.npending > 0 && l.rs.pending[c] != nil {
		l.rs.pending[c] = nil
		l.rs.npending--
	}
}

// held returns the first held error in record order, or nil.
func (l *Layout) held() error {
	if l.rs.npending == 0 {
		return nil
	}
	first := -1
	for c, err := range l.rs.pending {
		if err != nil && (first < 0 || l.rs.pendingAt[c] < l.rs.pendingAt[first]) {
			first = c
		}
	}
	return l.rs.pending[first]
}

func merge(dst, s *table.Stats) {
	dst.MaxBytes = max(dst.MaxBytes, s.MaxBytes)
	dst.MaxChars = max(dst.MaxChars, s.MaxChars)
	dst.MaxIntDigits = max(dst.MaxIntDigits, s.MaxIntDigits)
	dst.MaxScale = max(dst.MaxScale, s.MaxScale)
	dst.MaxFrac = max(dst.MaxFrac, s.MaxFrac)
}

// textChars counts characters as Oracle does: runes, or UTF-16 code units
// for national columns.
func textChars(v []byte, national bool) int {
	if !national {
		return utf8.RuneCount(v)
	}
	n := 0
	for _, r := range string(v) {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// keyFits checks a key value (v, stored form) against its column: keys
// never widen (a wider key column could outgrow the index key limit, and
// the engine would fail the whole batch), so a value that would widen a
// property column is invalid input for a key.
func keyFits(cp *colPlan, v []byte, st *table.Stats, ceiling int) error {
	t := cp.typ
	if table.Fit(t, *st, ceiling) == t {
		return nil
	}
	if t.Kind == table.KindVarchar {
		return fmt.Errorf("key value of %d bytes (%d characters) does not fit its column %s", st.MaxBytes, st.MaxChars, t)
	}
	return fmt.Errorf("key value %s does not fit its column %s; keys never widen", v, t)
}

// keepsText checks that a text property's key value raw, stored as v in
// a key column of another kind (colPlan.exact), is stored as its exact
// text: a string that converts but not to itself ("0123" in a NUMBER key)
// does not fit the column.
func (l *Layout) keepsText(cp *colPlan, raw, v []byte) error {
	if raw[0] != '"' {
		return nil // a number, boolean or object: its conversion decided
	}
	s, err := l.unquote(raw)
	if err != nil {
		return err
	}
	if cp.keptConv == convBinary {
		text, err := table.BinaryText(string(v))
		if err != nil {
			return err
		}
		v = []byte(text)
	}
	if bytes.Equal(s, v) {
		return nil
	}
	return fmt.Errorf("key value %s does not fit its column %s (it would be stored as %s); keys never widen", excerpt(raw), cp.typ, excerpt(v))
}

// excerpt is a value's text for an error message, cut at 64 bytes (at a
// character boundary) so that a long value does not flood the log.
func excerpt(v []byte) string {
	const max = 64
	if len(v) <= max {
		return string(v)
	}
	n := max
	for n > 0 && !utf8.RuneStart(v[n]) {
		n--
	}
	return fmt.Sprintf("%s… (%d bytes)", v[:n], len(v))
}

// unquote returns the text of the JSON string raw, unescaped into scratch
// when needed.
func (l *Layout) unquote(raw []byte) ([]byte, error) {
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return body, nil
	}
	var err error
	l.scratch, err = appendUnescaped(l.scratch[:0], body)
	return l.scratch, err
}

func (l *Layout) text(cp *colPlan, raw []byte, st *table.Stats) error {
	switch raw[0] {
	case '"':
		s, err := l.unquote(raw)
		if err != nil {
			return err
		}
		switch cp.format {
		case "date-time":
			l.buf, st.MaxFrac, err = value.AppendCanonicalDateTime(l.buf, s)
			return err
		case "date":
			if err := value.CheckDate(s); err != nil {
				return err
			}
		}
		l.buf = append(l.buf, s...)
	case '{', '[':
		var err error
		l.buf, err = l.appendJSON(cp, raw)
		return err
	case 't':
		l.buf = append(l.buf, "true"...)
	case 'f':
		l.buf = append(l.buf, "false"...)
	default:
		return l.number(raw, st)
	}
	return nil
}

// appendJSON appends the JSON value raw compacted, minus the paths
// ignored inside it. Into a native JSON column (cp.conv convJSON, not
// JSONAsClob) its numbers must fit Oracle NUMBER (SPEC §5.3), checked as
// they are copied; into text, a CLOB JSON column or a vector, they keep
// their text.
func (l *Layout) appendJSON(cp *colPlan, raw []byte) ([]byte, error) {
	bound := cp.conv == convJSON && !cp.typ.JSONAsClob
	var buf []byte
	var err error
	// Repeated member names: the compaction feeds l.names, and only a
	// value it leaves unsure (or a filtered one, whose output differs
	// from raw) pays for the exact scan.
	nc := &l.names
	nc.Reset()
	switch {
	case cp.filter == nil && !bound:
		buf = appendCompact(l.buf, raw, nc) // CLOB JSON and text
	case cp.filter == nil:
		buf, err = appendCompactBounded(l.buf, raw, 0, nc)
	default:
		buf, _, err = appendFiltered(l.buf, raw, 0, cp.filter, &l.scratch, bound)
		nc = nil
	}
	if ne, ok := err.(*numberError); ok {
		ne.path = pathTo(raw, 0, ne.at) // for convError
	}
	if err == nil && (nc == nil || nc.Unsure()) {
		if p := oravalue.DuplicateName(buf[len(l.buf):]); p != nil {
			return buf, duplicateNameError(l.stream, cp.path, p)
		}
	}
	return buf, err
}

// duplicateNameError is the input error of a JSON value (at property, ""
// for a storage_mode json document) whose object at path repeats a member
// name: the validator reads the last member, Oracle's SQL/JSON the first
// and its JSON type keeps one, so no reading of it loads as sent.
func duplicateNameError(stream, property string, path []string) error {
	at := path[:len(path)-1]
	if property != "" {
		at = append([]string{property}, at...)
	}
	return inputError(stream, strings.Join(at, "."), "JSON object repeats the member name %q: a JSON value must name each member once "+
		"(the validator reads the last one, Oracle's SQL/JSON the first, its JSON type keeps one)", path[len(path)-1])
}

// convError is the input error of a value that did not convert into
// column cp: a number of a native JSON value beyond Oracle NUMBER names
// its own path below the property (`property "o.x.1.y": …`), as the
// validator does (appendJSON found the path).
func (l *Layout) convError(cp *colPlan, err error) error {
	var ne *numberError
	if errors.As(err, &ne) && len(ne.path) > 0 {
		return inputError(l.stream, cp.path+"."+strings.Join(ne.path, "."), "%v", err)
	}
	if ie, ok := err.(*inputerr.Error); ok {
		return ie // duplicateNameError
	}
	return inputError(l.stream, cp.path, "%v", err)
}

// keptKey converts a key value raw into a key column kept across a change
// of its property's kind (colPlan.keptConv), off the common path: a value
// that does not convert does not fit, nor does a text property's value
// that would not keep its exact text (keepsText).
func (l *Layout) keptKey(cp *colPlan, raw []byte, st *table.Stats) error {
	kc := *cp
	kc.conv = cp.keptConv
	start := len(l.buf)
	var err error
	switch kc.conv {
	case convText:
		err = l.text(&kc, raw, st)
	case convNumber:
		err = l.number(raw, st)
	case convBoolNumber, convBoolean:
		err = l.boolean(&kc, raw)
	case convDate, convTimestamp:
		err = l.time(&kc, raw, st)
	case convBinary:
		err = l.binary(&kc, raw, st)
	default:
		err = fmt.Errorf("no key conversion into %s", cp.typ)
	}
	if err != nil {
		return fmt.Errorf("key value %s does not fit its column %s (%v); keys never widen", excerpt(raw), cp.typ, err)
	}
	v := l.buf[start:]
	if kc.conv == convText {
		st.MaxBytes, st.MaxChars = len(v), textChars(v, cp.national) // for keyFits
	}
	if cp.exact {
		return l.keepsText(cp, raw, v)
	}
	return nil
}

func (l *Layout) number(raw []byte, st *table.Stats) error {
	switch raw[0] {
	case 't':
		l.buf = append(l.buf, '1')
		st.MaxIntDigits = 1
		return nil
	case 'f':
		l.buf = append(l.buf, '0')
		return nil
	case '"': // x-singer.decimal strings
		s, err := l.unquote(raw)
		if err != nil {
			return err
		}
		raw = s
	case '{', '[':
		return fmt.Errorf("expected a number, got a JSON %s", kindName(raw[0]))
	}
	var info value.NumberInfo
	var err error
	l.buf, info, err = value.AppendCanonicalNumber(l.buf, raw)
	st.MaxIntDigits, st.MaxScale = info.IntDigits, info.Scale
	return err
}

func (l *Layout) boolean(cp *colPlan, raw []byte) error {
	var b bool
	switch raw[0] {
	case 't':
		b = true
	case 'f':
	default:
		return fmt.Errorf("expected a boolean, got a JSON %s", kindName(raw[0]))
	}
	switch {
	case cp.conv == convBoolean:
		l.buf = fmt.Append(l.buf, b)
	case b:
		l.buf = append(l.buf, '1')
	default:
		l.buf = append(l.buf, '0')
	}
	return nil
}

func (l *Layout) time(cp *colPlan, raw []byte, st *table.Stats) error {
	if raw[0] != '"' {
		return fmt.Errorf("expected a %s string, got a JSON %s", cmpOr(cp.format, "date"), kindName(raw[0]))
	}
	s, err := l.unquote(raw)
	if err != nil {
		return err
	}
	if cp.conv == convTimestamp && cp.format != "date" {
		l.buf, st.MaxFrac, err = value.AppendCanonicalDateTime(l.buf, s)
		return err
	}
	if err := value.CheckDate(s); err != nil {
		return err
	}
	l.buf = append(l.buf, s...)
	if cp.conv == convTimestamp {
		l.buf = append(l.buf, "T00:00:00Z"...)
	}
	return nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func kindName(c byte) string {
	switch c {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}
