package singer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"unsafe"

	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/jsonscan"
)

// ReaderOptions tunes a Reader.
type ReaderOptions struct {
	// MaxLineBytes is the longest accepted line, without its line ending;
	// 0 means DefaultMaxLineBytes (128 MiB). A longer line is an
	// *inputerr.Error naming the line and the limit; it is read and dropped
	// piece by piece, never held whole in memory.
	MaxLineBytes int
}

// A Reader reads Singer messages, one JSON object per line.
//
// It walks each line once: the small envelope fields are decoded, while
// "record", "schema" and "value" are validated and kept as their exact
// bytes, numbers included, so nothing goes through float64. Every line must
// be valid UTF-8 and valid JSON (RFC 8259, at most MaxDepth levels deep).
//
// A RECORD's record is read through Message.DecodeRecord, and the reader
// may leave its syntax to that call: when the caller's decoder walks the
// record byte by byte anyway (the one-pass decoder), a check of its own
// would walk it twice. The reader then finds only the record's end, by its
// brackets and strings (jsonscan.ContainerEnd); DecodeRecord gives a malformed record
// the error this reader gives the line when it checks every byte. Which
// one checks is the reader's choice, learnt from the DecodeRecord calls
// (recordUse); results never depend on it.
//
// A Reader is not safe for concurrent use; its messages may be read on
// another goroutine.
type Reader struct {
	lr  lineReader
	msg Message
	use *recordUse // whether records are checked here or left to DecodeRecord

	keyBuf []byte // unescaped object keys
	strBuf []byte // unescaped envelope strings
	valBuf []byte // compacted STATE values

	// Last decoded strings, reused while they repeat so that a run of
	// RECORDs of one stream does not allocate.
	stream, timeExtracted, version string
	names                          map[string]string // stream names seen, interned (streamName)

	shapes shapes  // the envelopes of RECORD lines whose record was left unchecked, by the bytes before it
	fields []field // where the members before the record lie (scan)
}

// NewReader returns a Reader reading from r. It buffers its input.
func NewReader(r io.Reader, opts ReaderOptions) *Reader {
	return &Reader{lr: newLineReader(r, opts.MaxLineBytes), use: &recordUse{walksToDefer: defaultWalksToDefer}}
}

// Line returns the 1-based number of the last physical line read, blank
// lines included (0 before the first).
func (r *Reader) Line() int64 { return r.lr.n }

// Next returns the next message, skipping blank lines, or io.EOF at the end
// of the input.
//
// The returned Message, and the bytes its json.RawMessage fields point at,
// are valid only until the next call to Next; callers copy what they keep
// (see Message.Clone).
//
// A malformed line or message is an *inputerr.Error with Line set (and Stream
// when known), from Next or, for a RECORD's record, from
// Message.DecodeRecord; the line is consumed, so Next may be called again
// to go on with the following line. Any other error comes from the
// underlying reader.
func (r *Reader) Next() (*Message, error) {
	line, err := r.lr.next()
	switch {
	case err == nil:
	case err == io.EOF:
		return nil, io.EOF
	case errors.Is(err, ErrLineTooLong):
		return nil, &inputerr.Error{Line: r.lr.n, Msg: fmt.Sprintf(
			"line is longer than the limit of %d bytes", r.lr.max)}
	default:
		return nil, fmt.Errorf("read input line %d: %w", r.lr.n+1, err)
	}
	if r.use.check.Load() {
		return r.full(line)
	}
	var env envelope
	err = r.scan(line, &env, true)
	if !env.deferred {
		if err != nil {
			return nil, r.syntaxError(line, &env, err)
		}
		return r.decoded(&env)
	}
	if err == nil && env.same {
		// The bytes around the record are the last line's: so is the
		// message around it.
		r.msg = r.shapes.cur.msg
		r.msg.Line, r.msg.Record = r.lr.n, line[env.recordAt:env.recordEnd]
		return &r.msg, nil
	}
	if err != nil || !env.deferOK() {
		// Whatever is wrong with the line, the full check finds the same
		// first fault as without deferral; a record that is not a RECORD's
		// only one is checked now.
		return r.full(line)
	}
	r.msg = Message{Line: r.lr.n, use: r.use}
	if err := r.decode(&env); err != nil {
		// A syntax error in the record comes first, as without deferral.
		return r.full(line)
	}
	r.msg.Record = line[env.recordAt:env.recordEnd]
	r.msg.unchecked, r.msg.recordAt = true, env.recordAt
	if isString(env.streamAt) {
		r.msg.errStream = r.streamName(env.streamAt)
	}
	r.shapes.keep(&r.msg, line, r.fields, env.recordEnd)
	return &r.msg, nil
}

// full reads line checking every byte of it.
func (r *Reader) full(line []byte) (*Message, error) {
	var env envelope
	if err := r.scan(line, &env, false); err != nil {
		return nil, r.syntaxError(line, &env, err)
	}
	return r.decoded(&env)
}

// decoded returns the message of a checked envelope.
func (r *Reader) decoded(env *envelope) (*Message, error) {
	r.msg = Message{Line: r.lr.n, use: r.use}
	if err := r.decode(env); err != nil {
		return nil, err
	}
	return &r.msg, nil
}

// sameShape remembers a RECORD line whose record's syntax was left to
// DecodeRecord: the bytes before its record and after it, and the message
// they gave. Taps write line after line that differ only in the record: a
// line that starts with the same bytes has its members before the record
// from them (resume), and when the bytes after its record (found by
// skipping it forward, see jsonscan.ContainerEnd) are the same too, its
// message is the same around its record.
type sameShape struct {
	head, tail []byte
	msg        Message // Record and Line unset
	// fields are the members in head.
	fields []field
}

// field is where one envelope member lies in its line: the key's text
// (between its quotes) and the value.
type field struct {
	key, keyEnd, value, valueEnd int
	escaped                      bool
}

// shapes holds the sameShape of each of the last few hundred heads (the
// bytes before the record: one per stream, for most taps), so that
// interleaved streams resume as a single one does. A line's head is found
// by the lengths of the heads kept: the bytes of each such length that
// are followed by the record's '{' are looked up.
type shapes struct {
	byHead map[string]*sameShape
	lens   []int      // the lengths of the heads kept, at most maxHeadLens, the last hit first
	cur    *sameShape // the shape the line being read resumed from (or the last line, or nil)
	bytes  int        // what byHead's keys and shapes hold (sameShape.size)
}

// Bounds of shapes: heads kept, the bytes they hold, distinct head
// lengths tried per line. A tap with 1,000 interleaved streams has 1,000
// heads: with 256 kept, three lines in four were read in full and their
// shapes kept again (1,000 streams ran at 1.2× the baseline's speed, 200
// at 2.2×). The bytes bound keeps large envelopes from making the count
// expensive: a few hundred bytes a stream is usual.
const (
	maxShapes      = 4096
	maxShapesBytes = 2 << 20
	// A line is tried at each kept length, a byte compare each until one
	// is followed by the record's '{': cheap, so enough lengths for a tap
	// whose stream names have many (with 8, twenty interleaved streams of
	// as many name lengths were read in full, their shapes kept again).
	maxHeadLens = 64
)

// size is what sh holds besides its map key.
func (sh *sameShape) size() int {
	return int(unsafe.Sizeof(*sh)) + cap(sh.head) + cap(sh.tail) + cap(sh.fields)*int(unsafe.Sizeof(field{}))
}

// resume returns the offset of the record's value when line starts with
// a head kept, or 0. The members in the head are its shape's (restore).
func (c *shapes) resume(line []byte) int {
	if sh := c.cur; sh != nil { // the last line's head first: one stream at a time
		if n := len(sh.head); len(line) > n && line[n] == '{' && bytes.HasPrefix(line, sh.head) {
			return n
		}
	}
	c.cur = nil
	for k, n := range c.lens {
		if len(line) <= n || line[n] != '{' {
			continue
		}
		if sh := c.byHead[string(line[:n])]; sh != nil {
			if k > 0 {
				c.lens[k-1], c.lens[k] = c.lens[k], c.lens[k-1]
			}
			c.cur = sh
			return n
		}
	}
	return 0
}

// restore sets env's fields from the remembered head's members, which
// line starts with (resume).
func (c *sameShape) restore(line []byte, env *envelope, fields *[]field) {
	for _, f := range c.fields {
		env.set(line[f.key:f.keyEnd], line[f.value:f.valueEnd])
	}
	*fields = append((*fields)[:0], c.fields...)
}

// maxShape bounds the bytes around a record a sameShape keeps: envelopes
// are small, and a huge one is not worth keeping (nor its memory).
const maxShape = 4 << 10

// keep remembers the line's shape under its head, in place of the one
// kept for that head if any; when maxShapes are kept, another goes.
func (c *shapes) keep(m *Message, line []byte, fields []field, recordEnd int) {
	if m.recordAt+len(line)-recordEnd > maxShape {
		return
	}
	for _, f := range fields {
		if f.escaped {
			return // rare: not worth unescaping again in restore
		}
	}
	head := line[:m.recordAt]
	sh := c.byHead[string(head)]
	if sh == nil {
		if c.byHead == nil {
			c.byHead = make(map[string]*sameShape)
		}
		need := 2*len(head) + len(line) - recordEnd + len(fields)*int(unsafe.Sizeof(field{})) + int(unsafe.Sizeof(sameShape{}))
		for k, old := range c.byHead { // at random (map order), while over a bound
			if len(c.byHead) < maxShapes && c.bytes+need <= maxShapesBytes {
				break
			}
			delete(c.byHead, k)
			c.bytes -= len(k) + old.size()
			if c.cur == old {
				c.cur = nil
			}
		}
		sh = &sameShape{}
		c.byHead[string(head)] = sh
		c.bytes += len(head)
		c.addLen(len(head))
	} else {
		c.bytes -= sh.size()
		if c.cur != sh { // read in full: its length may have been dropped since
			c.addLen(len(head))
		}
	}
	sh.fields = append(sh.fields[:0], fields...)
	sh.head = append(sh.head[:0], head...)
	sh.tail = append(sh.tail[:0], line[recordEnd:]...)
	sh.msg = *m
	sh.msg.Record, sh.msg.Line = nil, 0
	c.bytes += sh.size()
	c.cur = sh
}

// addLen notes a head length, dropping the last one tried when
// maxHeadLens are noted.
func (c *shapes) addLen(n int) {
	for _, l := range c.lens {
		if l == n {
			return
		}
	}
	if len(c.lens) < maxHeadLens {
		c.lens = append(c.lens, n)
	} else {
		c.lens[len(c.lens)-1] = n
	}
}

// recordUse is what a Reader learns from how its messages' records are
// read, shared by the reader and its messages (which may be handled on
// another goroutine). check is set once a record the reader left
// unchecked is read without a decoder (Message.DecodeRecord(nil)): for a
// caller that reads records that way the reader's check costs nothing
// extra, and it runs on the reader's goroutine, beside the caller's work.
// It is cleared after walksToDefer records in a row were read by a
// decoder and none without: a walk that checks the syntax as it converts
// makes the reader's check a second walk. (A caller that reads each
// record without a decoder and then walks what it made of it, as stream
// maps do, stays checked.) Only where the syntax is checked depends on
// it, never what a line gives.
type recordUse struct {
	check        atomic.Bool
	walks        atomic.Int32 // records read by a decoder since the last without one
	walksToDefer int32
}

// defaultWalksToDefer is recordUse.walksToDefer: a few chunks of the
// pipeline's reader are read ahead either way.
const defaultWalksToDefer = 64

// walked notes a record read by a decoder of the caller's.
func (u *recordUse) walked() {
	if u == nil || !u.check.Load() {
		return
	}
	if u.walks.Add(1) >= u.walksToDefer {
		u.check.Store(false)
	}
}

// readAlone notes a record read without a decoder; left says the reader
// had left its syntax unchecked.
func (u *recordUse) readAlone(left bool) {
	if u == nil {
		return
	}
	if u.walks.Load() != 0 {
		u.walks.Store(0)
	}
	if left && !u.check.Load() {
		u.check.Store(true)
	}
}

// envelope holds the raw, validated values of the top-level keys a message
// may use; nil means absent. The last of duplicate keys wins.
type envelope struct {
	typ, stream, timeExtracted, version  []byte
	record, schema, value, keyProperties []byte
	encoding, manifest                   []byte

	// deferred is set when a "record" object was skipped unchecked
	// (left to DecodeRecord) from recordAt to recordEnd; records counts the
	// "record" keys. same is set when the line had the last deferred
	// line's bytes before and after that record (sameShape).
	deferred            bool
	same                bool
	records             int
	recordAt, recordEnd int
	streamAt            []byte // "stream" as read before the deferred record: what a syntax error in it names
}

// deferOK reports whether the deferred record may stay unchecked: it is
// the record of a RECORD message, and no other "record" value went
// unchecked before it.
func (env *envelope) deferOK() bool {
	return env.records == 1 && string(env.typ) == `"RECORD"`
}

func (env *envelope) set(key, val []byte) {
	switch string(key) {
	case "type":
		env.typ = val
	case "stream":
		env.stream = val
	case "record":
		env.record = val
		env.records++
	case "time_extracted":
		env.timeExtracted = val
	case "version":
		env.version = val
	case "schema":
		env.schema = val
	case "key_properties":
		env.keyProperties = val
	case "value":
		env.value = val
	case "encoding":
		env.encoding = val
	case "manifest":
		env.manifest = val
	}
}

// scan validates line as one JSON object and collects its envelope fields.
// With deferRecord, a "record" object is skipped to its end without a
// syntax check (env.deferred), and a line that starts with the bytes the
// last such line had before its record resumes there (sameShape.resume).
func (r *Reader) scan(line []byte, env *envelope, deferRecord bool) error {
	s := scanner{data: line}
	r.fields = r.fields[:0]
	if deferRecord {
		if at := r.shapes.resume(line); at > 0 {
			s.pos = at
			return r.members(&s, env, recordKey, true, true)
		}
	}
	s.skipSpace()
	if s.pos >= len(line) || line[s.pos] != '{' {
		return notObject(line, s.pos)
	}
	s.pos++
	s.skipSpace()
	if s.pos < len(line) && line[s.pos] == '}' {
		s.pos++
		return s.end()
	}
	return r.members(&s, env, nil, deferRecord, false)
}

var recordKey = []byte("record")

// members reads the envelope's members from s.pos, which is at a key or,
// when key is given, at that key's value. Until a record is deferred it
// notes where each member lies (r.fields), for sameShape; resumed says the
// members before s.pos are the remembered line's.
func (r *Reader) members(s *scanner, env *envelope, key []byte, deferRecord, resumed bool) error {
	line := s.data
	for {
		f := field{key: s.pos + 1}
		if key == nil {
			var err error
			if key, err = s.key(); err != nil {
				return err
			}
			f.keyEnd = f.key + len(key)
			if bytes.IndexByte(key, '\\') >= 0 {
				r.keyBuf, _ = jsonscan.AppendUnescaped(r.keyBuf[:0], key, false)
				key = r.keyBuf
				f.escaped = true
			}
		}
		vstart := s.pos
		if deferRecord && !env.deferred && string(key) == "record" && vstart < len(line) && line[vstart] == '{' {
			// The record's end is found by its brackets and strings, read
			// forward; its syntax is left to Message.DecodeRecord. For valid JSON the end is the one the
			// scanner finds, and for a malformed record the scanner's first
			// fault lies before it (see jsonscan.ContainerEnd): so the record's check
			// on these exact bytes finds the fault the full read finds.
			end := jsonscan.ContainerEnd(line, vstart, MaxDepth-1)
			if resumed {
				if end > 0 && bytes.Equal(line[end:], r.shapes.cur.tail) {
					env.deferred, env.same, env.recordAt, env.recordEnd = true, true, vstart, end
					return nil
				}
				r.shapes.cur.restore(line, env, &r.fields)
			}
			if end > 0 {
				s.pos = end
				env.deferred, env.recordAt, env.recordEnd, env.streamAt = true, vstart, end, env.stream
			}
		}
		if s.pos == vstart {
			if err := s.value(1); err != nil {
				return err
			}
		}
		if deferRecord && !env.deferred && f.keyEnd > 0 {
			f.value, f.valueEnd = vstart, s.pos
			r.fields = append(r.fields, f)
		}
		env.set(key, line[vstart:s.pos])
		key = nil
		done, err := s.next('}')
		if err != nil {
			return err
		}
		if done {
			return s.end()
		}
	}
}

// syntaxError turns a scan error into an *inputerr.Error. Invalid UTF-8
// anywhere in the line is reported as such, whatever the scan tripped on
// first, so that such lines always get the same explanation.
func (r *Reader) syntaxError(line []byte, env *envelope, err error) error {
	if off := invalidUTF8(line); off >= 0 {
		err = utf8Error(off)
	}
	ie := &inputerr.Error{Line: r.lr.n, Msg: err.Error()}
	if se, ok := err.(*scanError); ok {
		// A fault inside the record names its property, as the check of a
		// deferred record does (Message.checkRecord).
		if path := pathAt(line, se.off); len(path) > 1 && path[0] == "record" {
			ie.Property = propertyName(path[1:])
		}
	}
	if isString(env.stream) {
		ie.Stream = r.streamName(env.stream)
	}
	return ie
}

// decode fills r.msg from the envelope, checking the fields its type needs.
func (r *Reader) decode(env *envelope) error {
	m := &r.msg
	if isString(env.stream) {
		m.Stream = r.streamName(env.stream)
	}
	if absent(env.typ) {
		return r.missing("type")
	}
	if !isString(env.typ) {
		return r.errorf(`"type" must be a string`)
	}
	switch typ := r.rawString(env.typ); string(typ) {
	case "RECORD":
		m.Type = TypeRecord
		return r.decodeRecord(env)
	case "SCHEMA":
		m.Type = TypeSchema
		return r.decodeSchema(env)
	case "STATE":
		m.Type = TypeState
		return r.decodeState(env)
	case "ACTIVATE_VERSION":
		m.Type = TypeActivateVersion
		return r.decodeActivateVersion(env)
	case "BATCH":
		m.Type = TypeBatch
		return r.decodeBatch(env)
	default:
		return r.errorf("unknown message type %q", typ)
	}
}

func (r *Reader) decodeRecord(env *envelope) error {
	if err := r.needStream(env); err != nil {
		return err
	}
	if err := r.needObject(env.record, "record"); err != nil {
		return err
	}
	r.msg.Record = env.record
	switch {
	case absent(env.timeExtracted):
	case isString(env.timeExtracted):
		r.msg.TimeExtracted = r.decodeString(env.timeExtracted, &r.timeExtracted)
		r.msg.HasTimeExtracted = true
	default:
		return r.errorf(`"time_extracted" must be a string`)
	}
	if absent(env.version) {
		return nil
	}
	return r.decodeVersion(env.version)
}

func (r *Reader) decodeSchema(env *envelope) error {
	if err := r.needStream(env); err != nil {
		return err
	}
	if err := r.needObject(env.schema, "schema"); err != nil {
		return err
	}
	r.msg.Schema = env.schema
	if absent(env.keyProperties) {
		return nil
	}
	keys, err := r.stringArray(env.keyProperties, "key_properties")
	if err != nil {
		return err
	}
	r.msg.KeyProperties, r.msg.HasKeyProperties = keys, true
	return nil
}

func (r *Reader) decodeState(env *envelope) error {
	if env.value == nil {
		return r.missing("value")
	}
	if r.lr.owned {
		// The line is the caller's (LineOwned): compact the value in place
		// (compact never writes ahead of what it read), so that it is the
		// caller's too, not valBuf, which the next STATE overwrites while
		// the caller may still hold this one. No second copy of a 50 MB
		// state either.
		r.msg.Value = compact(env.value[:0], env.value)
		return nil
	}
	r.valBuf = compact(r.valBuf[:0], env.value)
	r.msg.Value = r.valBuf
	return nil
}

func (r *Reader) decodeActivateVersion(env *envelope) error {
	if err := r.needStream(env); err != nil {
		return err
	}
	if absent(env.version) {
		return r.missing("version")
	}
	return r.decodeVersion(env.version)
}

func (r *Reader) decodeBatch(env *envelope) error {
	if err := r.needStream(env); err != nil {
		return err
	}
	if err := r.needObject(env.encoding, "encoding"); err != nil {
		return err
	}
	if err := r.decodeEncoding(env.encoding); err != nil {
		return err
	}
	if absent(env.manifest) {
		return r.missing("manifest")
	}
	files, err := r.stringArray(env.manifest, "manifest")
	if err != nil {
		return err
	}
	r.msg.Manifest = files
	return nil
}

func (r *Reader) decodeEncoding(raw []byte) error {
	var format, compression []byte
	err := eachMember(raw, func(key, val []byte) error {
		if bytes.IndexByte(key, '\\') >= 0 {
			key, _ = jsonscan.AppendUnescaped(nil, key, false)
		}
		switch string(key) {
		case "format":
			format = val
		case "compression":
			compression = val
		}
		return nil
	})
	if err != nil {
		return r.errorf("encoding: %v", err) // cannot happen: raw was validated
	}
	enc := &r.msg.Encoding
	switch {
	case absent(format):
		return r.missing("encoding.format")
	case !isString(format):
		return r.errorf(`"encoding.format" must be a string`)
	}
	enc.Format = r.decodeString(format, nil)
	if enc.Format != "jsonl" && enc.Format != "parquet" {
		return r.errorf(`unsupported BATCH format %q (want "jsonl" or "parquet")`, enc.Format)
	}
	switch {
	case absent(compression):
		return nil
	case !isString(compression):
		return r.errorf(`"encoding.compression" must be a string`)
	}
	enc.Compression = r.decodeString(compression, nil)
	if enc.Compression != "gzip" && enc.Compression != "none" {
		return r.errorf(`unsupported BATCH compression %q (want "gzip" or "none")`, enc.Compression)
	}
	return nil
}

// decodeVersion keeps a present, non-null "version" that must be an integer.
func (r *Reader) decodeVersion(raw []byte) error {
	if c := raw[0]; c != '-' && (c < '0' || c > '9') || bytes.ContainsAny(raw, ".eE") {
		return r.errorf(`"version" must be an integer, not %.40s`, raw)
	}
	if string(raw) != r.version {
		r.version = string(raw)
	}
	r.msg.Version = r.version
	return nil
}

func (r *Reader) needStream(env *envelope) error {
	switch {
	case absent(env.stream):
		return r.missing("stream")
	case !isString(env.stream):
		return r.errorf(`"stream" must be a string`)
	case len(env.stream) == 2: // "": no table name can be made of it (docs/types.md)
		return r.errorf(`"stream" is empty (expected the stream's name)`)
	}
	return nil
}

func (r *Reader) needObject(raw []byte, name string) error {
	switch {
	case absent(raw):
		return r.missing(name)
	case raw[0] != '{':
		return r.errorf("%q must be an object", name)
	}
	return nil
}

// stringArray decodes a JSON array of strings into a new slice.
func (r *Reader) stringArray(raw []byte, name string) ([]string, error) {
	if raw[0] != '[' {
		return nil, r.errorf("%q must be an array of strings", name)
	}
	out := []string{}
	err := eachElement(raw, func(elem []byte) error {
		if !isString(elem) {
			return r.errorf("%q must be an array of strings", name)
		}
		out = append(out, r.decodeString(elem, nil))
		return nil
	})
	return out, err
}

// rawString returns the content of the validated JSON string raw,
// unescaped if needed, valid until the next decode.
func (r *Reader) rawString(raw []byte) []byte {
	content := raw[1 : len(raw)-1]
	if bytes.IndexByte(content, '\\') < 0 {
		return content
	}
	r.strBuf, _ = jsonscan.AppendUnescaped(r.strBuf[:0], content, false)
	return r.strBuf
}

// decodeString decodes the validated JSON string raw. With a cache, a
// value equal to the cached one reuses it instead of allocating.
func (r *Reader) decodeString(raw []byte, cache *string) string {
	b := r.rawString(raw)
	if cache == nil {
		return string(b)
	}
	if string(b) != *cache {
		*cache = string(b)
	}
	return *cache
}

// maxNames bounds the stream names a Reader interns; once that many are
// kept it starts again from none.
const maxNames = 1024

// streamName decodes the validated JSON string raw, a stream's name,
// allocating only for a name not seen before (or not since maxNames
// others).
func (r *Reader) streamName(raw []byte) string {
	b := r.rawString(raw)
	if string(b) == r.stream {
		return r.stream
	}
	s, ok := r.names[string(b)]
	if !ok {
		if r.names == nil || len(r.names) >= maxNames {
			r.names = make(map[string]string)
		}
		s = string(b)
		r.names[s] = s
	}
	r.stream = s
	return s
}

func (r *Reader) missing(field string) error {
	return r.errorf("missing required field %q", field)
}

func (r *Reader) errorf(format string, args ...any) error {
	return &inputerr.Error{Line: r.lr.n, Stream: r.msg.Stream, Msg: fmt.Sprintf(format, args...)}
}

// absent reports a missing or null envelope value.
func absent(raw []byte) bool { return raw == nil || raw[0] == 'n' }

func isString(raw []byte) bool { return raw != nil && raw[0] == '"' }
