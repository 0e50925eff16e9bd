package batchfile

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"
	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/singer"
)

// Parquet BATCH files.
//
// A Parquet file is read one row group at a time through parquet-go's row
// reader, parquetRowBuffer rows at a time, and each row is assembled into
// the JSON object text a jsonl file would hold for it, so the rest of the
// pipeline cannot tell the two formats apart. The file is never read whole:
// memory is the footer, one page per column and the row buffer.
//
// The schema is walked once per file into a tree of pqNodes that says how
// each column becomes JSON; rows are then assembled from the flat column
// values with their repetition and definition levels (the Dremel encoding),
// without building any Go value per field.

const (
	parquetRowBuffer  = 256      // rows read from the library at a time
	parquetReadBuffer = 32 << 10 // read buffer per column chunk
)

// shape is how a schema node is written as JSON.
type shape uint8

const (
	shapeLeaf   shape = iota // a primitive column
	shapeObject              // a group: an object of its fields
	shapeList                // a LIST group: an array
	shapeMap                 // a MAP group: an object of string keys
)

// conv is how a leaf column's values are written as JSON.
type conv uint8

const (
	convNull      conv = iota // NULL logical type: always null
	convBool                  // BOOLEAN
	convInt32                 // INT32, signed INT(8|16|32)
	convUint32                // unsigned INT(8|16|32)
	convInt64                 // INT64, signed INT(64)
	convUint64                // unsigned INT(64)
	convDecimal32             // DECIMAL on INT32
	convDecimal64             // DECIMAL on INT64
	convDecimalBE             // DECIMAL on (FIXED_LEN_)BYTE_ARRAY: big-endian two's complement
	convFloat                 // FLOAT
	convDouble                // DOUBLE
	convFloat16               // FLOAT16 on FIXED_LEN_BYTE_ARRAY(2)
	convString                // STRING, UTF8, ENUM
	convJSON                  // JSON: the embedded value
	convBase64                // any other byte array, BSON included
	convTimestamp             // TIMESTAMP on INT64
	convInt96                 // legacy INT96 timestamp
	convDate                  // DATE on INT32
	convTime                  // TIME on INT32 or INT64
	convUUID                  // UUID on FIXED_LEN_BYTE_ARRAY(16)
)

// pqNode is one element of a file's schema, with what assembly needs.
type pqNode struct {
	path     string // dotted column path, for errors
	key      []byte // the JSON member prefix `"name":`
	shape    shape
	optional bool
	repeated bool
	def, rep int // maximum definition and repetition levels at this node
	first    int // leaf columns under the node are [first, end)
	end      int
	depth    int // JSON nesting level of the object holding the node

	children []*pqNode // object fields
	repNode  *pqNode   // LIST, MAP: the repeated child
	elem     *pqNode   // LIST: the element (repNode itself in the 2-level form); MAP: the key
	value    *pqNode   // MAP: the value, nil for a key-only map

	// leaves
	conv  conv
	phys  format.Type
	scale int   // DECIMAL scale
	unit  int64 // TIMESTAMP, TIME: units per second
}

// pqSchema builds the node tree from a file's flattened schema.
type pqSchema struct {
	elems []format.SchemaElement
	next  int // next element
	leaf  int // next leaf column index
}

// parquetSchema returns the root of the file's schema tree.
func parquetSchema(elems []format.SchemaElement) (*pqNode, error) {
	if len(elems) == 0 {
		return nil, errors.New("parquet file has no schema")
	}
	s := &pqSchema{elems: elems}
	root, err := s.node("", 0, 0, 0)
	if err != nil {
		return nil, err
	}
	if root.shape != shapeObject {
		return nil, errors.New("parquet schema root is not a group")
	}
	return root, nil
}

// node builds the element at s.next and its descendants. def and rep are
// the parent's levels; depth is the JSON nesting of the parent object.
func (s *pqSchema) node(parent string, def, rep, depth int) (*pqNode, error) {
	if s.next >= len(s.elems) {
		return nil, errors.New("parquet schema is truncated")
	}
	e := &s.elems[s.next]
	isRoot := s.next == 0
	s.next++
	n := &pqNode{def: def, rep: rep, depth: depth, first: s.leaf}
	switch {
	case isRoot: // the root is the record; its name is not part of paths
	case parent == "":
		n.path = e.Name
	default:
		n.path = parent + "." + e.Name
	}
	if !utf8.ValidString(e.Name) {
		return nil, fmt.Errorf("parquet column %q: name is not valid UTF-8", n.path)
	}
	n.key = append(appendJSONString(nil, []byte(e.Name)), ':')
	if !isRoot && e.RepetitionType.Valid {
		switch e.RepetitionType.V {
		case format.Optional:
			n.optional = true
			n.def++
		case format.Repeated:
			n.repeated = true
			n.def++
			n.rep++
		}
	}
	var err error
	if e.Type.Valid {
		err = s.leafNode(n, e)
	} else {
		err = s.groupNode(n, e, isRoot)
	}
	n.end = s.leaf
	return n, err
}

func (s *pqSchema) groupNode(n *pqNode, e *format.SchemaElement, isRoot bool) error {
	count := 0
	if e.NumChildren.Valid {
		count = int(e.NumChildren.V)
	}
	if count < 0 || count > len(s.elems)-s.next {
		return fmt.Errorf("parquet column %q: invalid number of children %d", n.path, count)
	}
	n.children = make([]*pqNode, count)
	for i := range n.children {
		c, err := s.node(n.path, n.def, n.rep, n.depth+1)
		if err != nil {
			return err
		}
		n.children[i] = c
	}
	if s.leaf == n.first && !isRoot {
		return fmt.Errorf("parquet column %q: group has no columns", n.path)
	}
	n.shape = shapeObject
	switch logical := e.LogicalType.Value.(type) {
	case *format.ListType:
		return n.asList()
	case *format.MapType:
		return n.asMap()
	case *format.VariantType:
		return fmt.Errorf("parquet column %q: VARIANT columns are not supported", n.path)
	case nil:
		if !e.ConvertedType.Valid {
			return nil
		}
		switch e.ConvertedType.V {
		case deprecated.List:
			return n.asList()
		case deprecated.Map, deprecated.MapKeyValue:
			return n.asMap()
		}
	default:
		return fmt.Errorf("parquet column %q: logical type %s is not valid on a group", n.path, logical)
	}
	return nil
}

// asList makes n, a LIST-annotated group, an array, applying the backward
// compatibility rules of the Parquet LogicalTypes specification to find the
// element.
func (n *pqNode) asList() error {
	if len(n.children) != 1 || !n.children[0].repeated {
		return fmt.Errorf("parquet column %q: LIST group must have exactly one repeated field", n.path)
	}
	r := n.children[0]
	n.shape, n.repNode, n.elem = shapeList, r, r
	name := r.path[strings.LastIndexByte(r.path, '.')+1:]
	if r.shape == shapeObject && len(r.children) == 1 && name != "array" && name != n.leafName()+"_tuple" {
		n.elem = r.children[0] // the standard 3-level form
	}
	return nil
}

func (n *pqNode) leafName() string { return n.path[strings.LastIndexByte(n.path, '.')+1:] }

// asMap makes n, a MAP-annotated group, an object keyed by its keys.
func (n *pqNode) asMap() error {
	if len(n.children) != 1 || !n.children[0].repeated || n.children[0].shape != shapeObject {
		return fmt.Errorf("parquet column %q: MAP group must have exactly one repeated group", n.path)
	}
	kv := n.children[0]
	if len(kv.children) < 1 || len(kv.children) > 2 || kv.children[0].shape != shapeLeaf || kv.children[0].repeated {
		return fmt.Errorf("parquet column %q: MAP must have a primitive key and at most one value", n.path)
	}
	n.shape, n.repNode, n.elem = shapeMap, kv, kv.children[0]
	if len(kv.children) == 2 {
		n.value = kv.children[1]
	}
	if n.elem.conv == convJSON {
		n.elem.conv = convString // a key is a string whatever it holds
	}
	return nil
}

func (s *pqSchema) leafNode(n *pqNode, e *format.SchemaElement) error {
	n.shape = shapeLeaf
	n.phys = e.Type.V
	s.leaf++
	c, err := leafConv(n, e)
	if err != nil {
		return fmt.Errorf("parquet column %q: %w", n.path, err)
	}
	n.conv = c
	return nil
}

// leafConv chooses the conversion of a leaf from its logical type, or its
// converted type in files that only have that, or its physical type.
func leafConv(n *pqNode, e *format.SchemaElement) (conv, error) {
	p := e.Type.V
	want := func(c conv, ok bool) (conv, error) {
		if !ok {
			return 0, fmt.Errorf("%s is not valid on %s", &e.LogicalType, p)
		}
		return c, nil
	}
	switch l := e.LogicalType.Value.(type) {
	case nil:
		return convertedConv(n, e)
	case *format.StringType, *format.EnumType:
		return want(convString, p == format.ByteArray || p == format.FixedLenByteArray)
	case *format.JsonType:
		return want(convJSON, p == format.ByteArray || p == format.FixedLenByteArray)
	case *format.BsonType:
		return want(convBase64, p == format.ByteArray || p == format.FixedLenByteArray)
	case *format.UUIDType:
		return want(convUUID, p == format.FixedLenByteArray && e.TypeLength.V == 16)
	case *format.Float16Type:
		return want(convFloat16, p == format.FixedLenByteArray && e.TypeLength.V == 2)
	case *format.DateType:
		return want(convDate, p == format.Int32)
	case *format.NullType:
		return convNull, nil
	case *format.DecimalType:
		return decimalConv(n, p, int(l.Scale))
	case *format.IntType:
		return intConv(p, l.BitWidth, l.IsSigned)
	case *format.TimestampType:
		n.unit = unitsPerSecond(l.Unit.Value)
		return want(convTimestamp, p == format.Int64 && n.unit > 0)
	case *format.TimeType:
		n.unit = unitsPerSecond(l.Unit.Value)
		ok := p == format.Int32 && n.unit == 1e3 || p == format.Int64 && n.unit > 1e3
		return want(convTime, ok)
	default: // geometry, geography and types of later specifications
		return physicalConv(p), nil
	}
}

// convertedConv handles files written before logical types existed.
func convertedConv(n *pqNode, e *format.SchemaElement) (conv, error) {
	p := e.Type.V
	if !e.ConvertedType.Valid {
		return physicalConv(p), nil
	}
	ct := e.ConvertedType.V
	want := func(c conv, ok bool, name string) (conv, error) {
		if !ok {
			return 0, fmt.Errorf("%s is not valid on %s", name, p)
		}
		return c, nil
	}
	isBytes := p == format.ByteArray || p == format.FixedLenByteArray
	switch ct {
	case deprecated.UTF8, deprecated.Enum:
		return want(convString, isBytes, "UTF8 or ENUM")
	case deprecated.Json:
		return want(convJSON, isBytes, "JSON")
	case deprecated.Decimal:
		return decimalConv(n, p, int(e.Scale.V))
	case deprecated.Date:
		return want(convDate, p == format.Int32, "DATE")
	case deprecated.TimeMillis:
		n.unit = 1e3
		return want(convTime, p == format.Int32, "TIME_MILLIS")
	case deprecated.TimeMicros:
		n.unit = 1e6
		return want(convTime, p == format.Int64, "TIME_MICROS")
	case deprecated.TimestampMillis:
		n.unit = 1e3
		return want(convTimestamp, p == format.Int64, "TIMESTAMP_MILLIS")
	case deprecated.TimestampMicros:
		n.unit = 1e6
		return want(convTimestamp, p == format.Int64, "TIMESTAMP_MICROS")
	case deprecated.Uint8, deprecated.Uint16, deprecated.Uint32:
		return intConv(p, 32, false)
	case deprecated.Uint64:
		return intConv(p, 64, false)
	case deprecated.Int8, deprecated.Int16, deprecated.Int32:
		return intConv(p, 32, true)
	case deprecated.Int64:
		return intConv(p, 64, true)
	}
	return physicalConv(p), nil // BSON, INTERVAL, MAP/LIST on a leaf
}

func physicalConv(p format.Type) conv {
	switch p {
	case format.Boolean:
		return convBool
	case format.Int32:
		return convInt32
	case format.Int64:
		return convInt64
	case format.Int96:
		return convInt96
	case format.Float:
		return convFloat
	case format.Double:
		return convDouble
	}
	return convBase64
}

func decimalConv(n *pqNode, p format.Type, scale int) (conv, error) {
	if scale < 0 {
		return 0, fmt.Errorf("DECIMAL scale %d is negative", scale)
	}
	n.scale = scale
	switch p {
	case format.Int32:
		return convDecimal32, nil
	case format.Int64:
		return convDecimal64, nil
	case format.ByteArray, format.FixedLenByteArray:
		return convDecimalBE, nil
	}
	return 0, fmt.Errorf("DECIMAL is not valid on %s", p)
}

func intConv(p format.Type, bits int8, signed bool) (conv, error) {
	switch {
	case p == format.Int32 && bits <= 32:
		if signed {
			return convInt32, nil
		}
		return convUint32, nil
	case p == format.Int64:
		if signed {
			return convInt64, nil
		}
		return convUint64, nil
	}
	return 0, fmt.Errorf("INT(%d) is not valid on %s", bits, p)
}

func unitsPerSecond(u format.TimeUnitValue) int64 {
	switch u.(type) {
	case *format.MilliSeconds:
		return 1e3
	case *format.MicroSeconds:
		return 1e6
	case *format.NanoSeconds:
		return 1e9
	}
	return 0
}

// A valueError is a value that has no JSON form (NaN, invalid UTF-8, a
// date-time outside years 0000-9999): invalid input, about one column.
type valueError struct {
	column string
	err    error
}

func (e *valueError) Error() string { return fmt.Sprintf("column %q: %v", e.column, e.err) }
func (e *valueError) Unwrap() error { return e.err }

// errMalformed reports levels that do not fit the schema: a corrupt file.
var errMalformed = errors.New("corrupt parquet data: column values do not match the schema")

// assembler turns the flat values of one row into JSON object text.
type assembler struct {
	cols [][]parquet.Value // values of the current row, per leaf column
	pos  []int             // next value per leaf column
	buf  []byte            // the row's JSON
	num  []byte            // scratch for number digits
	bi   big.Int           // scratch for wide decimals
	pow  big.Int
}

// row assembles the JSON object of row into a.buf.
func (a *assembler) row(root *pqNode, row parquet.Row) ([]byte, error) {
	j := 0
	for c := range a.cols {
		k := j
		for k < len(row) && row[k].Column() == c {
			k++
		}
		a.cols[c], a.pos[c] = row[j:k], 0
		j = k
	}
	if j != len(row) {
		return nil, errMalformed
	}
	a.buf = a.buf[:0]
	if err := a.object(root); err != nil {
		return nil, err
	}
	for c, p := range a.pos {
		if p != len(a.cols[c]) {
			return nil, errMalformed
		}
	}
	return a.buf, nil
}

func (a *assembler) peek(n *pqNode) (parquet.Value, error) {
	c := n.first
	if c >= n.end || a.pos[c] >= len(a.cols[c]) {
		return parquet.Value{}, errMalformed
	}
	return a.cols[c][a.pos[c]], nil
}

// skip passes the one value each leaf under n has where n is null or empty.
func (a *assembler) skip(n *pqNode) error {
	for c := n.first; c < n.end; c++ {
		if a.pos[c] >= len(a.cols[c]) {
			return errMalformed
		}
		a.pos[c]++
	}
	return nil
}

// more reports whether the repeated node r has another element in this
// instance of its parent.
func (a *assembler) more(r *pqNode) bool {
	c := r.first
	p := a.pos[c]
	return p < len(a.cols[c]) && a.cols[c][p].RepetitionLevel() == r.rep
}

// field writes the value of n as a member of its parent object or as a
// list element.
func (a *assembler) field(n *pqNode) error {
	if n.repeated {
		return a.array(n, n)
	}
	if n.optional {
		v, err := a.peek(n)
		if err != nil {
			return err
		}
		if v.DefinitionLevel() < n.def {
			a.buf = append(a.buf, "null"...)
			return a.skip(n)
		}
	}
	return a.content(n)
}

// content writes n, known to be present.
func (a *assembler) content(n *pqNode) error {
	switch n.shape {
	case shapeObject:
		return a.object(n)
	case shapeList:
		return a.array(n.repNode, n.elem)
	case shapeMap:
		return a.mapObject(n)
	}
	c := n.first
	if a.pos[c] >= len(a.cols[c]) {
		return errMalformed
	}
	v := a.cols[c][a.pos[c]]
	a.pos[c]++
	var err error
	if v.IsNull() {
		a.buf = append(a.buf, "null"...)
	} else if a.buf, err = a.leaf(a.buf, n, v); err != nil {
		return &valueError{n.path, err}
	}
	return nil
}

func (a *assembler) object(n *pqNode) error {
	a.buf = append(a.buf, '{')
	for i, c := range n.children {
		if i > 0 {
			a.buf = append(a.buf, ',')
		}
		a.buf = append(a.buf, c.key...)
		if err := a.field(c); err != nil {
			return err
		}
	}
	a.buf = append(a.buf, '}')
	return nil
}

// array writes the elements of the repeated node r, each as elem (r itself
// when it is the element).
func (a *assembler) array(r, elem *pqNode) error {
	v, err := a.peek(r)
	if err != nil {
		return err
	}
	if v.DefinitionLevel() < r.def {
		a.buf = append(a.buf, "[]"...)
		return a.skip(r)
	}
	a.buf = append(a.buf, '[')
	for {
		if elem == r {
			err = a.content(r)
		} else {
			err = a.field(elem)
		}
		if err != nil {
			return err
		}
		if !a.more(r) {
			break
		}
		a.buf = append(a.buf, ',')
	}
	a.buf = append(a.buf, ']')
	return nil
}

func (a *assembler) mapObject(n *pqNode) error {
	kv, key := n.repNode, n.elem
	v, err := a.peek(kv)
	if err != nil {
		return err
	}
	if v.DefinitionLevel() < kv.def {
		a.buf = append(a.buf, "{}"...)
		return a.skip(kv)
	}
	a.buf = append(a.buf, '{')
	for {
		if err := a.mapKey(key); err != nil {
			return err
		}
		a.buf = append(a.buf, ':')
		if n.value == nil {
			a.buf = append(a.buf, "null"...)
		} else if err := a.field(n.value); err != nil {
			return err
		}
		if !a.more(kv) {
			break
		}
		a.buf = append(a.buf, ',')
	}
	a.buf = append(a.buf, '}')
	return nil
}

// mapKey writes a map key as a JSON string: keys that are not strings
// (numbers, booleans) are quoted.
func (a *assembler) mapKey(key *pqNode) error {
	v, err := a.peek(key)
	if err != nil {
		return err
	}
	if v.DefinitionLevel() < key.def || v.IsNull() {
		return &valueError{key.path, errors.New("map key is null")}
	}
	mark := len(a.buf)
	if err := a.content(key); err != nil {
		return err
	}
	if a.buf[mark] != '"' {
		a.buf = append(a.buf, '"')
		copy(a.buf[mark+1:], a.buf[mark:])
		a.buf[mark] = '"'
		a.buf = append(a.buf, '"')
	}
	return nil
}

// leaf appends the JSON text of the non-null value v of leaf n.
func (a *assembler) leaf(dst []byte, n *pqNode, v parquet.Value) ([]byte, error) {
	switch n.conv {
	case convBool:
		return strconv.AppendBool(dst, v.Boolean()), nil
	case convInt32:
		return strconv.AppendInt(dst, int64(v.Int32()), 10), nil
	case convUint32:
		return strconv.AppendUint(dst, uint64(uint32(v.Int32())), 10), nil
	case convInt64:
		return strconv.AppendInt(dst, v.Int64(), 10), nil
	case convUint64:
		return strconv.AppendUint(dst, uint64(v.Int64()), 10), nil
	case convDecimal32:
		a.num = strconv.AppendInt(a.num[:0], int64(v.Int32()), 10)
		return appendDecimal(dst, a.num, n.scale), nil
	case convDecimal64:
		a.num = strconv.AppendInt(a.num[:0], v.Int64(), 10)
		return appendDecimal(dst, a.num, n.scale), nil
	case convDecimalBE:
		return a.decimalBE(dst, v.ByteArray(), n.scale)
	case convFloat:
		return appendFloat(dst, float64(v.Float()), 32)
	case convDouble:
		return appendFloat(dst, v.Double(), 64)
	case convFloat16:
		b := v.ByteArray()
		if len(b) != 2 {
			return dst, fmt.Errorf("FLOAT16 value has %d bytes", len(b))
		}
		return appendHalf(dst, binary.LittleEndian.Uint16(b))
	case convString:
		b := v.ByteArray()
		if !utf8.Valid(b) {
			return dst, fmt.Errorf("invalid UTF-8 at byte %d", singer.InvalidUTF8(b)+1)
		}
		return appendJSONString(dst, b), nil
	case convJSON:
		return appendEmbeddedJSON(dst, v.ByteArray(), n.depth)
	case convBase64:
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, v.ByteArray())
		return append(dst, '"'), nil
	case convTimestamp:
		sec, frac := splitUnits(v.Int64(), n.unit)
		return appendDateTime(dst, sec, frac*(1e9/n.unit))
	case convInt96:
		return appendInt96(dst, v.Int96())
	case convDate:
		return appendDate(dst, int64(v.Int32()))
	case convTime:
		t := v.Int64()
		if n.phys == format.Int32 {
			t = int64(v.Int32())
		}
		return appendTime(dst, t, n.unit)
	case convUUID:
		return appendUUID(dst, v.ByteArray())
	}
	return append(dst, "null"...), nil // convNull
}

// decimalBE appends the decimal whose unscaled value is the big-endian
// two's complement integer b.
func (a *assembler) decimalBE(dst, b []byte, scale int) ([]byte, error) {
	if len(b) == 0 {
		return dst, errors.New("DECIMAL value has no bytes")
	}
	if len(b) <= 8 {
		u := uint64(0)
		for _, c := range b {
			u = u<<8 | uint64(c)
		}
		shift := 64 - 8*uint(len(b))
		a.num = strconv.AppendInt(a.num[:0], int64(u<<shift)>>shift, 10) // sign-extended
		return appendDecimal(dst, a.num, scale), nil
	}
	a.bi.SetBytes(b)
	if b[0]&0x80 != 0 { // negative: subtract 2^(8*len)
		a.pow.Lsh(a.pow.SetInt64(1), 8*uint(len(b)))
		a.bi.Sub(&a.bi, &a.pow)
	}
	a.num = a.bi.Append(a.num[:0], 10)
	return appendDecimal(dst, a.num, scale), nil
}

// appendDecimal appends the integer text digits (maybe with a sign) with
// its last scale digits as the fraction, all kept: "150", 2 → "1.50".
func appendDecimal(dst, digits []byte, scale int) []byte {
	if len(digits) > 0 && digits[0] == '-' {
		dst = append(dst, '-')
		digits = digits[1:]
	}
	if scale == 0 {
		return append(dst, digits...)
	}
	if len(digits) > scale {
		dst = append(dst, digits[:len(digits)-scale]...)
		dst = append(dst, '.')
		return append(dst, digits[len(digits)-scale:]...)
	}
	dst = append(dst, '0', '.')
	for i := len(digits); i < scale; i++ {
		dst = append(dst, '0')
	}
	return append(dst, digits...)
}

// appendFloat appends the shortest text that reads back as f.
func appendFloat(dst []byte, f float64, bits int) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, fmt.Errorf("%v has no JSON form", f)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bits), nil
}

// appendHalf appends FLOAT16 h in the shortest form that reads back as
// that FLOAT16 (as FLOAT and DOUBLE print theirs): 0x3555, exactly
// 0.333251953125, is 0.3333, not float32's 0.33325195.
func appendHalf(dst []byte, h uint16) ([]byte, error) {
	f := float64(halfToFloat(h))
	if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return appendFloat(dst, f, 32)
	}
	var buf [32]byte
	for digits := 1; digits < 17; digits++ {
		t := strconv.AppendFloat(buf[:0], f, 'e', digits-1, 64)
		v, err := strconv.ParseFloat(string(t), 64)
		if err == nil && nearestHalf(v) == h {
			return appendFloat(dst, v, 64)
		}
	}
	return appendFloat(dst, f, 64) // not reached: 5 digits tell every FLOAT16 apart
}

// nearestHalf rounds x to the nearest FLOAT16 (ties to even), for finite x.
func nearestHalf(x float64) uint16 {
	var sign uint16
	if math.Signbit(x) {
		sign, x = 0x8000, -x
	}
	if x < 1.0/(1<<14) { // subnormal: multiples of 2^-24
		return sign | uint16(math.RoundToEven(x*(1<<24))) // 0x400 is the smallest normal
	}
	fr, ex := math.Frexp(x) // x = fr * 2^ex, fr in [0.5, 1)
	e := ex - 1
	m := math.RoundToEven((fr*2 - 1) * 1024)
	if m == 1024 {
		m, e = 0, e+1
	}
	if e > 15 {
		return sign | 0x7c00
	}
	return sign | uint16(e+15)<<10 | uint16(m)
}

// halfToFloat converts an IEEE 754 half-precision number.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // Inf, NaN
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp != 0:
		return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
	}
	f := float32(frac) / (1 << 24) // subnormal (or zero)
	if sign != 0 {
		f = -f
	}
	return f
}

// appendJSONString appends s as a JSON string. s must be valid UTF-8.
func appendJSONString(dst, s []byte) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' { // printable ASCII but the quote and the backslash, or UTF-8
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendEmbeddedJSON checks that b is one JSON value and appends it
// without insignificant whitespace.
func appendEmbeddedJSON(dst, b []byte, depth int) ([]byte, error) {
	dst, err := singer.AppendCompact(dst, b, depth)
	if err != nil {
		return dst, fmt.Errorf("JSON value: %w", err)
	}
	return dst, nil
}

// splitUnits splits t, in units of 1/perSec second, into whole seconds
// and the non-negative rest.
func splitUnits(t, perSec int64) (sec, rest int64) {
	sec, rest = t/perSec, t%perSec
	if rest < 0 {
		sec--
		rest += perSec
	}
	return sec, rest
}

// Seconds of 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z from the Unix
// epoch: RFC 3339 has four-digit years.
const (
	minRFC3339Sec = -62167219200
	maxRFC3339Sec = 253402300799
)

// appendDateTime appends the UTC date-time sec seconds and nsec nanoseconds
// after the Unix epoch as an RFC 3339 JSON string, the fraction exact
// without trailing zeros.
func appendDateTime(dst []byte, sec, nsec int64) ([]byte, error) {
	if sec < minRFC3339Sec || sec > maxRFC3339Sec {
		return dst, errors.New("date-time is outside years 0000-9999")
	}
	days, tod := splitUnits(sec, 86400)
	dst = appendCivil(append(dst, '"'), days)
	dst = append(dst, 'T')
	dst = append2(dst, tod/3600)
	dst = append(dst, ':')
	dst = append2(dst, tod/60%60)
	dst = append(dst, ':')
	dst = append2(dst, tod%60)
	dst = appendFraction(dst, nsec)
	return append(dst, 'Z', '"'), nil
}

// appendCivil appends YYYY-MM-DD for a day number from the Unix epoch
// within years 0000-9999 (the proleptic Gregorian calendar, by Howard
// Hinnant's days-to-civil algorithm; faster than package time's
// formatting on this per-value path).
func appendCivil(dst []byte, days int64) []byte {
	z := days + 719468 // days from 0000-03-01, so z >= 0 from 0000-03-01 on
	era := z / 146097
	if z < 0 {
		era = (z - 146096) / 146097
	}
	doe := z - era*146097                                  // [0, 146096]
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // [0, 399]
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100) // [0, 365]
	mp := (5*doy + 2) / 153                  // [0, 11], March first
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
		y++
	}
	dst = append2(dst, y/100)
	dst = append2(dst, y%100)
	dst = append(dst, '-')
	dst = append2(dst, m)
	dst = append(dst, '-')
	return append2(dst, d)
}

// appendFraction appends ".fffffffff" for nsec nanoseconds, without
// trailing zeros, or nothing for 0.
func appendFraction(dst []byte, nsec int64) []byte {
	if nsec == 0 {
		return dst
	}
	var d [10]byte
	d[0] = '.'
	for i := 9; i > 0; i-- {
		d[i] = byte('0' + nsec%10)
		nsec /= 10
	}
	n := 10
	for d[n-1] == '0' {
		n--
	}
	return append(dst, d[:n]...)
}

// julianUnixEpoch is the Julian day number of 1970-01-01.
const julianUnixEpoch = 2440588

// appendInt96 appends a legacy INT96 timestamp: nanoseconds of the day
// (little-endian, first 8 bytes) and a Julian day number.
func appendInt96(dst []byte, v deprecated.Int96) ([]byte, error) {
	nanos := uint64(v[1])<<32 | uint64(v[0])
	if nanos >= 86400e9 {
		return dst, fmt.Errorf("INT96 timestamp has %d nanoseconds in a day", nanos)
	}
	days := int64(v[2]) - julianUnixEpoch
	return appendDateTime(dst, days*86400+int64(nanos/1e9), int64(nanos%1e9))
}

func appendDate(dst []byte, days int64) ([]byte, error) {
	if sec := days * 86400; sec < minRFC3339Sec || sec > maxRFC3339Sec {
		return dst, errors.New("date is outside years 0000-9999")
	}
	dst = appendCivil(append(dst, '"'), days)
	return append(dst, '"'), nil
}

// appendTime appends the time of day t, in units of 1/perSec second.
func appendTime(dst []byte, t, perSec int64) ([]byte, error) {
	if t < 0 || t >= 86400*perSec {
		return dst, fmt.Errorf("time of day %d is out of range", t)
	}
	sec, rest := t/perSec, t%perSec
	dst = append(dst, '"')
	dst = append2(dst, sec/3600)
	dst = append(dst, ':')
	dst = append2(dst, sec/60%60)
	dst = append(dst, ':')
	dst = append2(dst, sec%60)
	dst = appendFraction(dst, rest*(1e9/perSec))
	return append(dst, '"'), nil
}

func append2(dst []byte, v int64) []byte {
	return append(dst, byte('0'+v/10), byte('0'+v%10))
}

func appendUUID(dst, b []byte) ([]byte, error) {
	if len(b) != 16 {
		return dst, fmt.Errorf("UUID value has %d bytes", len(b))
	}
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst = append(dst, '-')
		}
		dst = append(dst, hex[c>>4], hex[c&0xf])
	}
	return append(dst, '"'), nil
}

// parquetState reads the Parquet files of one Reader, one at a time.
type parquetState struct {
	f       *os.File // the file, for checkPages
	file    *parquet.File
	root    *pqNode
	groups  []parquet.RowGroup
	group   int          // index of the next row group
	rows    parquet.Rows // reader of the current row group, nil between groups
	drained bool         // rows has returned its last rows
	buf     []parquet.Row
	n, i    int   // rows in buf, index of the next one
	row     int64 // 1-based number in the file of the last row returned
	empty   int64 // rows left in a file without columns
	asm     assembler
}

// open starts reading the Parquet file f.
func (p *parquetState) open(f *os.File) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	var magic [4]byte
	if _, err := f.ReadAt(magic[:], 0); err != nil && err != io.EOF {
		return err
	}
	if magic[0] == 0x1f && magic[1] == 0x8b {
		return errors.New("the file is gzip-compressed as a whole; a Parquet BATCH file must be plain Parquet " +
			`(with "compression": "gzip" the Singer SDK compresses the pages inside the file)`)
	}
	if err := checkFooterLength(f, info.Size()); err != nil {
		return err
	}
	err = guard(func() (err error) {
		p.file, err = parquet.OpenFile(f, info.Size(),
			parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true), parquet.ReadBufferSize(parquetReadBuffer))
		return err
	})
	if err != nil {
		return fmt.Errorf("not a readable parquet file: %w", err)
	}
	p.f = f
	if p.root, err = parquetSchema(p.file.Metadata().Schema); err != nil {
		return err
	}
	leaves := p.root.end
	p.asm.cols = make([][]parquet.Value, leaves)
	p.asm.pos = make([]int, leaves)
	p.groups, p.group, p.n, p.i, p.row = p.file.RowGroups(), 0, 0, 0, 0
	p.empty = 0
	if leaves == 0 {
		p.empty, p.groups = p.file.NumRows(), nil
	}
	if p.buf == nil {
		p.buf = make([]parquet.Row, parquetRowBuffer)
	}
	return nil
}

// checkFooterLength refuses a file whose footer length (the 4 bytes
// before the closing magic) is more than the file holds. parquet-go
// allocates a buffer of that length before it reads a byte of it: a
// damaged 17 KB file claiming a 3 GB footer took 3.2 GB of memory
// (FuzzParquetFile's worker was killed for it), where the memory of a
// run is bounded by its settings and lines (SPEC §10).
func checkFooterLength(f *os.File, size int64) error {
	const magic = 4
	if size < 8 {
		return nil // parquet-go names what is wrong with so short a file
	}
	var tail [8]byte
	if _, err := f.ReadAt(tail[:], size-8); err != nil {
		return fmt.Errorf("not a readable parquet file: reading its footer length: %w", err)
	}
	if m := string(tail[4:]); m != "PAR1" && m != "PARE" {
		return nil // nor is the footer's length read without the magic
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-2*magic-4 {
		return fmt.Errorf("not a readable parquet file: its footer claims %d bytes, more than the file's %d", n, size)
	}
	if string(tail[4:]) != "PAR1" {
		return nil // an encrypted footer (PARE) is not thrift we can read
	}
	footer := make([]byte, n) // at most the file's size
	if _, err := f.ReadAt(footer, size-8-n); err != nil {
		return fmt.Errorf("not a readable parquet file: reading its footer: %w", err)
	}
	if err := checkThriftLengths(footer); err != nil {
		return fmt.Errorf("not a readable parquet file: %w", err)
	}
	return nil
}

// checkPages walks the page headers of row group g's column chunks and
// refuses one whose sizes its chunk cannot hold, before parquet-go reads
// the pages: it allocates a page's compressed_page_size before reading
// it, and for a compressed codec its uncompressed_page_size before
// decompressing, so a damaged header claiming 2 GB took 2 GB whatever
// the file's size (checkFooterLength bounds the footer the same way). A
// page's bytes must lie inside its chunk, and its uncompressed size
// within what its codec can expand that many bytes to (maxExpansion): no
// valid file is refused. Chunks of encrypted columns are not walked.
func (p *parquetState) checkPages(g int) error {
	groups := p.file.Metadata().RowGroups
	if g >= len(groups) {
		return nil
	}
	info, err := p.f.Stat()
	if err != nil {
		return err
	}
	buf := make([]byte, 256)
	for c := range groups[g].Columns {
		cc := &groups[g].Columns[c]
		md := &cc.MetaData
		if cc.FilePath != "" || len(cc.EncryptedColumnMetadata) > 0 || md.TotalCompressedSize <= 0 {
			continue // parquet-go refuses what it cannot read
		}
		pos := md.DataPageOffset
		if md.DictionaryPageOffset != 0 {
			pos = md.DictionaryPageOffset
		}
		end := pos + md.TotalCompressedSize
		if pos < 0 || end < pos || end > info.Size() {
			return fmt.Errorf("column chunk %d of row group %d claims bytes %d to %d of a file of %d", c, g, pos, end, info.Size())
		}
		for pos < end {
			compressed, uncompressed, n, err := p.readPageHeader(buf, pos, end)
			if err != nil {
				return fmt.Errorf("column chunk %d of row group %d: page header at byte %d: %w", c, g, pos, err)
			}
			left := end - pos - int64(n)
			switch {
			case compressed < 0 || compressed > left:
				return fmt.Errorf("column chunk %d of row group %d: the page at byte %d claims %d bytes, with %d left in its chunk", c, g, pos, compressed, left)
			case md.Codec != format.Uncompressed && uncompressed > maxExpansion(md.Codec, compressed):
				return fmt.Errorf("column chunk %d of row group %d: the page at byte %d claims %d bytes uncompressed from %d (%s expands at most %d)",
					c, g, pos, uncompressed, compressed, md.Codec, maxExpansion(md.Codec, compressed))
			}
			pos += int64(n) + compressed
		}
	}
	return nil
}

// readPageHeader reads the page header at pos of a chunk ending at end,
// into buf (grown, up to the chunk's end, while the header is longer).
func (p *parquetState) readPageHeader(buf []byte, pos, end int64) (compressed, uncompressed int64, n int, err error) {
	for size := int64(len(buf)); ; size *= 4 {
		size = min(size, end-pos)
		if int64(cap(buf)) < size {
			buf = make([]byte, size)
		}
		b := buf[:size]
		if _, err := p.f.ReadAt(b, pos); err != nil && err != io.EOF {
			return 0, 0, 0, err
		}
		compressed, uncompressed, n, err = pageHeader(b)
		if err == errThriftShort && size == end-pos {
			err = errors.New("the page header runs past the end of its column chunk")
		}
		if err == nil || size == end-pos {
			return compressed, uncompressed, n, err // an error once b holds the whole chunk's rest is damage
		}
	}
}

// maxExpansion is the most bytes codec can decompress n bytes to, with
// room to spare: deflate (gzip) at most 1032:1, snappy about 22:1, LZ4
// about 255:1, zstd 32768:1 (a 4-byte RLE block of 128 KiB). Brotli copies
// up to 16 MiB in one command of a few bytes: it is bounded by 2^24:1 only,
// as are codecs not named here. Never below 64 KiB: a tiny page of a
// codec's own header.
func maxExpansion(codec format.CompressionCodec, n int64) int64 {
	ratio := int64(1 << 24)
	switch codec {
	case format.Gzip:
		ratio = 1100
	case format.Snappy:
		ratio = 32
	case format.Lz4, format.Lz4Raw:
		ratio = 300
	case format.Zstd:
		ratio = 1 << 16
	}
	return max(n*ratio, 64<<10)
}

// next returns the JSON text of the next row, valid until the next call,
// or io.EOF after the last row of the file.
func (p *parquetState) next() ([]byte, error) {
	for p.i == p.n {
		if p.empty > 0 {
			p.empty--
			p.row++
			return append(p.asm.buf[:0], "{}"...), nil
		}
		if err := p.fill(); err != nil {
			return nil, err
		}
	}
	r := p.buf[p.i]
	p.i++
	p.row++
	return p.asm.row(p.root, r)
}

// fill reads the next rows into p.buf, moving on to the next row group as
// the current one ends. A row group is closed only once its rows are
// consumed: their byte arrays may point into its pages.
func (p *parquetState) fill() error {
	for {
		if p.drained {
			if err := p.closeGroup(); err != nil {
				return err
			}
		}
		if p.rows == nil {
			if p.group >= len(p.groups) {
				return io.EOF
			}
			g := p.groups[p.group]
			if err := p.checkPages(p.group); err != nil {
				return fmt.Errorf("read row %d: not a readable parquet file: %w", p.row+1, err)
			}
			p.group++
			if err := guard(func() error { p.rows = g.Rows(); return nil }); err != nil {
				return fmt.Errorf("read row %d: %w", p.row+1, err)
			}
		}
		var n int
		err := guard(func() (err error) {
			n, err = p.rows.ReadRows(p.buf)
			return err
		})
		p.n, p.i = n, 0
		switch {
		case err == io.EOF:
			p.drained = true
		case err != nil:
			return fmt.Errorf("read row %d: %w", p.row+1, err)
		case n == 0:
			return fmt.Errorf("read row %d: %w", p.row+1, io.ErrNoProgress)
		}
		if n > 0 {
			return nil
		}
	}
}

func (p *parquetState) closeGroup() error {
	err := p.rows.Close()
	p.rows, p.drained = nil, false
	return err
}

// release drops the current file's state, keeping reusable buffers.
func (p *parquetState) release() {
	if p.rows != nil {
		p.closeGroup()
	}
	p.f, p.file, p.root, p.groups = nil, nil, nil, nil
	p.n, p.i, p.empty = 0, 0, 0
	clear(p.buf) // drop references to page data
}

// guard runs fn, turning a panic of the Parquet library on corrupt data
// into an error.
func guard(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", parquet.ErrCorrupted, r)
		}
	}()
	return fn()
}

// openParquet opens the next file of the manifest as Parquet.
func (b *Reader) openParquet() error {
	i := b.next
	b.next++
	b.resolve(i)
	if err := b.refused(i); err != nil {
		return err
	}
	f, err := os.Open(b.paths[i])
	if err != nil {
		return b.fileError(i, err)
	}
	if err := b.pq.open(f); err != nil {
		b.pq.release()
		f.Close()
		return b.fileError(i, err)
	}
	b.file = f
	return nil
}

// nextParquet is Next for Parquet files. FileLine is the 1-based row
// number in the file.
func (b *Reader) nextParquet() (*singer.Message, error) {
	for {
		if b.file == nil {
			if b.next >= len(b.paths) {
				return nil, io.EOF
			}
			if err := b.openParquet(); err != nil {
				return nil, err
			}
		}
		rec, err := b.pq.next()
		if err == io.EOF {
			if err := b.closeFile(); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, b.parquetError(err)
		}
		if len(rec) > b.lr.Max() {
			return nil, b.parquetRowError("", fmt.Errorf("longer than the limit of %d bytes", b.lr.Max()))
		}
		b.msg = singer.Message{
			Type:     singer.TypeRecord,
			Line:     b.line,
			Stream:   b.stream,
			Record:   rec,
			File:     b.urls[b.next-1],
			FileLine: b.pq.row,
		}
		return &b.msg, nil
	}
}

// parquetError classifies an error of the current file: a value without a
// JSON form is an *inputerr.Error about its row and column; anything else
// means the file cannot be read.
func (b *Reader) parquetError(err error) error {
	var ve *valueError
	if errors.As(err, &ve) {
		return b.parquetRowError(ve.column, ve.err)
	}
	if errors.Is(err, errMalformed) {
		err = fmt.Errorf("row %d: %w", b.pq.row, err)
	}
	return b.fileError(b.next-1, err)
}

func (b *Reader) parquetRowError(column string, err error) error {
	return &inputerr.Error{
		Line:     b.line,
		Stream:   b.stream,
		Property: column,
		Msg:      fmt.Sprintf("BATCH file %q row %d", b.urls[b.next-1], b.pq.row),
		Err:      err,
	}
}
