package pipeline

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/target-oracle/target-oracle/internal/batch"
	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/tablemap"
)

// maxStreamsWithSpare bounds buffer reuse: with more streams than this a
// loaded batch's memory is given back instead of kept per stream, so that
// thousands of mostly idle streams do not each hold a grown buffer.
const maxStreamsWithSpare = 64

type jobKind uint8

const (
	jobEnsure   jobKind = iota + 1 // create or evolve the table for a new SCHEMA
	jobBatch                       // load a batch of rows
	jobActivate                    // ACTIVATE_VERSION
)

// job is one unit of database work for a stream. A stream's jobs run one
// at a time, in input order.
//
// Ownership: the coordinator fills a job's fields up to refused before
// the job starts (go p.work) and does not change them after; the worker
// writes only noWiden and refused, which the coordinator reads once the
// result arrived (complete). The job's buffer belongs to the worker while
// the job runs, and to the coordinator again after. A worker never
// touches its stream (stream.go): what it needs of it is copied in here
// when the job is queued (enqueue), or is the stream's streamWork.
type job struct {
	kind   jobKind
	stream *stream // the coordinator's: a worker never reads or writes through it
	line   int64   // lowest input line the job covers (noLine: none)
	// sess is the idle session dispatch handed the job (nil: the worker
	// opens one); the worker returns it to the pool.
	sess engine.Session

	// Copied from the stream when the job is queued.
	name     string
	settings config.StreamSettings
	opts     table.Options // the stream's table options when the job was queued
	work     *streamWork
	// layout is shared: what workers read of it (table, keys, metadata
	// columns) is fixed when it is built; its row-building scratch is the
	// coordinator's.
	layout *tablemap.Layout

	buf *buffer // jobBatch

	version    string   // jobActivate
	sharers    []string // jobActivate: the other streams of this run loading into the table
	loaders    []string // jobBatch that replaces the table (overwrite): the streams of this run loading into it
	emptiers   []string // jobBatch, a stream's first, that would empty a table other streams load (emptyRefused): refused
	emptyWhy   string   // where emptiers come from (otherSharers)
	schemaLine int64    // jobEnsure: the SCHEMA's input line, for errors
	// schemaInput is the input stream whose SCHEMA (jobEnsure) or
	// ACTIVATE_VERSION (jobActivate) a stream map turned into this one's
	// ("": the stream's own), for errors.
	schemaInput string
	at          string

	// The coordinator's: the job's place among its table's jobs (shared.go).
	turn   *tableTurn
	ticket uint64

	// Decided by the coordinator when the job starts.
	replace, truncate bool
	replacesRows      bool           // jobEnsure: the stream's next batch is its first flush, which replaces the table's rows (keyreplace.go)
	addKey            *engine.Change // jobBatch: the primary key to add after the batch commits (keyreplace.go)
	reuse             bool           // few streams: the worker may keep per-stream scratch (see maxStreamsWithSpare)

	// Set by the worker (on_database_error: reject, reject.go).
	noWiden bool      // the table kept columns some values do not fit: those rows are refused
	refused []refusal // records the database refused, for the coordinator to write
}

// streamWork is the part of a stream's state that the workers running
// its jobs own: scratch kept from batch to batch and the once-per-stream
// warnings. The coordinator makes it before the stream's first job and
// never touches it again. A stream's jobs never overlap, and each starts
// after the coordinator received the result of the one before (results,
// then go p.work), so the workers take turns without a lock.
type streamWork struct {
	dedupe             map[string]int // write's key → row map (batch.Folder), emptied after each batch
	warnedKeyless      bool           // hard_delete on a stream without key_properties: said once
	warnedNoConstraint bool           // an upsert found its table without a primary key: said once
	historyAdjusted    bool           // history: the +1 µs valid-from adjustment was logged
}

type jobResult struct {
	job *job
	res engine.Result
	err error
}

// flush hands the stream's buffered rows to a worker.
func (p *pipeline) flush(s *stream) {
	if s.halted || s.buf == nil || s.buf.rows() == 0 {
		return
	}
	b := s.buf
	b.seal()
	s.buf = p.nextBuffer(s, b.rows())
	p.dropped(s) // largest.go
	p.bufs.engineRows(b)
	p.enqueue(s, &job{kind: jobBatch, stream: s, layout: b.layout, line: b.minLine, buf: b})
	if p.cfg.FlushAllStreams {
		for _, o := range p.order {
			if o != s && !o.halted && o.buf != nil && o.buf.rows() > 0 {
				ob := o.buf
				ob.seal()
				o.buf = p.nextBuffer(o, ob.rows())
				p.dropped(o)
				p.bufs.engineRows(ob)
				p.enqueue(o, &job{kind: jobBatch, stream: o, layout: ob.layout, line: ob.minLine, buf: ob})
			}
		}
	}
}

// enqueue adds a job to its stream's queue and starts it when a worker is
// free. It then waits until no job is left waiting for a worker: a stream
// has at most one batch loading while the next one fills, which bounds
// memory and lets each STATE be written as soon as the batches before it
// commit.
func (p *pipeline) enqueue(s *stream, j *job) {
	if s.work == nil {
		s.work = &streamWork{}
	}
	j.name, j.settings, j.opts, j.work = s.name, s.settings, s.opts, s.work // workers never read s
	j.reuse = len(p.order) <= maxStreamsWithSpare
	s.turn.ticket(j) // shared.go: the table's jobs run in input order
	s.queue = append(s.queue, j)
	if j.kind != jobBatch { // a batch takes over its buffer's open line (frontier.go)
		p.openLine(j.line)
	}
	p.waiting++
	if !s.running && !s.queued {
		s.queued = true
		p.ready = append(p.ready, s)
	}
	p.dispatch()
	for p.waiting > 0 && p.running > 0 && !p.noStart {
		p.awaitResult()
	}
}

// awaitResult waits for one job to finish, or for the shutdown deadline,
// after which no new job starts. A first signal heard here, while a
// message waits for a job, starts the shutdown clock; the main loop
// drains once the chunk of input in hand is handled.
func (p *pipeline) awaitResult() {
	var stop <-chan struct{}
	if !p.heardStop && !p.draining {
		stop = p.o.Stop
	}
	select {
	case r := <-p.results:
		p.complete(r)
	case <-stop:
		p.startShutdownClock()
	case <-p.deadline:
		p.deadline = nil
		p.noStart = true
		p.log.Warn("shutdown_timeout_seconds reached: no new batches are started")
	}
}

// dispatch starts the first job of ready streams while workers are free.
func (p *pipeline) dispatch() {
	if p.failed != nil || p.noStart {
		return
	}
	for len(p.ready) > 0 && p.running < p.cfg.MaxParallelism {
		s := p.ready[0]
		p.ready = p.ready[1:]
		s.queued = false
		if s.running || s.halted || len(s.queue) == 0 {
			continue
		}
		j := s.queue[0]
		if !j.turn.came(j) {
			continue // an earlier job of its table runs or waits: that one's end wakes s (passTurn)
		}
		if j.kind == jobEnsure {
			j.replacesRows = !s.flushed && !j.turn.wasLoaded() && (s.settings.Overwrite() || p.cfg.TruncateBeforeLoad)
		}
		if j.kind == jobBatch {
			if !s.flushed && (s.settings.Overwrite() || p.cfg.TruncateBeforeLoad) {
				j.emptiers, j.emptyWhy = p.emptyRefused(j.turn, s) // shared.go
			}
			first := !s.flushed && j.turn.firstLoad() // shared.go: once per table, not per stream
			s.flushed = true
			j.replace = first && s.settings.Overwrite() && !p.cfg.TruncateBeforeLoad
			j.truncate = first && p.cfg.TruncateBeforeLoad
			if j.replace {
				j.loaders = []string{s.name}
				if j.turn != nil {
					j.loaders = j.loaders[:0]
					for _, o := range j.turn.streams {
						j.loaders = append(j.loaders, o.name)
					}
				}
				for _, l := range j.loaders {
					for _, f := range p.feeds[l] { // aliased inputs (recordInputs)
						j.loaders = append(j.loaders, f.input)
					}
				}
			}
		}
		s.running = true
		p.running++
		p.waiting--
		// An idle session is handed out here, in job order, not taken by
		// whichever worker runs first: which session a job gets, and so
		// whether it opens one, follows the input (the simulation's
		// replays depend on it).
		select {
		case j.sess = <-p.sessions:
		default:
		}
		p.wg.Add(1)
		select {
		case p.handOff <- j: // a worker waiting for one
		default:
			go p.worker(j)
		}
		if raceEnabled {
			s.touch()
		}
	}
}

// complete takes a finished job's result on the coordinator goroutine.
func (p *pipeline) complete(r jobResult) {
	p.running--
	s := r.job.stream
	s.running = false
	if r.err != nil {
		// The failed job stays queued: its records are not committed, so
		// the frontier must not pass them.
		var ie *inputerr.Error
		var ee *table.EvolutionError
		if (errors.As(r.err, &ie) || errors.As(r.err, &ee)) && p.failed == nil {
			// The input is at fault, not the database, or the settings
			// refuse what it needs (schema_evolution; still exit 1): halt
			// the stream and let the run drain the others (SPEC §8: commit
			// what came before the bad line, write the state then true),
			// as a refusal found at the SCHEMA (a key change) does,
			// whatever the timing of the job that found it.
			s.halted = true
			if p.inputStop == nil {
				p.inputStop = r.err
			}
			return
		}
		p.fail(r.err)
		return
	}
	// Clear the slot: the queue's array outlives the slice, and a loaded
	// batch kept there holds its rows until the array goes (with many
	// streams, one batch each beyond max_buffered_bytes).
	p.closeLine(s.queue[0].line) // frontier.go
	s.queue[0] = nil
	s.queue = s.queue[1:]
	p.passTurn(r.job)
	if err := p.writeRefused(r.job); err != nil { // before any state covering them
		p.fail(err)
		return
	}
	if r.job.buf != nil {
		p.buffered -= r.job.buf.bytes
		p.release(s, r.job.buf) // the worker is done with it (bufpool.go)
	}
	if len(s.queue) > 0 && !s.queued {
		s.queued = true
		p.ready = append(p.ready, s)
	}
	if err := p.advance(); err != nil {
		p.fail(err)
		return
	}
	p.dispatch()
}

// worker runs job j, then each job dispatch hands it (handOff) until the
// run ends (quit). A worker goroutine lives for the run rather than for
// one job: a new goroutine's stack grows again for every job (copied,
// frame by frame, a few times), some 70,000 instructions a job, which a
// run of 1,000 streams pays thousands of times. At most about two
// workers per job that runs at once: one may not be waiting yet when
// the next job is dispatched.
func (p *pipeline) worker(j *job) {
	for {
		p.work(j)
		select {
		case j = <-p.handOff:
		case <-p.quit:
			return
		}
	}
}

// work runs one job on a worker goroutine.
func (p *pipeline) work(j *job) {
	defer p.wg.Done()
	if p.o.BeforeJob != nil {
		p.o.BeforeJob(j.name)
	}
	start := time.Now()
	res, err := p.runJob(p.workCtx, j)
	if j.kind == jobBatch {
		if err != nil {
			p.metrics.FailedBatch(j.name, time.Since(start))
		} else {
			p.metrics.Loaded(j.name, res.Written, res.Inserted, res.Updated, res.Deleted, res.Known, time.Since(start))
		}
	}
	p.results <- jobResult{job: j, res: res, err: err}
}

func (p *pipeline) runJob(ctx context.Context, j *job) (engine.Result, error) {
	sess := j.sess
	if sess == nil {
		var err error
		if sess, err = p.session(ctx, j.name); err != nil {
			return engine.Result{}, err
		}
	}
	defer func() { p.sessions <- sess }()
	t := j.layout.Table()
	unlock := p.tables.lock(t.QualifiedName())
	defer unlock()
	switch j.kind {
	case jobEnsure:
		_, err := p.reconcile(ctx, sess, j, nil)
		return engine.Result{}, err
	case jobBatch:
		return p.load(ctx, sess, j)
	case jobActivate:
		return engine.Result{}, p.activate(ctx, sess, j)
	}
	return engine.Result{}, fmt.Errorf("unknown job kind %d", j.kind)
}

// session takes an idle session or opens one; at most max_parallelism
// exist because at most that many jobs run.
func (p *pipeline) session(ctx context.Context, name string) (engine.Session, error) {
	select {
	case s := <-p.sessions:
		return s, nil
	default:
	}
	s, err := p.o.Engine.Session(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("open session: %w", err)
	}
	return s, nil
}

// reconcile brings the table to the shape the layout and the batch's
// values need, running the DDL, and returns the table after it.
func (p *pipeline) reconcile(ctx context.Context, sess engine.Session, j *job, stats []table.Stats) (*table.Table, error) {
	want := j.layout.Table()
	cur, err := p.tables.describe(ctx, want.Schema, want.Name)
	if err != nil {
		return nil, fmt.Errorf("describe %s: %w", want.QualifiedName(), err)
	}
	if cur, err = p.tables.indexes(ctx, cur, want); err != nil {
		return nil, fmt.Errorf("describe %s: %w", want.QualifiedName(), err)
	}
	next, changes, noWiden, err := p.reconcileRejecting(cur, want, stats, j.opts)
	j.noWiden = noWiden
	if err != nil {
		return nil, refusalContext(j, cur, jobInputError(j, unfitLine(j, cur, err))) // names the table and the refused DDL
	}
	loadWith := next // the table the batch is written to
	if slices.ContainsFunc(changes, func(c table.Change) bool { return c.Kind == table.ReplaceKey }) {
		plan, err := p.keyMayChange(ctx, sess, j, cur, want)
		if err != nil {
			return nil, err
		}
		switch plan {
		case keyReplayed:
			return cur, nil // the table stays as the later SCHEMA made it
		case keyLater:
			next, changes = keepKey(cur, next, changes)
			loadWith = next
		case keyAroundLoad:
			next, changes, j.addKey = splitKeyChange(cur, next, changes)
		}
	}
	for _, ch := range changes {
		// DBAs want to know what DDL a load runs, and when.
		p.log.Info("schema change", "table", want.QualifiedName(), "change", ch.String())
		if err := sess.Apply(ctx, engine.Change{Table: next, Change: ch}); err != nil {
			// The catalog may now differ from what we cached: read it
			// again next time.
			p.tables.forget(want.Schema, want.Name)
			return nil, fmt.Errorf("table %s: %w", want.QualifiedName(), err)
		}
	}
	p.tables.set(next)
	return loadWith, nil
}

// unfitLine gives an input error refusing what one column's values need
// (table.UnfitColumn) the line of the batch's first record whose value
// does not fit the column cur has, as the error of a single record would.
func unfitLine(j *job, cur *table.Table, err error) error {
	var ie *inputerr.Error
	var u *table.UnfitColumn
	if j.buf == nil || cur == nil || !errors.As(err, &ie) || ie.Line != 0 || !errors.As(err, &u) {
		return err
	}
	if i := unfitRow(j, cur, cur.Column(u.Column)); i >= 0 {
		ie.Line = j.buf.lines[i]
		if ie.File == "" {
			ie.File, ie.FileLine = j.buf.fileOf(i)
		}
		if ie.Stream == "" {
			ie.Stream = j.name
		}
		return namedInput(err, rowInput(j, i), j.name)
	}
	return err
}

// unfitRow returns the index in the batch of its first record whose
// value does not fit col as it is; -1 when none (or col is nil).
func unfitRow(j *job, cur *table.Table, col *table.Column) int {
	if col == nil || j.buf == nil {
		return -1
	}
	ceiling := j.opts.VarcharMaxBytes
	if ceiling <= 0 {
		ceiling = table.DefaultVarcharMaxBytes
	}
	lt := j.buf.layout.Table()
	for c := range lt.Columns {
		if columnNamed(cur, c, lt.Columns[c].Name) != col {
			continue
		}
		for i := range j.buf.rows() {
			if v := j.buf.row(i)[c]; v != "" && unfit(col, v, ceiling) != "" {
				return i
			}
		}
	}
	return -1
}

// refusalContext prefixes a schema_evolution refusal with the input line
// and stream that asked for it, as every other input-driven failure reads
// ("line 4: stream \"s\": table … needs changes …"): the SCHEMA's line, or
// for a batch whose values need the change the first record whose value
// does not fit the column as it is. It stays a load failure (exit 1): the
// input is valid, the settings forbid what it needs.
func refusalContext(j *job, cur *table.Table, err error) error {
	var ee *table.EvolutionError
	if !errors.As(err, &ee) {
		return err
	}
	line, file, fileLine := jobLine(j), "", int64(0)
	row := lineRow(j, line)
	if j.kind != jobEnsure && j.buf != nil && cur != nil {
		if i := firstUnfitRow(j, cur, ee.Refused); i >= 0 {
			line, row = j.buf.lines[i], i
			file, fileLine = j.buf.fileOf(i) // a BATCH row is named as its own errors are
		}
	}
	stream := streamText(j.name, rowInput(j, row)) // the row's input stream, as its own errors (inputrows.go)
	switch {
	case line == 0:
		return fmt.Errorf("%s: %w", stream, err)
	case file != "":
		return fmt.Errorf("line %d: BATCH file %q row %d: %s: %w", line, file, fileLine, stream, err)
	}
	return fmt.Errorf("line %d: %s: %w", line, stream, err)
}

// lineRow returns the index of j's row of input line line, -1 when j has
// no such row (a SCHEMA's check, line 0). Errors only: it walks the rows.
func lineRow(j *job, line int64) int {
	if j.kind == jobEnsure || j.buf == nil || line == 0 {
		return -1
	}
	for i, l := range j.buf.lines {
		if l == line {
			return i
		}
	}
	return -1
}

// firstUnfitRow returns the index in the batch of its first record with a
// value that does not fit, in cur, a column one of the changes is for; -1
// when none is found.
func firstUnfitRow(j *job, cur *table.Table, changes []table.Change) int {
	first := -1
	for _, ch := range changes {
		if i := unfitRow(j, cur, cur.Column(ch.Column)); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	return first
}

// jobLine is the input line a job's errors name: the SCHEMA's for a
// SCHEMA's check, the batch's first record's otherwise (SPEC §8); 0 when
// there is none.
func jobLine(j *job) int64 {
	line := j.schemaLine
	if j.kind != jobEnsure || line == 0 {
		line = j.line
	}
	if line == noLine {
		return 0
	}
	return line
}

// jobInputError gives an input error of the table model (a table that
// would need more columns than Oracle allows) the job's stream and line:
// the SCHEMA's, or the batch's first record's.
func jobInputError(j *job, err error) error {
	var ie *inputerr.Error
	if !errors.As(err, &ie) {
		return err
	}
	if ie.Stream == "" {
		ie.Stream = j.name
	}
	if ie.Line == 0 {
		ie.Line = jobLine(j)
	}
	namedInput(ie, rowInput(j, lineRow(j, ie.Line)), j.name)
	return ie
}

// keyMayChange allows replacing the primary key only on an empty table,
// or at the first flush of a stream that replaces the table's rows
// (SPEC §4, keyreplace.go); on a table with rows otherwise it fails with
// both key sets and the manual procedure.
//
// A SCHEMA (not a batch) whose key is the one the table's comment records
// as replaced is the input from before the change, re-sent by a run
// resumed from an earlier state (SPEC §7.6): replayed is true, and the
// table keeps its key. The SCHEMA after it in the input re-states the new
// key; a record under the old key still fails here, as its batch's check.
func (p *pipeline) keyMayChange(ctx context.Context, sess engine.Session, j *job, cur, want *table.Table) (keyPlan, error) {
	has := true
	if rc, ok := p.o.Engine.(engine.RowChecker); ok {
		var err error
		if has, err = rc.HasRows(ctx, cur); err != nil {
			return keyNow, err
		}
	}
	if !has {
		p.log.Warn("key_properties changed: replacing the primary key of the empty table",
			"table", cur.QualifiedName(), "from", cur.PrimaryKey, "to", want.PrimaryKey)
		return keyNow, nil
	}
	if plan, ok, err := p.rowsReplacedFirst(ctx, sess, j, cur, want); ok || err != nil {
		return plan, err
	}
	// Only a stream the comment names replays: another stream mapped to
	// the table with the old key is a key disagreement (SPEC §4).
	if j.kind == jobEnsure && cur.KeyReplaced(want.PrimaryKey) && table.StreamsInclude(cur.Streams, j.name) {
		p.log.Info("SCHEMA with the key the table had before its key was replaced: input from before the change, replayed; the table keeps its key",
			"table", cur.QualifiedName(), "stream", j.name, "line", j.schemaLine, "key", cur.PrimaryKey, "schema_key", want.PrimaryKey)
		return keyReplayed, nil
	}
	how := "To change it by hand: run "
	if len(want.PrimaryKey) > 0 {
		how = "To change it by hand: make sure the new key columns are unique and not null in the existing rows, then run "
	}
	steps := oraclesql.KeyChangeByHand(cur, want.PrimaryKey, j.opts.IdentifierMaxBytes)
	return keyNow, namedInput(&inputerr.Error{Line: jobLine(j), Stream: j.name, Msg: fmt.Sprintf(
		"key_properties changed from %v to %v, but table %s has rows and its primary key is not changed automatically. "+
			"%s%s and run the load again. "+
			"Or load the stream into a new table (table_name_mappings) from a full refresh. See docs/types.md.",
		cur.PrimaryKey, want.PrimaryKey, cur.QualifiedName(), how, strings.Join(steps, " "))}, rowInput(j, lineRow(j, jobLine(j))), j.name)
}

func (p *pipeline) load(ctx context.Context, sess engine.Session, j *job) (engine.Result, error) {
	if len(j.emptiers) > 0 {
		// Before any DDL of the batch: a refused load changes nothing.
		return engine.Result{}, p.emptyRefusal(j)
	}
	t, err := p.reconcile(ctx, sess, j, j.buf.stats)
	if err != nil {
		return engine.Result{}, err
	}
	if err := j.buf.convertTo(t); err != nil { // shared.go
		return engine.Result{}, err
	}
	if j.truncate {
		if err := sess.Truncate(ctx, t); err != nil {
			return engine.Result{}, fmt.Errorf("truncate %s: %w", t.QualifiedName(), err)
		}
	}
	if j.settings.History() {
		return p.loadHistory(ctx, sess, j, t)
	}
	w := p.write(j, t)
	if err := j.buf.checkHeldUnderRace(); err != nil {
		return engine.Result{}, err
	}
	var steps []engine.Step
	if j.replace {
		if others, why := p.otherSharers(t.QualifiedName(), t.Streams, j.loaders, nil); len(others) > 0 { // sharers.go
			// Streams of other runs load the table too (its comment names
			// them, or the configuration maps them there): replacing it
			// would take their rows, which do not record their stream.
			return engine.Result{}, lineConfigError("load_method", j.line, fmt.Sprintf(
				"stream %q: load_method overwrite would replace table %s, which also holds the rows of stream(s) %s (%s), "+
					"loaded by other runs: map the streams to tables of their own, or load them all in one run", j.name, t.QualifiedName(), strings.Join(others, ", "), why))
		}
		steps = append(steps, &engine.Replace{Table: t})
	}
	steps = append(steps, w)
	var res engine.Result
	if p.rejectingRows() {
		res, err = p.loadRejecting(ctx, sess, j, steps, w, j.noWiden)
	} else {
		res, err = p.loadOnce(ctx, sess, steps, w)
	}
	if err != nil {
		if in := refusedInputs(j, err); in != "" {
			// Rows came from input streams mapped into this one
			// (__alias__): name the refused row's, as its record's own
			// errors do, or the batch's (inputrows.go).
			return res, fmt.Errorf("load %s: %s: %w", t.QualifiedName(), in, err)
		}
		return res, fmt.Errorf("load %s: %w", t.QualifiedName(), err)
	}
	return res, p.addKeyAfterLoad(ctx, sess, j)
}

// write builds the data step of a batch: rows classified (upsert, soft or
// hard delete), folded by key for upserts (batch.Folder: the last record
// wins; a delete is a record), batch metadata stamped. An append-only
// batch keeps every row; loadSteps then orders its hard deletes.
func (p *pipeline) write(j *job, t *table.Table) *engine.Write {
	l, b, work := j.layout, j.buf, j.work
	lt := l.Table()
	cols := make([]string, len(lt.Columns))
	for i, c := range lt.Columns {
		cols[i] = c.Name
	}
	shape := j.shape()
	keys := shape.Keys
	keyCols := make([]string, len(keys))
	for i, k := range keys {
		keyCols[i] = cols[k]
	}
	w := &engine.Write{Table: t, Method: engine.Insert, Columns: cols, KeyColumns: keyCols}
	upsert := len(keys) > 0 && !j.settings.AppendOnly()
	if upsert {
		w.Method = engine.Upsert
		w.NullColumns = nullColumns(t, lt) // shared.go
	}
	batched := canonicalTime(p.o.Now())
	batchedIdx := l.MetaIndex(table.MetaBatchedAt)
	runIdx := l.MetaIndex(table.MetaRunID) // delete_missing: what this run wrote
	if i := l.MetaIndex(table.MetaLoadedAt); i >= 0 {
		w.DatabaseTime = cols[i]
	}
	for _, m := range shape.Meta {
		w.MetadataColumns = append(w.MetadataColumns, cols[m])
	}
	n := b.rows()
	// The rows go with the buffer, which is reused once the batch is
	// loaded (stream.spare): nothing keeps them after the load.
	rows := slices.Grow(b.engineRows[:0], n)
	defer func() { b.engineRows = rows[:0] }()
	// Keys in increasing order cannot repeat (buffer.commitRow tells):
	// such a batch, the usual one, needs no folding. Append-only batches
	// keep every row (loadSteps orders their hard deletes).
	var fold batch.Folder
	folding := upsert && b.unordered
	if folding {
		// One map per stream, emptied per batch, so its buckets are reused;
		// with many streams, as with spare buffers, memory per idle stream
		// matters more.
		last := work.dedupe
		if last == nil {
			last = make(map[string]int, n)
			if j.reuse {
				work.dedupe = last
			}
		}
		defer clear(last) // drop the batch's keys, keep the buckets
		// Under on_database_error: reject the records stay as read: a
		// refusal builds the batch's rows again from them (reject.go).
		fold = batch.NewFolder(&shape, last, p.rejectingRows())
	}
	for i := 0; i < n; i++ {
		vals := b.row(i)
		if batchedIdx >= 0 {
			b.set(vals, batchedIdx, batched)
		}
		if runIdx >= 0 {
			b.set(vals, runIdx, p.runID)
		}
		r := engine.Row{Kind: shape.Kind(vals), Line: b.lines[i], Values: vals}
		if folding {
			rows, _, _ = fold.Add(rows, r)
			continue
		}
		rows = append(rows, r)
	}
	if upsert && len(t.PrimaryKey) == 0 && !work.warnedNoConstraint {
		work.warnedNoConstraint = true
		p.log.Warn("upsert into a table without a PRIMARY KEY constraint: rows are matched on the key columns, and a key may stand in several rows",
			"stream", j.name, "table", t.QualifiedName(), "key", keyCols)
	}
	if j.settings.HardDelete && len(keys) == 0 && shape.Deleted >= 0 && !work.warnedKeyless {
		work.warnedKeyless = true
		p.log.Warn("hard_delete on a stream without key_properties: deletes are appended as soft deletes", "stream", j.name)
	}
	w.Rows = rows
	return w
}

// shape is what batch assembly needs to know of the job's columns.
func (j *job) shape() batch.Shape {
	l := j.layout
	sh := batch.Shape{Keys: l.KeyIndexes(), Deleted: l.MetaIndex(table.MetaDeletedAt), HardDelete: j.settings.HardDelete}
	for i, c := range l.Table().Columns {
		if c.Role == table.RoleMetadata {
			sh.Meta = append(sh.Meta, i)
		}
	}
	return sh
}

func (p *pipeline) activate(ctx context.Context, sess engine.Session, j *job) error {
	want := j.layout.Table()
	cur, err := p.tables.describe(ctx, want.Schema, want.Name)
	if err != nil {
		return fmt.Errorf("describe %s: %w", want.QualifiedName(), err)
	}
	if cur == nil {
		return nil // nothing to delete from; create nothing
	}
	self := []string{j.name}
	if j.schemaInput != "" {
		self = append(self, j.schemaInput) // the input that sent it (recordInputs)
	}
	others, why := p.otherSharers(want.QualifiedName(), cur.Streams, self, nil) // sharers.go
	thisRun := false
	for _, o := range j.sharers {
		if !slices.Contains(others, o) {
			others, thisRun = append(others, o), true
		}
	}
	if len(others) > 0 {
		// The rows do not record their stream: the DELETE (or the soft
		// delete) of the older versions would take the other streams'
		// rows with it. Refuse, as keys that disagree are refused.
		switch {
		case why == "":
			why = "they load it in this run"
		case thisRun:
			why += "; others load it in this run"
		}
		return namedInput(&inputerr.Error{Line: j.line, Stream: j.name, Msg: fmt.Sprintf(
			"ACTIVATE_VERSION %s would delete the rows of stream(s) %s too: table %s holds several streams "+
				"(%s: table_name_mappings or stream maps put them there) and its rows do not record their stream. "+
				"Map the streams to tables of their own, or set process_activate_version_messages to false",
			j.version, strings.Join(others, ", "), want.QualifiedName(), why)}, j.schemaInput, j.name)
	}
	vc, dc := j.layout.MetaIndex(table.MetaTableVersion), j.layout.MetaIndex(table.MetaDeletedAt)
	if vc < 0 || dc < 0 {
		return fmt.Errorf("ACTIVATE_VERSION for %s: the table has no %s/%s columns", want.QualifiedName(), table.MetaTableVersion, table.MetaDeletedAt)
	}
	lt := j.layout.Table()
	if j.settings.History() {
		_, err = sess.Load(ctx, []engine.Step{closeVersions(j, cur, lt.Columns[vc].Name)})
		if err != nil {
			return fmt.Errorf("activate version %s on %s: %w", j.version, want.QualifiedName(), err)
		}
		return nil
	}
	step := &engine.DeleteVersions{
		Table:         cur,
		Version:       j.version,
		Hard:          j.settings.HardDelete,
		At:            j.at,
		VersionColumn: lt.Columns[vc].Name,
		DeletedColumn: lt.Columns[dc].Name,
	}
	_, err = sess.Load(ctx, []engine.Step{step})
	if err != nil {
		return fmt.Errorf("activate version %s on %s: %w", j.version, want.QualifiedName(), err)
	}
	return nil
}

// catalog caches table shapes for the run and serialises work on a table
// (several streams may load into one table).
type catalog struct {
	eng    engine.Engine
	mu     sync.Mutex
	tables map[string]*table.Table
	known  map[string]bool
	locks  map[string]*sync.Mutex
}

func newCatalog(e engine.Engine) *catalog {
	return &catalog{eng: e, tables: map[string]*table.Table{}, known: map[string]bool{}, locks: map[string]*sync.Mutex{}}
}

func (c *catalog) describe(ctx context.Context, schema, name string) (*table.Table, error) {
	key := schema + "." + name
	c.mu.Lock()
	if c.known[key] {
		t := c.tables[key]
		c.mu.Unlock()
		return t, nil
	}
	c.mu.Unlock()
	t, err := c.eng.Describe(ctx, schema, name)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.known[key] {
		c.known[key], c.tables[key] = true, t
	}
	return c.tables[key], nil
}

// indexes gives cur the indexes the catalog has when want has custom
// indexes and cur's were not read (table.AddIndex adds those missing);
// the answer is cached like Describe's. Without custom indexes there is
// no extra round trip.
func (c *catalog) indexes(ctx context.Context, cur, want *table.Table) (*table.Table, error) {
	ir, ok := c.eng.(engine.IndexReader)
	if !ok || cur == nil || !cur.IndexesUnread || len(want.Indexes) == 0 {
		return cur, nil
	}
	have, err := ir.Indexes(ctx, cur)
	if err != nil {
		return nil, err
	}
	t := cur.Clone()
	t.Indexes, t.IndexesUnread = have, false
	c.set(t)
	return t, nil
}

func (c *catalog) set(t *table.Table) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := t.QualifiedName()
	c.known[key], c.tables[key] = true, t
}

func (c *catalog) forget(schema, name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.known, schema+"."+name)
	delete(c.tables, schema+"."+name)
}

func (c *catalog) lock(key string) (unlock func()) {
	c.mu.Lock()
	m := c.locks[key]
	if m == nil {
		m = &sync.Mutex{}
		c.locks[key] = m
	}
	c.mu.Unlock()
	m.Lock()
	return m.Unlock
}

// emptyRefusal is the error of a batch that would empty (load_method
// overwrite, truncate_before_load) a table whose comment names other
// streams (tableTurn.emptyRefused).
func (p *pipeline) emptyRefusal(j *job) error {
	key, what := "load_method", "load_method overwrite would replace"
	if p.cfg.TruncateBeforeLoad {
		key, what = "truncate_before_load", "truncate_before_load would truncate"
	}
	return lineConfigError(key, j.line, fmt.Sprintf(
		"stream %q: %s table %s, which also holds the rows of stream(s) %s (%s): "+
			"their rows do not record their stream and would be lost. Map the streams to tables of their own, "+
			"or use load_method upsert or append-only for this table", j.name, what, j.layout.Table().QualifiedName(), strings.Join(j.emptiers, ", "), j.emptyWhy))
}
