package pipeline

import (
	"fmt"

	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/tablemap"
)

// Streams sharing a table (table_name_mappings, stream-map aliases of
// different streams) must load it as one stream would: in input order, the
// last record per key winning and replacing the whole row (SPEC §4, §6.2,
// §7.6). Each stream keeps its own buffer and queue, so three rules hold
// the table's loads together, whatever max_parallelism says:
//
//   - A switch is a flush point: before a record of stream s is buffered
//     for a table, the stream whose buffer holds rows for it is flushed
//     (takeTable). So at most one stream has rows buffered for a table,
//     and its rows all come after every row already handed to a worker.
//   - The table's jobs run in the order they were queued (tableTurn): a
//     job starts only once every job queued for its table before it has
//     finished. A job waits only on jobs queued before it (its stream's,
//     its table's), so the earliest unfinished job can always start: no
//     cycle, no deadlock. Jobs that wait stay in their stream's queue,
//     where the frontier sees them: no STATE passes them.
//   - An upsert sets the table's columns its stream's layout lacks (the
//     other streams' properties) to NULL (nullColumns).
//   - overwrite and truncate_before_load empty the table at its first
//     batch of the run, not at each stream's (firstLoad), and never a
//     table whose comment named another stream when the run began
//     (emptyRefused): its rows from earlier runs would go.
//   - A batch's values are converted to the table's column types when
//     another stream widened a column after this stream's layout was made
//     (convertTo): a boolean in a column widened to text is true/false.

// tableTurn orders the jobs of one table. Only the coordinator reads or
// writes it.
type tableTurn struct {
	name   string // SCHEMA.TABLE
	issued uint64 // tickets handed out, one per job, in enqueue order
	done   uint64 // jobs finished: the job holding ticket done may start
	// streams load into the table, in order of joining; holder is the one
	// whose buffer may hold rows for it.
	streams []*stream
	holder  *stream
	loaded  bool // a batch of the table started in this run
	// prior are the streams the table's comment named when the run
	// first read it (nil: a new table, or one without the target's
	// comment): the streams whose rows it may hold from earlier runs.
	prior []string
}

// wasLoaded reports whether a batch of the table started in this run: the
// next one then empties nothing.
func (t *tableTurn) wasLoaded() bool { return t != nil && t.loaded }

// firstLoad reports whether no batch of the table started before in this
// run. Overwrite replaces, and truncate_before_load truncates, the table
// at its first batch only: at a later stream's first batch the table
// holds this run's rows of the streams before it.
func (t *tableTurn) firstLoad() bool {
	if t == nil {
		return true
	}
	first := !t.loaded
	t.loaded = true
	return first
}

// joinTable makes s one of the streams of the layout's table.
func (p *pipeline) joinTable(s *stream, l *tablemap.Layout, existing *table.Table) {
	name := l.Table().QualifiedName()
	if s.turn != nil && s.turn.name == name {
		return
	}
	if p.turns == nil {
		p.turns = map[string]*tableTurn{}
	}
	t := p.turns[name]
	if t == nil {
		t = &tableTurn{name: name}
		if existing != nil {
			t.prior = append([]string(nil), existing.Streams...)
		}
		p.turns[name] = t
	}
	s.turn = t
	t.streams = append(t.streams, s)
}

// takeTable flushes the rows another stream buffered for s's table, so
// that they reach the table before s's next record does.
func (p *pipeline) takeTable(s *stream) {
	t := s.turn
	if t == nil || t.holder == s {
		return
	}
	if h := t.holder; h != nil {
		p.flush(h)
	}
	t.holder = s
}

// ticket gives j its place among the table's jobs.
func (t *tableTurn) ticket(j *job) {
	if t == nil {
		return
	}
	j.turn, j.ticket = t, t.issued
	t.issued++
}

// came reports whether j may start: every job queued for its table
// before it has finished.
func (t *tableTurn) came(j *job) bool {
	return t == nil || t.done == j.ticket
}

// passTurn lets the next job of j's table start: the streams of the table
// with a job waiting become ready again.
func (p *pipeline) passTurn(j *job) {
	t := j.turn
	if t == nil {
		return
	}
	t.done++
	if len(t.streams) < 2 {
		return // the stream's own queue order is the table's
	}
	for _, o := range t.streams {
		if o != j.stream && !o.running && !o.queued && len(o.queue) > 0 {
			o.queued = true
			p.ready = append(p.ready, o)
		}
	}
}

// nullColumns are the columns of t, the table as the load found it, that
// the stream's layout table lt does not have and the database does not
// fill: another stream loading into the table brought them. A record
// replaces the whole row (SPEC §6.2), so an upsert sets them to NULL,
// as it does a column of its own layout the record has no value for.
// (Ignored columns and columns of the table from before the run are in
// lt: a layout keeps an existing table's columns.)
func nullColumns(t, lt *table.Table) []string {
	if len(t.Columns) == len(lt.Columns) {
		return nil // t has every column of lt (the write needs them): the same columns
	}
	mine := make(map[string]bool, len(lt.Columns))
	for _, c := range lt.Columns {
		mine[c.Name] = true
	}
	var out []string
	for _, c := range t.Columns {
		if !mine[c.Name] && !c.DatabaseFills() && c.Nullable {
			out = append(out, c.Name)
		}
	}
	return out
}

// convertTo brings the buffered values to the column types of t, the
// table the batch is written to. The row builder made them for the
// layout's types; when another stream sharing the table widened a column
// since (a boolean property's NUMBER(1) to text, as its string property
// needs), a value must land with exactly the text a value made for the
// wider type gets, as a migrated one does (SPEC §5.5): "true", not "1".
// table.MigrateValue is that one rule, for both engines. The types the
// values are in are kept, so converting the buffer again changes nothing
// (a DATE's midnight is not appended twice). The conversions keep the
// order of keys (0 < 1, false < true; a date and its midnight), so the
// buffer's key order still holds.
func (b *buffer) convertTo(t *table.Table) error {
	lt := b.layout.Table()
	for c := range lt.Columns {
		from := lt.Columns[c].Type
		if b.types != nil {
			from = b.types[c]
		}
		tc := columnNamed(t, c, lt.Columns[c].Name)
		if tc == nil || !table.ConvertsOnWrite(from, tc.Type) {
			continue
		}
		for i := range b.rows() {
			vals := b.row(i)
			v, err := table.MigrateValue(from, tc.Type, vals[c])
			if err != nil {
				return fmt.Errorf("table %s: column %s: value of line %d: %w", t.QualifiedName(), tc.Name, b.lines[i], err)
			}
			b.set(vals, c, v)
		}
		if b.types == nil {
			b.types = make([]table.Type, len(lt.Columns))
			for k, col := range lt.Columns {
				b.types[k] = col.Type
			}
		}
		b.types[c] = tc.Type
	}
	return nil
}

// columnNamed is t's column name, looked up at position c first: a
// layout's columns usually stand where the table has them, and a batch
// of a wide table should not search it once per column.
func columnNamed(t *table.Table, c int, name string) *table.Column {
	if c < len(t.Columns) && t.Columns[c].Name == name {
		return &t.Columns[c]
	}
	return t.Column(name)
}

// emptyRefused lists the streams, besides s, whose rows from earlier runs
// the table may hold, and where they come from (otherSharers): those its
// comment named when the run first read it, and those the configuration
// maps to it (table_name_mappings) that do not load it in this run so
// far. The first batch of a stream that empties its table (load_method
// overwrite, truncate_before_load) is refused then, whether or not it is
// the table's first batch of the run (and, for a stream the comment
// names, whoever else comes in this run). The rows do not record their
// stream, and a sharer that sends no record in this run keeps its rows
// only this way.
func (p *pipeline) emptyRefused(t *tableTurn, s *stream) ([]string, string) {
	if t == nil {
		return nil, ""
	}
	var thisRun []string
	for _, o := range t.streams {
		thisRun = append(thisRun, o.name)
		for _, f := range p.feeds[o.name] { // aliased inputs (recordInputs)
			thisRun = append(thisRun, f.input)
		}
	}
	return p.otherSharers(t.name, t.prior, []string{s.name}, thisRun)
}
