package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/target-oracle/target-oracle/internal/batchfile"
	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/singer"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/tablemap"
	"github.com/target-oracle/target-oracle/internal/value"
)

// handle processes one message on the coordinator goroutine. An
// *inputerr.Error means the input is wrong; the caller drains and stops.
func (p *pipeline) handle(m *singer.Message) error {
	switch m.Type {
	case singer.TypeSchema:
		// The chunk's bytes are reused after handle returns; a compiled
		// schema may keep parts of its text.
		m.Schema = bytes.Clone(m.Schema)
		return p.onSchema(m)
	case singer.TypeRecord:
		return p.onRecord(m)
	case singer.TypeState:
		p.noteNullState(m)
		p.lastState = m.Line
		p.tracker.add(m.Line, m.Value)
		p.coalesceStates()
		p.flushForStates()
		return p.advance()
	case singer.TypeActivateVersion:
		return p.onActivateVersion(m)
	case singer.TypeBatch:
		return p.onBatch(m)
	}
	return &inputerr.Error{Line: m.Line, Stream: m.Stream, Msg: fmt.Sprintf("unknown message type %v", m.Type)}
}

func (p *pipeline) onStreamSchema(m *singer.Message) error {
	ident, err := schemaIdentity(m)
	if err != nil {
		return &inputerr.Error{Line: m.Line, Stream: m.Stream, Msg: "invalid schema", Err: err}
	}
	s := p.streams[m.Stream]
	if s != nil && bytes.Equal(s.schemaText, ident) && !p.inputsUnrecorded(s) {
		return nil // an identical repeat is a no-op
	}
	sch, err := p.schemas.Compile(m.Schema) // a text another stream sent is compiled once
	if err != nil {
		return &inputerr.Error{Line: m.Line, Stream: m.Stream, Err: err} // the compiler says "invalid schema: …"
	}
	for _, n := range sch.Unchecked {
		p.log.Warn("schema keyword not checked", "stream", m.Stream, "line", m.Line, "keyword", n) // a pattern RE2 cannot express, a multipleOf beyond exact checks (schema.Schema.Unchecked)
	}
	if s == nil {
		if len(p.order) >= MaxStreams {
			return &inputerr.Error{Line: m.Line, Stream: m.Stream,
				Msg: fmt.Sprintf("more than %d streams in one run: split the tap's output over several runs", MaxStreams)}
		}
		s = p.newStream(m.Stream)
	}
	if !sch.Root.HasProperties && s.settings.StorageMode != config.StorageJSON {
		return &inputerr.Error{Line: m.Line, Stream: m.Stream,
			Msg: "schema has no properties (set storage_mode json for this stream to load such records as documents)"}
	}
	keys := m.KeyProperties
	if !m.HasKeyProperties {
		keys = nil
	}
	if p.cfg.PrimaryKeyRequired && len(keys) == 0 {
		return &inputerr.Error{Line: m.Line, Stream: m.Stream, Msg: "key_properties are required (primary_key_required is true)"}
	}
	for _, k := range keys {
		if sch.Root.Lookup(k) == nil {
			return &inputerr.Error{Line: m.Line, Stream: m.Stream, Property: k, Msg: "key property is not in the schema"}
		}
	}
	if err := p.checkMaintainedSchema(s, m.Line); err != nil {
		return err
	}
	if err := p.historySchema(s, keys, m.Line); err != nil {
		return err
	}
	// A changed schema first flushes what was buffered under the old one.
	p.flush(s)
	existing, err := p.tableFor(s)
	var de *describeError
	var me *missingSchemaError
	if errors.As(err, &de) || errors.As(err, &me) {
		return err // the database failed, or has no such schema: not the input
	}
	if err != nil {
		return inputErrorFrom(m.Line, s.name, err)
	}
	if err := p.decidePrune(s, keys, m.Line); err != nil {
		return err
	}
	s.schemaText, s.schema, s.keys = ident, sch, keys
	p.seen.schema(s.name, sch.Root)
	p.noteCreationOptions(s, existing)
	if p.cfg.ValidateRecords {
		p.log.Debug("record validation", "stream", s.name, "compiled_plan", sch.Fast())
	}
	return p.relayout(s, existing, m.Line)
}

// relayout maps the stream's schema onto its table again and queues the
// DDL that brings the table to that shape.
func (p *pipeline) relayout(s *stream, existing *table.Table, line int64) error {
	layout, err := tablemap.NewLayout(s.name, s.schema.Root, s.keys, s.opts, existing)
	if err != nil {
		return inputErrorFrom(line, s.name, err)
	}
	prev := p.plannedLayout(s, layout)
	if keys := keyOrder(s.keys, layout, prev, existing); keys != nil {
		s.keys = keys // the same key in the table's order (keyorder.go)
		if layout, err = tablemap.NewLayout(s.name, s.schema.Root, s.keys, s.opts, existing); err != nil {
			return inputErrorFrom(line, s.name, err)
		}
	}
	if err := p.keysAgree(s, layout, line); err != nil {
		return err
	}
	if prev != nil {
		layout.KeepKeyTypes(prev, existing)
	}
	p.recordInputs(s, layout, existing)
	p.joinTable(s, layout, existing) // shared.go
	if err := p.historyLayout(s, layout, existing, line); err != nil {
		return err
	}
	keyChange := changesKey(s.layout, existing, layout)
	s.layout = layout
	layout.ShareBlocks(p.blocks)
	layout.ShareRowState(&p.rowState)
	p.warnLayout(s, layout)
	// CLOB JSON keeps number text as received: no NUMBER bounds there.
	s.schema.KeepNumberText(layout.NumberTextPaths())
	// Several inputs aliased into the stream: each record is validated
	// against its own input's schema (compileFeeds), not in the one pass.
	s.apart = p.cfg.ValidateRecords && len(p.feeds[s.name]) > 1
	for _, f := range p.feeds[s.name] {
		if f.own != nil {
			f.own.KeepNumberText(layout.NumberTextPaths())
		}
	}
	s.onePass = layout.PrepareOnePass(s.schema, p.cfg.ValidateRecords && !s.apart)
	if s.buf != nil && s.buf.rows() > 0 {
		p.closeLine(s.buf.minLine) // its rows go unloaded (frontier.go)
	}
	s.buf = s.newBuffer()
	p.dropped(s) // largest.go
	// The job carries the SCHEMA's line: until its DDL is applied, no
	// STATE read after the SCHEMA may be written (SPEC §7 rule 1), and if
	// it fails, none ever is.
	j := &job{kind: jobEnsure, stream: s, layout: layout, line: line, schemaLine: line, schemaInput: p.mapInput}
	p.enqueue(s, j)
	if keyChange {
		// A key change is refused on a table with rows, which only the
		// database can tell: wait for the verdict before reading on, so
		// that a refusal stops the run at this line with exactly what came
		// before it committed (SPEC §8). Key changes are rare; the wait
		// costs one round trip of the stream's work.
		return p.settle(s, j)
	}
	return nil
}

// recordInputs adds to the table's comment the input streams aliased into
// s (stream maps) when more than one feeds it: each is a loader of its
// own, whose rows the output's rows do not tell apart, so that a later
// run of one input alone is refused ACTIVATE_VERSION, overwrite and
// truncate, and prunes nothing, as for any table shared by streams. A
// table without the target's comment (adopted) is left as it is.
func (p *pipeline) recordInputs(s *stream, l *tablemap.Layout, existing *table.Table) {
	feeds := p.feeds[s.name]
	t := l.Table()
	if len(feeds) < 2 || (existing != nil && existing.Streams == nil) {
		return
	}
	for _, f := range feeds {
		if !table.StreamsInclude(t.Streams, f.input) {
			t.Streams = append(t.Streams, f.input)
		}
	}
}

// inputsUnrecorded reports whether an input stream aliased into s is not
// yet among the streams its table's comment will name (recordInputs): the
// SCHEMA of a new input, even one whose joined schema is an identical
// repeat, then lays the table out again to record it.
func (p *pipeline) inputsUnrecorded(s *stream) bool {
	feeds := p.feeds[s.name]
	if len(feeds) < 2 || s.layout == nil || s.layout.Table().Streams == nil {
		return false
	}
	for _, f := range feeds {
		if !table.StreamsInclude(s.layout.Table().Streams, f.input) {
			return true
		}
	}
	return false
}

// plannedLayout returns an earlier layout of this run for l's table: the
// stream's own, or another stream's that loads into it. Its key columns
// are the table's once the jobs queued before run, whatever the catalog
// said when the SCHEMA was read (keys never widen).
func (p *pipeline) plannedLayout(s *stream, l *tablemap.Layout) *tablemap.Layout {
	name := l.Table().QualifiedName()
	if s.layout != nil && s.layout.Table().QualifiedName() == name {
		return s.layout
	}
	if t := p.turns[name]; t != nil {
		for _, o := range t.streams {
			if o.layout != nil && o.layout.Table().QualifiedName() == name {
				return o.layout
			}
		}
	}
	return nil
}

// changesKey reports whether the layout's primary key differs from the
// stream's previous layout's, or from the existing table's.
func changesKey(prev *tablemap.Layout, existing *table.Table, next *tablemap.Layout) bool {
	want := next.Table().PrimaryKey
	if prev != nil && !slices.Equal(prev.Table().PrimaryKey, want) {
		return true
	}
	return existing != nil && !slices.Equal(existing.PrimaryKey, want)
}

// settle waits until job j of stream s has finished. It returns the input
// error a job reported meanwhile (the run then drains), nil otherwise; a
// database failure is left in p.failed for the main loop.
func (p *pipeline) settle(s *stream, j *job) error {
	for p.failed == nil && p.inputStop == nil && !p.noStart && slices.Contains(s.queue, j) {
		p.dispatch()
		if p.running == 0 {
			break // nothing can run (the job waits for a turn that never comes)
		}
		p.awaitResult()
	}
	return p.inputStop
}

// checkVersion refuses a version _SDC_TABLE_VERSION (NUMBER(38,0)) could
// not hold exactly: Oracle would round it, and comparisons with "<" would
// then differ from the dry run's. It makes m.Version canonical: a version
// is a number, so "-0" is stored, and activated, as 0.
func checkVersion(m *singer.Message) error {
	canon, info, err := value.CanonicalNumber(m.Version)
	if err == nil && info.IntDigits > 38 {
		err = fmt.Errorf("more than 38 digits")
	}
	if err != nil {
		return &inputerr.Error{Line: m.Line, Stream: m.Stream, Msg: fmt.Sprintf("field \"version\" of the message: %s is not a table version (an integer of at most 38 digits): %v", m.Version, err)}
	}
	m.Version = canon
	return nil
}

// keysAgree checks that streams loading into one table (mappings,
// aliases, names that conform alike) have the same key (SPEC §4).
func (p *pipeline) keysAgree(s *stream, l *tablemap.Layout, line int64) error {
	t := l.Table()
	name := t.QualifiedName()
	if p.tableOwner == nil {
		p.tableOwner = map[string]*stream{}
	}
	other := p.tableOwner[name]
	if other == nil || other == s || other.layout == nil {
		p.tableOwner[name] = s
		return nil
	}
	switch {
	case !slices.Equal(other.keys, s.keys):
		return &inputerr.Error{Line: line, Stream: s.name, Msg: fmt.Sprintf(
			"streams %q (key_properties %v) and %q (key_properties %v) both load into table %s: their keys must agree",
			other.name, other.keys, s.name, s.keys, name)}
	case !slices.Equal(other.layout.Table().PrimaryKey, t.PrimaryKey) &&
		other.settings.AppendOnly() != s.settings.AppendOnly():
		// Same key_properties, but one load method keeps no PRIMARY KEY
		// constraint (append-only) and the other needs one.
		return &inputerr.Error{Line: line, Stream: s.name, Msg: fmt.Sprintf(
			"streams %q (load_method %s) and %q (load_method %s) both load into table %s with key_properties %v: "+
				"append-only loads keep no PRIMARY KEY constraint, the other methods need one; give both streams the same kind of load_method (stream_overrides)",
			other.name, other.settings.LoadMethod, s.name, s.settings.LoadMethod, name, s.keys)}
	case !slices.Equal(other.layout.Table().PrimaryKey, t.PrimaryKey):
		return &inputerr.Error{Line: line, Stream: s.name, Msg: fmt.Sprintf(
			"streams %q (primary key columns %v) and %q (primary key columns %v) both load into table %s: their key columns must agree",
			other.name, other.layout.Table().PrimaryKey, s.name, t.PrimaryKey, name)}
	}
	return nil
}

// needVersions makes sure the stream's table has the columns versions
// need (_SDC_TABLE_VERSION, _SDC_DELETED_AT) once the stream sends one,
// even with add_record_metadata false.
func (p *pipeline) needVersions(s *stream, line int64) error {
	if s.opts.UsesVersions {
		return nil
	}
	s.opts.UsesVersions = true
	if s.layout.MetaIndex(table.MetaTableVersion) >= 0 && s.layout.MetaIndex(table.MetaDeletedAt) >= 0 {
		return nil
	}
	p.flush(s)
	existing, err := p.tables.describe(p.workCtx, s.opts.Schema, s.layout.Table().Name)
	if err != nil {
		return fmt.Errorf("stream %q: describe table: %w", s.name, err)
	}
	return p.relayout(s, existing, line)
}

// needDeletes adds _SDC_DELETED_AT to the stream's table for a record
// carrying an undeclared _sdc_deleted_at (add_record_metadata false):
// the records before it are flushed with the old layout, then the column
// is added like a SCHEMA change, before the record's batch is written
// (SPEC §5.4).
func (p *pipeline) needDeletes(s *stream, line int64) error {
	s.opts.UsesDeletes = true
	p.flush(s)
	existing, err := p.tables.describe(p.workCtx, s.opts.Schema, s.layout.Table().Name)
	if err != nil {
		return fmt.Errorf("stream %q: describe table: %w", s.name, err)
	}
	return p.relayout(s, existing, line)
}

// schemaIdentity is what makes two SCHEMA messages "identical": the
// compact schema text and the key properties.
func schemaIdentity(m *singer.Message) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, m.Schema); err != nil {
		return nil, err
	}
	keys, _ := json.Marshal(m.KeyProperties)
	b.WriteByte(0)
	b.Write(keys)
	return b.Bytes(), nil
}

func (p *pipeline) onStreamRecord(m *singer.Message) error {
	return p.onRecordOf(p.streams[m.Stream], m)
}

// onRecordOf is onStreamRecord with m's stream s (nil: none) looked up.
func (p *pipeline) onRecordOf(s *stream, m *singer.Message) error {
	if s == nil || s.layout == nil { // m's record was read: takesOnePass was false
		return &inputerr.Error{Line: m.Line, Stream: m.Stream, Msg: "RECORD before any SCHEMA for this stream"}
	}
	if s.read == s.reported {
		p.unreported = append(p.unreported, s)
	}
	s.read++
	err := p.streamRecord(s, m)
	if isMalformed(err) {
		// A line that is not JSON is no record read.
		p.uncount(s)
	}
	return err
}

// malformedRecord carries the error singer.Message.DecodeRecord gives a
// record that is not valid JSON, rather than its decoder's: the reader's
// own error for the line, which ends the run whatever on_invalid_record
// says, and the line counts as no record read.
type malformedRecord struct{ error }

func (e malformedRecord) Unwrap() error { return e.error }

func isMalformed(err error) bool {
	if err == nil {
		return false // no allocation for errors.As's target on every record
	}
	var mr malformedRecord
	return errors.As(err, &mr)
}

// readRecord reads m's record through decode (nil: only checks it; see
// singer.Message.DecodeRecord), telling a malformed record from decode's
// own error.
func readRecord(m *singer.Message, decode func(record []byte) error) error {
	if decode == nil {
		if err := m.DecodeRecord(nil); err != nil {
			return malformedRecord{err}
		}
		return nil
	}
	var own error
	err := m.DecodeRecord(func(record []byte) error {
		own = decode(record)
		return own
	})
	if err != nil && !errors.Is(err, own) {
		return malformedRecord{err}
	}
	return err
}

// uncount takes back the count of the record onStreamRecord just counted.
func (p *pipeline) uncount(s *stream) {
	if s.read--; s.read == s.reported {
		p.unreported = p.unreported[:len(p.unreported)-1]
	}
}

// streamRecord validates, converts and buffers a record of stream s.
func (p *pipeline) streamRecord(s *stream, m *singer.Message) error {
	if m.Version != "" {
		if err := checkVersion(m); err != nil {
			return p.invalid(s, m, err)
		}
		if err := p.needVersions(s, m.Line); err != nil {
			return err
		}
	}
	if !s.onePass || s.apart {
		if err := p.validate(s, m); err != nil {
			return p.invalid(s, m, err)
		}
	}
	seq := p.seq.last // a record that is not loaded takes no sequence number
	meta, err := p.meta(m)
	if err != nil {
		p.seq.last = seq
		if verr := p.validate(s, m); verr != nil {
			return p.invalid(s, m, verr) // rules come first, as without the one-pass checks
		}
		return p.invalid(s, m, err)
	}
	p.takeTable(s) // shared.go: another stream's rows for the table go first
	row := s.buf.next()
	if err := p.fill(s, m, meta, row); err != nil {
		s.buf.drop()
		p.seq.last = seq
		if errors.Is(err, tablemap.ErrDeletedColumnNeeded) && !s.opts.UsesDeletes {
			if err := p.needDeletes(s, m.Line); err != nil {
				return err
			}
			return p.streamRecord(s, m) // once: the layout has the column now
		}
		return p.invalid(s, m, err)
	}
	if p.afterFill != nil {
		p.afterFill()
	}
	size := s.buf.rowSize(len(m.Record))
	if p.rejectingRows() {
		s.buf.records = append(s.buf.records, bytes.Clone(m.Record))
		size += int64(len(m.Record)) // the copy counts in max_buffered_bytes too
	}
	opens := s.buf.rows() == 0
	s.buf.commitRow(m.Line, size, p.received.Block())
	s.buf.noteFile(m)
	if p.mapInput != "" { // under stream maps only (inputrows.go)
		in := p.mapInput
		if in == s.name {
			in = ""
		}
		s.buf.noteInput(in)
	}
	if opens {
		p.openLine(m.Line) // frontier.go
	}
	p.grew(s) // largest.go
	p.buffered += size
	if s.prune != nil {
		s.prune.prunedRecord(m.Line)
	}
	if s.firstRecord == 0 && p.holdsStates(s) {
		p.holdStates(s, m.Line)
	}
	if s.buf.rows() >= s.settings.BatchSizeRows || s.buf.bytes >= p.cfg.BatchSizeBytes {
		p.flush(s)
	}
	return nil
}

// takesOnePass reports whether m goes straight to its stream's one-pass
// decoder (RowOnePass), which reads the record (readRecord, in fill) as it
// converts it. On any other path the record is read before anything else
// uses it.
// s is m's stream (nil: none yet), looked up once per record by the caller.
func (p *pipeline) takesOnePass(s *stream, m *singer.Message) bool {
	// A version may first need the version columns (DDL, needVersions):
	// only once the stream has them does such a record go straight on.
	return p.maps.Empty() && s != nil && s.layout != nil && s.onePass && (m.Version == "" || s.opts.UsesVersions)
}

// fill converts a record into row. With the one-pass checks the record is
// validated in the same pass; when they do not accept it, or its
// conversion fails, the validator decides, so that a record breaking a
// rule gets the rule's error whichever comes first in the record.
func (p *pipeline) fill(s *stream, m *singer.Message, meta *tablemap.Meta, row []string) error {
	stats := s.buf.stats
	if deletes, keys, deleted := p.hardDeletes(s); deletes {
		// A row that deletes by key stores none of its other values: they
		// must not widen a column (or, under schema_evolution fail, fail
		// the run) for a value never written.
		if len(s.rowStats) != len(stats) {
			s.rowStats = make([]table.Stats, len(stats))
		}
		clear(s.rowStats)
		if err := p.fillWith(s, m, meta, row, s.rowStats); err != nil {
			return err
		}
		if row[deleted] == "" {
			for i := range stats {
				stats[i].Merge(s.rowStats[i])
			}
			return nil
		}
		for _, k := range keys {
			stats[k].Merge(s.rowStats[k])
		}
		return nil
	}
	return p.fillWith(s, m, meta, row, stats)
}

// hardDeletes reports whether s's records may delete rows by key
// (hard_delete, a key, the _SDC_DELETED_AT column), with the key's and
// that column's indexes in a row (batch.Shape.Kind decides the same).
func (p *pipeline) hardDeletes(s *stream) (bool, []int, int) {
	if !s.settings.HardDelete {
		return false, nil, -1
	}
	keys, deleted := s.layout.KeyIndexes(), s.layout.MetaIndex(table.MetaDeletedAt)
	return len(keys) > 0 && deleted >= 0, keys, deleted
}

// fillWith is fill with the value stats going to stats.
func (p *pipeline) fillWith(s *stream, m *singer.Message, meta *tablemap.Meta, row []string, stats []table.Stats) error {
	// The one pass may find the record malformed after it met some of its
	// properties: those are warned about only once the record is known to
	// be JSON.
	var held []string
	if s.onePass {
		hold := func(prop string) { held = append(held, prop) }
		err := readRecord(m, func(record []byte) error {
			return s.layout.RowOnePass(record, meta, row, stats, hold)
		})
		if err == nil {
			p.warnUnknown(s, held...)
			return nil
		}
		if isMalformed(err) || err == tablemap.ErrDeletedColumnNeeded {
			// Malformed: the reader's error comes first, and no property
			// of it was reported. Or the whole record was walked and
			// checked: converted again once the column is there.
			s.layout.ForgetUnknown(held)
			return err
		}
		p.warnUnknown(s, held...)
		if verr := p.validate(s, m); verr != nil {
			return verr
		}
		if !errors.Is(err, tablemap.ErrGeneralPath) {
			return inputErrorFrom(m.Line, s.name, err)
		}
	}
	unknown := func(prop string) { p.warnUnknown(s, prop) }
	if err := s.layout.Row(m.Record, meta, row, stats, unknown); err != nil {
		if err == tablemap.ErrDeletedColumnNeeded {
			s.layout.ForgetUnknown(held)
			return err
		}
		return inputErrorFrom(m.Line, s.name, err)
	}
	return nil
}

// validate checks a record against its stream's schema (validate_records)
// on its raw bytes: the schema's compiled plan when it covers the schema,
// the general validator otherwise.
func (p *pipeline) validate(s *stream, m *singer.Message) error {
	if !p.cfg.ValidateRecords {
		return nil
	}
	sch := s.schema
	if s.apart {
		if own := p.feedSchema(s); own != nil {
			sch = own // the record's input stream's own schema (compileFeeds)
		}
	}
	if err := sch.ValidateRaw(m.Record); err != nil {
		var ve *schema.ValidationError
		if errors.As(err, &ve) {
			return &inputerr.Error{Line: m.Line, Stream: s.name, Property: joinPath(ve.Path), Msg: ve.Msg}
		}
		return &inputerr.Error{Line: m.Line, Stream: s.name, Msg: err.Error()}
	}
	return nil
}

func (p *pipeline) meta(m *singer.Message) (*tablemap.Meta, error) {
	// The chunk's read time serves as "now": _SDC_SEQUENCE only needs to
	// increase (the sequencer adds a counter), and reading the clock per
	// record costs more than the rest of the metadata.
	received := p.receivedAt
	if p.clockGiven {
		received = p.o.Now() // a clock given in Options (tests) rules every metadata column
	}
	meta := &p.metaBuf
	*meta = tablemap.Meta{
		ReceivedAt:    p.received.text(received),
		Sequence:      p.seq.next(received),
		TableVersion:  m.Version,
		SyncStartedAt: p.started,
	}
	if m.TimeExtracted != "" || m.HasTimeExtracted {
		// Taps mostly stamp a whole run, or a page, with one time.
		if m.TimeExtracted != p.extracted.in || m.TimeExtracted == "" {
			t, _, err := value.CanonicalDateTime([]byte(m.TimeExtracted))
			if err != nil {
				// The message's field, not a record property of that name.
				return nil, &inputerr.Error{Line: m.Line, Stream: m.Stream, Msg: "field \"time_extracted\" of the message: " + err.Error()}
			}
			p.extracted.in, p.extracted.out = m.TimeExtracted, t
		}
		meta.TimeExtracted = p.extracted.out
	}
	return meta, nil
}

// invalid applies on_invalid_record to a record that failed validation or
// transformation.
func (p *pipeline) invalid(s *stream, m *singer.Message, err error) error {
	if serr := readRecord(m, nil); serr != nil {
		return serr // malformed JSON ends the run, as the reader's errors do: no policy skips it
	}
	err = withFile(err, m)
	if p.mapInput != "" {
		err = namedInput(err, p.mapInput, s.name)
	}
	switch p.cfg.OnInvalidRecord {
	case config.Skip:
		p.refusedKey(s, m)
		s.rejected++ // the stream's own count covers both policies
		p.metrics.Skipped(s.name)
		p.log.Warn("skipping invalid record", "err", err.Error())
		return nil
	case config.Reject:
		p.refusedKey(s, m)
		s.rejected++
		p.metrics.Rejected(s.name)
		line, jerr := json.Marshal(struct {
			Line   int64           `json:"line"`
			Stream string          `json:"stream"`
			Error  string          `json:"error"`
			Record json.RawMessage `json:"record"`
		}{m.Line, s.name, err.Error(), json.RawMessage(m.Record)})
		if jerr != nil {
			return fmt.Errorf("encode rejected record: %w", jerr)
		}
		p.log.Warn("rejecting invalid record", "err", err.Error(), "reject_path", p.cfg.RejectPath)
		return p.rejects.write(append(line, '\n'))
	}
	// The run stops here: say how to keep loading past such records.
	return fmt.Errorf("%w (set on_invalid_record to skip or reject to load the other records)", err)
}

// warnLayout logs each of the layout's warnings once per stream (a vector
// stored as JSON, binary kept as text; SPEC §5.2).
func (p *pipeline) warnLayout(s *stream, l *tablemap.Layout) {
	for _, w := range l.Warnings() {
		if s.warnedLayout[w] {
			continue
		}
		if s.warnedLayout == nil {
			s.warnedLayout = make(map[string]bool)
		}
		s.warnedLayout[w] = true
		p.log.Warn(w, "stream", s.name)
	}
}

func (p *pipeline) warnUnknown(s *stream, props ...string) {
	for _, prop := range props {
		if s.warnedUnknown == nil {
			s.warnedUnknown = make(map[string]bool)
		}
		if s.warnedUnknown[prop] || len(s.warnedUnknown) > tablemap.MaxUnknownReported {
			continue
		}
		if len(s.warnedUnknown) == tablemap.MaxUnknownReported {
			s.warnedUnknown[""] = true // past the cap: one last word
			p.log.Warn("more record properties are not in the schema; they are not loaded and no longer reported", "stream", s.name)
			continue
		}
		s.warnedUnknown[prop] = true
		p.log.Warn("record property is not in the schema; it is not loaded", "stream", s.name, "property", prop)
	}
}

func (p *pipeline) onStreamActivateVersion(m *singer.Message) error {
	if !p.cfg.ProcessActivateVersionMessages {
		p.log.Info("ignoring ACTIVATE_VERSION (process_activate_version_messages is false)", "stream", m.Stream)
		return nil
	}
	s := p.streams[m.Stream]
	if s == nil || s.layout == nil {
		p.log.Warn("ignoring ACTIVATE_VERSION for a stream without SCHEMA", "stream", m.Stream, "line", m.Line)
		return nil
	}
	if err := checkVersion(m); err != nil {
		return err
	}
	if err := p.needVersions(s, m.Line); err != nil {
		return err
	}
	if s.prune != nil {
		s.prune.activated = true
	}
	p.takeTable(s)
	p.flush(s)
	var sharers []string
	if s.turn != nil {
		for _, o := range s.turn.streams {
			if o != s {
				sharers = append(sharers, o.name)
			}
		}
	}
	// Input streams aliased into this one (stream maps) share its table
	// too: their rows do not record which input they came from.
	if feeds := p.feeds[s.name]; len(feeds) > 1 {
		for _, f := range feeds {
			if f.input != p.mapInput && !slices.Contains(sharers, f.input) {
				sharers = append(sharers, f.input)
			}
		}
	}
	p.enqueue(s, &job{kind: jobActivate, stream: s, layout: s.layout, line: m.Line, version: m.Version, at: canonicalTime(p.o.Now()), sharers: sharers, schemaInput: p.mapInput})
	return nil
}

func (p *pipeline) onBatch(m *singer.Message) error {
	br, err := batchfile.Open(m, batchfile.Options{Interrupt: p.interrupted, Refuse: p.writtenByRun})
	if err != nil {
		return batchFailed(err) // names the BATCH line, the stream and the file
	}
	defer br.Close()
	for {
		// A BATCH file may take long: signals are heard between rows and
		// (Interrupt) between reads.
		if err := p.interrupted(); err != nil {
			return err
		}
		rec, err := br.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return batchFailed(err)
		}
		if err := p.onRecord(rec); err != nil {
			return withFile(err, rec)
		}
	}
}

// batchFileError is a BATCH file that cannot be read (missing, not a
// file, not gzip): not the input's fault alone (exit 1, the file may come
// back), but like bad input it ends the run after committing what came
// before it and writing the state then true.
type batchFileError struct{ err error }

func (e *batchFileError) Error() string { return e.err.Error() }
func (e *batchFileError) Unwrap() error { return e.err }

// writtenByRun refuses a BATCH file that is one of the files the run
// writes: rejects appended to it would be read back as rows (a 2-row file
// grew to 88 MB), a summary would replace it. A configuration error (exit
// 2), found before anything of the file is read. A file the run reads
// (Options.OwnFile) is refused as the BATCH message's fault: its lines
// would load as rows.
func (p *pipeline) writtenByRun(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return nil // the open names what is wrong
	}
	if p.o.OwnFile != nil {
		if what := p.o.OwnFile(path); what != "" {
			return &inputerr.Error{Msg: fmt.Sprintf("the file is %s: a BATCH message must list files the tap wrote, not one the run itself reads or writes", what)}
		}
	}
	for _, w := range []struct{ key, path string }{
		{"reject_path", p.rejectPath()},
		{"summary_path", p.cfg.SummaryPath},
	} {
		if w.path == "" {
			continue
		}
		if wi, err := os.Stat(w.path); err == nil && os.SameFile(fi, wi) {
			return &config.Error{Key: w.key, Msg: fmt.Sprintf("%q is a file this BATCH message lists, which the run writes to: give %s a file of its own", w.path, w.key)}
		}
	}
	return nil
}

// rejectPath is reject_path when a reject policy writes it, else "".
func (p *pipeline) rejectPath() string {
	if p.rejects == nil {
		return ""
	}
	return p.rejects.path
}

// batchFailed classifies an error of the BATCH reader: input errors stay
// as they are; a signal stays a signal.
func batchFailed(err error) error {
	var ie *inputerr.Error
	var ce *config.Error
	if errors.As(err, &ie) || errors.As(err, &ce) || errors.Is(err, ErrStopped) || errors.Is(err, context.Canceled) {
		return err
	}
	return &batchFileError{err}
}

// interrupted reports a signal that came while the coordinator is busy
// with one long message: ErrStopped after the first (stop reading, drain),
// the context's error after the second.
func (p *pipeline) interrupted() error {
	select {
	case <-p.workCtx.Done():
		return p.workCtx.Err()
	case <-p.o.Stop:
		return ErrStopped
	default:
		return nil
	}
}

// withFile names the BATCH file row of a record's input error.
func withFile(err error, m *singer.Message) error {
	var ie *inputerr.Error
	if m.File != "" && errors.As(err, &ie) && ie.File == "" {
		ie.File, ie.FileLine = m.File, m.FileLine
	}
	return err
}

func (p *pipeline) newStream(name string) *stream {
	st := p.cfg.ForStream(name)
	s := &stream{name: name, settings: st, opts: p.tableOptions(name, st)}
	p.streams[name] = s
	s.ord = len(p.order)
	p.order = append(p.order, s)
	if p.o.StreamsChanged != nil {
		p.o.StreamsChanged(len(p.order))
	}
	return s
}

// inputErrorFrom turns a table-model error into an input error.
func inputErrorFrom(line int64, stream string, err error) error {
	var ie *inputerr.Error
	if errors.As(err, &ie) {
		if ie.Line == 0 {
			ie.Line = line
		}
		if ie.Stream == "" {
			ie.Stream = stream
		}
		return ie
	}
	var ce *table.ConfigError
	if errors.As(err, &ce) {
		prefix := fmt.Sprintf("stream %q", stream)
		if strings.HasPrefix(ce.Msg, prefix) {
			return lineConfigError(ce.Setting, line, ce.Msg) // the layout named it
		}
		return lineConfigError(ce.Setting, line, prefix+": "+ce.Msg)
	}
	return &inputerr.Error{Line: line, Stream: stream, Msg: err.Error()}
}

// lineConfigError is a setting that the message on line (a SCHEMA, or a
// RECORD; 0: none) cannot take, a configuration error (exit 2) that names
// the line as every other error about the input does: `config: KEY: line
// N: stream "s": …` (as stream_maps and default_target_schema do).
func lineConfigError(key string, line int64, msg string) error {
	if line > 0 {
		msg = fmt.Sprintf("line %d: %s", line, msg)
	}
	return &config.Error{Key: key, Msg: msg}
}

func joinPath(path []string) string {
	var b bytes.Buffer
	for i, p := range path {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// canonicalTime renders a time the target itself generates (receipt,
// batch, sync start) as canonical UTC text, cut to microseconds so that
// metadata columns stay TIMESTAMP(6).
func canonicalTime(t time.Time) string {
	return t.UTC().Truncate(time.Microsecond).Format("2006-01-02T15:04:05.999999Z")
}

// clockText caches the canonical text of the current microsecond: many
// records arrive within one, and formatting a time costs more than
// reading the clock.
//
// The texts are cut from a shared block, as rows are from the layout's
// (tablemap.Layout.Block): a buffer holds the block once for the many
// texts in it (ownerSet), where a string per microsecond was one owner
// per record with many streams interleaved, 16 bytes a record.
type clockText struct {
	micros int64
	s      string
	block  []byte
}

// clockBlockSize holds some 600 texts.
const clockBlockSize = 16 << 10

func (c *clockText) text(t time.Time) string {
	if us := t.UnixMicro(); us != c.micros || c.s == "" {
		v := canonicalTime(t)
		if cap(c.block)-len(c.block) < len(v) {
			c.block = make([]byte, 0, max(clockBlockSize, len(v)))
		}
		start := len(c.block)
		c.block = append(c.block, v...)
		c.micros, c.s = us, unsafe.String(&c.block[start], len(v))
	}
	return c.s
}

// Block returns the block the texts are cut from, all of its capacity
// (the ownerSet's hint, as Layout.Block).
func (c *clockText) Block() string {
	b := c.block[:cap(c.block)]
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// sequencer makes _SDC_SEQUENCE strictly increasing across runs: epoch
// microseconds × 1000 plus a counter, never going backwards.
type sequencer struct {
	base int64
	last int64
}

func (q *sequencer) next(now time.Time) int64 {
	v := now.UnixMicro() * 1000
	if v <= q.last {
		v = q.last + 1
	}
	q.last = v
	return v
}

// holdsStates reports whether the stream's first flush of the run removes
// rows (overwrite replaces the table, truncate_before_load truncates it):
// a resumed run would remove them again, so no STATE covering its records
// may be written before the end of input (SPEC §6.2, §7 rule 3).
func (p *pipeline) holdsStates(s *stream) bool {
	return s.settings.Overwrite() || p.cfg.TruncateBeforeLoad || s.prune != nil
}

// holdStates holds the frontier at the stream's first record until the end
// of input. A STATE covers every stream, so this holds back all states;
// users see why in the log.
func (p *pipeline) holdStates(s *stream, line int64) {
	s.firstRecord = line
	if p.hold == 0 {
		p.hold = line // later records' lines are greater
	}
	p.openLine(line) // frontier.go
	why := "load_method is overwrite"
	switch {
	case p.cfg.TruncateBeforeLoad:
		why = "truncate_before_load is true"
	case s.prune != nil:
		why = "delete_missing is " + s.prune.mode
	}
	p.log.Info("states are held until the end of input: a resumed run would remove this stream's rows again",
		"stream", s.name, "reason", why)
	p.metrics.HoldStates(s.name, why)
}
