// Package pipeline is the loader's spine: it reads Singer messages,
// validates and transforms records into per-stream buffers, hands full
// buffers to loader workers (at most max_parallelism at once, one session
// each), and writes a STATE line only once every record before it is
// committed (SPEC §7).
//
// One coordinator goroutine owns all stream state; a reader goroutine
// decodes envelopes ahead of it, and workers run database work. Data flows
// one way: read → validate → transform → batch → load → acknowledge.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/metrics"
	"github.com/target-oracle/target-oracle/internal/private"
	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/streammap"
	"github.com/target-oracle/target-oracle/internal/tablemap"
)

// Server holds the facts about the database that `auto` settings and name
// rules depend on (dry-run assumes a default 19c server).
type Server struct {
	DefaultSchema string // the user's own schema (DRY_RUN in dry-run)
	// UserSchema is the login user's own schema where DefaultSchema is a
	// literal default_target_schema ("" = DefaultSchema): streams routed
	// by {stream_schema} without a schema part, or from "public", go there.
	UserSchema         string
	IdentifierMaxBytes int  // 30 or 128
	VarcharMaxBytes    int  // 4000 or 32767
	BooleanNative      bool // BOOLEAN column type available (23ai+)
	JSONNative         bool // JSON column type available (COMPATIBLE >= 20)
	NationalNeeded     bool // database character set cannot hold all of Unicode
	MaxColumns         int  // columns per table: 1000, or 4096 with MAX_COLUMNS=EXTENDED; 0 means 1000
	VectorNative       bool // VECTOR column type available (23ai)
}

// Options configure a Run.
type Options struct {
	Config *config.Config
	Engine engine.Engine
	Server Server
	Input  io.Reader
	// StateOut receives STATE lines and nothing else (fd 1).
	StateOut io.Writer
	Log      *slog.Logger
	// Now is the clock for metadata columns; tests fix it.
	Now func() time.Time
	// Stop is closed on the first SIGINT/SIGTERM: stop reading, drain,
	// write the true state. Cancelling the Run context is the hard stop.
	Stop <-chan struct{}
	// Metrics receives counters; may be nil.
	Metrics *metrics.Registry
	// StreamsChanged, when set, is told the number of streams each time a
	// new one appears (the CLI's memory limit counts them, SPEC §10).
	StreamsChanged func(streams int)
	// RunID marks the rows this run writes (_SDC_RUN_ID, delete_missing);
	// "" = a new random id. Tests fix it.
	RunID string
	// LongLine, when set, is told the size of each input line longer than
	// any before it and than longLineReport (the memory limit counts 2 ×
	// the longest line, SPEC §10).
	LongLine func(bytes int)
	// BeforeJob, when set, is called on the worker before each job runs,
	// with the job's stream. The seeded simulation (internal/sim) orders
	// workers through it: a job that needs no database call (its table
	// known and unchanged) would otherwise finish while the coordinator
	// reads on, and whether its result or the next input came first would
	// be the Go scheduler's choice, not the seed's.
	BeforeJob func(stream string)
	// RejectFile, when set, is reject_path already open for appending:
	// the CLI opens one that is not a regular file (a FIFO, whose open(2)
	// waits for a reader, where a signal must still end the run) before
	// the run. The pipeline closes it.
	RejectFile *os.File
	// OwnFile, when set, names the file of the run's own (its input,
	// a --config or .env file, standard input's or output's file, the
	// dump) that path is, or returns "": a BATCH message may not list one
	// (writtenByRun), or the run would load its own messages or settings
	// (the password with them) as rows.
	OwnFile func(path string) string
}

// longLineReport is the size under which lines are not reported to
// Options.LongLine: the memory limit's constant covers them.
const longLineReport = 1 << 20

// MaxStreams is the most streams one run accepts. Each stream costs a
// compiled schema and layout (tens of kilobytes) plus its buffer, which
// starts small; see docs/guarantees.md for the limits.
const MaxStreams = 10000

// ErrStopped is returned by Run after a drain triggered by Options.Stop.
var ErrStopped = errors.New("stopped by signal")

// ErrDrainCut is returned by Run (it is an ErrStopped) when
// shutdown_timeout_seconds ended the drain before every record read was
// loaded: their state is not written, and the run is not "drained".
var ErrDrainCut = fmt.Errorf("%w: shutdown_timeout_seconds passed before every record read was loaded", ErrStopped)

// Run loads the whole input. It returns nil when every message was
// processed and every state that became true was written.
func Run(ctx context.Context, o Options) error {
	p, err := newPipeline(o)
	if err != nil {
		return err
	}
	err = p.run(ctx)
	if p.dbRejected > 0 {
		p.log.Warn(fmt.Sprintf("%d records the database refused were written to reject_path", p.dbRejected),
			"rejected", p.dbRejected, "reject_path", p.cfg.RejectPath)
	}
	if err != nil {
		return err
	}
	p.warnUnmatched()
	return nil
}

type pipeline struct {
	o       Options
	cfg     *config.Config
	log     *slog.Logger
	metrics *metrics.Registry

	streams map[string]*stream
	byName  *streamCache            // p.streams by the name's data pointer, per record (streamcache.go)
	maps    *streammap.Mapper       // stream_maps, compiled once
	inputs  map[string]*inputStream // input streams, under stream maps
	feeds   map[string][]feed       // output stream → the input streams mapped into it, with their keys (maps.go)
	// mapInput is the input stream of the record being handed to an
	// output stream under stream maps ("" otherwise): its errors name it
	// (maps.go, namedInput).
	mapInput string
	// tableOwner is the first stream that loads into each table, to check
	// that later streams into the same table have the same key.
	tableOwner map[string]*stream
	turns      map[string]*tableTurn     // SCHEMA.TABLE → the order of its jobs (shared.go)
	mapped     map[string][]configSharer // SCHEMA.TABLE → the streams the configuration puts there (sharers.go); read-only
	// tableClaims maps SCHEMA.TABLE to the stream that took the table in
	// this run (tables.go): generated names never share a table.
	tableClaims map[string]string
	// schemasSeen caches whether each schema exists (engine.SchemaChecker).
	schemasSeen map[string]bool
	// unreported are the streams with reads not yet given to the metrics
	// registry: reporting costs per active stream, not per stream.
	unreported []*stream
	// reportTo and reportN are reportReads' scratch.
	reportTo []*metrics.Stream
	reportN  []int64
	order    []*stream // in order of first SCHEMA, for deterministic iteration
	seen     seenPaths // property paths of every SCHEMA, for warnUnmatched
	ready    []*stream // streams with a job to start and no running job
	running  int       // workers busy
	waiting  int       // jobs queued but not started

	results chan jobResult
	// handOff gives a job to a worker goroutine waiting for one (worker);
	// quit, closed when the run ends, lets the waiting ones return.
	handOff  chan *job
	quit     chan struct{}
	tables   *catalog
	sessions chan engine.Session // idle sessions, reused by workers

	tracker    stateTracker
	points     []int64    // frontierPoints' scratch
	lines      lineSet    // the lines frontier() looks at (frontier.go)
	big        byBuffered // the streams whose buffer holds rows, the most bytes first (largest.go)
	hold       int64      // the earliest held first record (holdStates), 0 when none
	rejects    *rejectFile
	seq        sequencer
	received   clockText                // _SDC_RECEIVED_AT text, formatted once per chunk
	receivedAt time.Time                // when the current chunk was read
	clockGiven bool                     // Options.Now was set: use it for every metadata time
	metaBuf    tablemap.Meta            // reused per record: Row copies what it keeps
	extracted  struct{ in, out string } // the last time_extracted text and its canonical form
	started    string                   // _SDC_SYNC_STARTED_AT text
	runID      string                   // _SDC_RUN_ID text (prune.go)
	lastState  int64                    // input line of the last STATE read (prune.go)
	buffered   int64                    // bytes of records not yet committed (buffers + in-flight)
	bufs       bufferPool               // loaded batches' buffers, for the next ones (bufpool.go)
	// blocks are loaded batches' text blocks, for the next rows of any
	// stream; nil when the engine may keep values (tablemap.Blocks).
	blocks *tablemap.Blocks
	// rowState is every layout's per-row working state: rows are built
	// one at a time, by the coordinator, so one shared state stays in the
	// cache however many streams interleave (tablemap.RowState).
	rowState        tablemap.RowState
	schemas         schema.Cache // compiled SCHEMA texts, shared by streams that send the same
	dbRejected      int64        // records the database refused, in reject_path (reject.go)
	longest         int          // the longest line reported to Options.LongLine
	warnedNullState bool         // a STATE with a null value was logged (state.go)

	failed error // the first error; once set, nothing new starts
	// inputStop is the first input error (or schema_evolution refusal) a job reported (its stream is
	// halted). Unlike failed, it lets the other streams' work commit:
	// the run then drains as at an invalid line (SPEC §8).
	inputStop error
	// deadline fires when shutdown_timeout_seconds has passed after a
	// signal; then noStart is set and no further job starts. The clock
	// starts when the signal is first heard (heardStop), also while the
	// coordinator waits for a job in the middle of a chunk of input
	// (awaitResult), not when the drain begins after the chunk: the rest
	// of a chunk may start many batches.
	deadline      <-chan time.Time
	deadlineTimer *time.Timer
	noStart       bool
	// afterFill, when set (tests only), runs between a record's row being
	// built and committed: the window the scratch row covers (slots.go).
	afterFill  func()
	heardStop  bool // the first signal was heard
	draining   bool // drain has begun (a signal then changes nothing: SPEC §7.5)
	workCtx    context.Context
	cancelWork context.CancelFunc
	wg         sync.WaitGroup

	// Test hooks (nil in production): ticks replaces the ticker; idle is
	// called when the loop is about to wait with input held back by
	// backpressure and no job running, so only a tick could wake it.
	ticks <-chan time.Time
	idle  func()
}

func newPipeline(o Options) (*pipeline, error) {
	clockGiven := o.Now != nil
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Metrics == nil {
		o.Metrics = metrics.New(io.Discard, 0, o.Now())
	}
	p := &pipeline{
		o:          o,
		clockGiven: clockGiven,
		cfg:        o.Config,
		log:        o.Log,
		metrics:    o.Metrics,
		streams:    make(map[string]*stream),
		byName:     new(streamCache),
		results:    make(chan jobResult, 64),
		handOff:    make(chan *job),
		quit:       make(chan struct{}),
		tables:     newCatalog(o.Engine),
		sessions:   make(chan engine.Session, o.Config.MaxParallelism),
	}
	if vk, ok := o.Engine.(engine.ValueKeeper); ok && !vk.KeepsValues() {
		p.blocks = &tablemap.Blocks{Poison: raceEnabled}
	}
	maps, err := compileMaps(o.Config)
	if err != nil {
		return nil, err
	}
	p.maps, p.inputs = maps, map[string]*inputStream{}
	p.mapped = p.mappedTables() // sharers.go
	if p.runID = o.RunID; p.runID == "" {
		if p.runID, err = newRunID(); err != nil {
			return nil, err
		}
	}
	p.tracker.out = o.StateOut
	p.tracker.afterWrite = func() { p.metrics.StateWritten(time.Now()) }
	now := o.Now().UTC()
	p.started = canonicalTime(now)
	p.seq.base = now.UnixMicro() * 1000
	if o.RejectFile != nil {
		p.rejects = &rejectFile{path: o.Config.RejectPath, f: o.RejectFile}
		p.tracker.beforeWrite = p.rejects.sync
	} else if o.Config.RejectsInvalidRecords() || o.Config.RejectsDatabaseErrors() {
		if err := writable(o.Config.RejectPath); err != nil {
			// Found here, not at the first rejected record hours into
			// the load, with batches committed before it.
			return nil, fmt.Errorf("reject_path %q cannot be written: %w", o.Config.RejectPath, err)
		}
		p.rejects = &rejectFile{path: o.Config.RejectPath}
		p.tracker.beforeWrite = p.rejects.sync
	}
	return p, nil
}

// writable checks, without creating it, that path can be opened for
// appending: an existing file is opened and closed; for a new one, a file
// is created in its folder and removed.
func writable(path string) error {
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symlink; refusing to follow it", path)
		}
		if !fi.Mode().IsRegular() {
			// A FIFO's open(2) waits for a reader, and its close would
			// end that reader's input: Options.RejectFile is the way for
			// these (the CLI opens them once, interruptibly).
			return nil
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return err
		}
		return f.Close()
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".target-oracle-check-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

func (p *pipeline) run(ctx context.Context) (err error) {
	p.workCtx, p.cancelWork = context.WithCancel(ctx)
	defer p.cancelWork()
	defer close(p.quit) // idle workers return (flush.go)
	p.watchMaps()
	defer func() {
		p.closeSessions()
		if p.rejects != nil {
			if cerr := p.rejects.close(); cerr != nil && err == nil {
				err = cerr
			}
		}
	}()

	in := startReader(ctx, p.o.Input)
	defer in.close()

	ticks := p.ticks
	if ticks == nil {
		tick := time.NewTicker(tickInterval(p.cfg))
		defer tick.Stop()
		ticks = tick.C
	}

	stop := p.o.Stop
	for {
		if p.failed != nil {
			return p.finish(p.failed)
		}
		if p.inputStop != nil {
			return p.drain(p.inputStop)
		}
		// A hard stop or a signal wins over input or results that are
		// ready too (select would pick at random): stop reading at once
		// (SPEC §7.5), and the same input and signal give the same run.
		if err := ctx.Err(); err != nil {
			p.fail(err)
			continue
		}
		select {
		case <-stop:
			return p.drain(ErrStopped)
		default:
		}
		// Backpressure: while too much input is uncommitted, do not read.
		// A flush, or the job it waited for, may free room: check again
		// before choosing what to wait for, else the loop would sleep
		// until the next tick with neither input nor a job to wake it.
		if p.buffered >= p.cfg.MaxBufferedBytes && p.flushLargest() {
			continue
		}
		// A finished job wins over input that is ready too (select would
		// pick at random): the same input and the same order of job ends
		// give the same run, and a commit's state is written before more
		// input is buffered.
		select {
		case r := <-p.results:
			p.complete(r)
			continue
		default:
		}
		var msgs <-chan readChunk
		if p.buffered < p.cfg.MaxBufferedBytes {
			msgs = in.chunks
		} else if p.running == 0 && p.idle != nil {
			p.idle()
		}
		select {
		case <-ctx.Done():
			p.fail(ctx.Err())
		case <-stop:
			return p.drain(ErrStopped)
		case r := <-p.results:
			p.complete(r)
		case <-ticks:
			p.onTick()
		case c, ok := <-msgs:
			if !ok {
				return p.drain(in.err)
			}
			p.receivedAt = c.at
			p.noteLongLine(c)
			for i := range c.msgs {
				if p.failed != nil || p.inputStop != nil {
					break
				}
				if err := p.handle(&c.msgs[i]); err != nil {
					if errors.Is(err, ErrStopped) { // heard inside a long BATCH message
						return p.drain(ErrStopped)
					}
					var ierr *inputerr.Error
					var berr *batchFileError
					var cerr *config.Error // a setting the stream's SCHEMA cannot take
					if errors.As(err, &ierr) || errors.As(err, &berr) || errors.As(err, &cerr) {
						return p.drain(err) // what came before is committed, its state written
					}
					p.fail(err)
					break
				}
			}
			if p.failed == nil {
				in.recycle(c)
			}
			p.reportReads()
		}
	}
}

// drain flushes every buffer, waits for every job, writes the state that is
// then true and returns cause (nil at a clean end of input).
func (p *pipeline) drain(cause error) error {
	p.draining = true
	if errors.Is(cause, ErrStopped) {
		p.startShutdownClock()
	}
	if p.deadlineTimer != nil {
		defer p.deadlineTimer.Stop()
	}
	if p.failed == nil {
		for _, s := range p.order {
			if p.noStart {
				break
			}
			p.flush(s)
		}
	}
	if err := p.waitAll(); err != nil && p.failed == nil {
		p.failed = err
	}
	if errors.Is(cause, ErrStopped) && p.noStart && p.unloaded() {
		cause = ErrDrainCut
	}
	if cause == nil && p.inputStop != nil {
		cause = p.inputStop // a job refused its input while the run drained
	}
	if p.failed == nil && cause == nil && !p.signalled() {
		// A complete run: delete_missing prunes before the final state.
		if err := p.pruneMissing(p.workCtx); err != nil {
			p.failed = err
		}
	}
	if p.failed == nil && cause == nil {
		// End of input: overwrite streams may now report their progress.
		p.releaseHolds()
	}
	if p.failed == nil {
		if err := p.advance(); err != nil {
			p.failed = err
		}
	}
	if p.failed != nil {
		return p.finish(p.failed)
	}
	return p.finish(cause)
}

// unloaded reports whether a stream holds records no job loaded: a
// buffer not flushed, or a job never started.
func (p *pipeline) unloaded() bool {
	for _, s := range p.order {
		if len(s.queue) > 0 || s.buf != nil && s.buf.rows() > 0 {
			return true
		}
	}
	return false
}

// finish waits for running workers (after a failure they are cancelled
// through the context only on the hard stop) and returns err.
func (p *pipeline) finish(err error) error {
	p.reportReads()
	for p.running > 0 {
		r := <-p.results
		p.running--
		r.job.stream.running = false
		if r.err != nil && err == nil {
			err = r.err
		}
	}
	return err
}

// startShutdownClock logs the first signal and arms the
// shutdown_timeout_seconds deadline, once.
func (p *pipeline) startShutdownClock() {
	if !p.heardStop {
		p.log.Warn("signal received: stopping input, committing what was read")
	}
	p.heardStop = true
	if p.deadlineTimer != nil || p.cfg.ShutdownTimeoutSeconds <= 0 {
		return
	}
	p.deadlineTimer = time.NewTimer(time.Duration(p.cfg.ShutdownTimeoutSeconds) * time.Second)
	p.deadline = p.deadlineTimer.C
}

// fail records the first failure; the main loop then stops.
func (p *pipeline) fail(err error) {
	if p.failed == nil {
		p.failed = err
	}
}

// waitAll starts every queued job and waits until all have finished. It
// stops starting new jobs after a failure or past the shutdown deadline.
func (p *pipeline) waitAll() error {
	for {
		p.dispatch()
		if p.running == 0 {
			return p.failed
		}
		p.awaitResult()
	}
}

func (p *pipeline) onTick() {
	now := time.Now() // timers run on the real clock; Options.Now is for metadata only
	if lim := p.cfg.BatchWaitLimitSeconds; lim > 0 {
		age := time.Duration(lim) * time.Second
		for _, s := range p.order {
			if s.buf != nil && s.buf.rows() > 0 && now.Sub(s.buf.oldest) >= age {
				p.flush(s)
			}
		}
	}
	p.metrics.Tick(now, p.buffered)
}

func tickInterval(cfg *config.Config) time.Duration {
	d := time.Second
	if cfg.BatchWaitLimitSeconds > 0 && time.Duration(cfg.BatchWaitLimitSeconds)*time.Second < d {
		d = time.Duration(cfg.BatchWaitLimitSeconds) * time.Second
	}
	return d
}

// noteLongLine tells Options.LongLine of a line longer than any before.
// A chunk's arena is as large as its longest message needs (a long line
// gets an arena of its own, or none when the reader hands over its own
// buffer: then the message's raw size tells).
func (p *pipeline) noteLongLine(c readChunk) {
	if p.o.LongLine == nil {
		return
	}
	n := cap(c.arena)
	if n == 0 && len(c.msgs) == 1 {
		n = c.msgs[0].RawSize()
	}
	if n > longLineReport && n > p.longest {
		p.longest = n
		p.o.LongLine(n)
	}
}

// flushLargest flushes the stream holding the most buffered bytes, or, when
// everything is already in flight, waits for a job to finish. It reports
// whether it did either (false: nothing to flush and nothing running).
func (p *pipeline) flushLargest() bool {
	big := p.largest() // largest.go
	if big != nil {
		p.flush(big)
	}
	if p.buffered >= p.cfg.MaxBufferedBytes && p.running > 0 {
		p.complete(<-p.results)
		return true
	}
	return big != nil
}

// reportReads gives the metrics registry the records read since the last
// report, per stream (once per chunk of input, not per record).
func (p *pipeline) reportReads() {
	for _, s := range p.unreported {
		if s.counters == nil {
			s.counters = p.metrics.Handle(s.name)
		}
		p.reportTo = append(p.reportTo, s.counters)
		p.reportN = append(p.reportN, s.read-s.reported)
		s.reported = s.read
	}
	p.metrics.AddReads(p.reportTo, p.reportN)
	clear(p.reportTo)
	p.reportTo, p.reportN = p.reportTo[:0], p.reportN[:0]
	p.unreported = p.unreported[:0]
}

// advance writes the newest state that became true. After a failure no
// newer state is ever written (SPEC §7 rule 4).
func (p *pipeline) advance() error {
	if p.failed != nil {
		return nil
	}
	return p.tracker.advance(p.frontier())
}

func (p *pipeline) closeSessions() {
	for {
		select {
		case s := <-p.sessions:
			if err := s.Close(); err != nil {
				p.log.Warn("close session", "err", err)
			}
		default:
			return
		}
	}
}

// rejectFile appends rejected records as JSON lines (SPEC §8) and syncs
// them before any state that covers them is written.
type rejectFile struct {
	path  string
	f     *os.File
	dirty bool
}

func (r *rejectFile) write(line []byte) error {
	if r.f == nil {
		f, err := private.OpenFile(r.path, os.O_APPEND)
		if err != nil {
			return fmt.Errorf("open reject file: %w", err)
		}
		r.f = f
	}
	if _, err := r.f.Write(line); err != nil {
		return fmt.Errorf("write reject file %s: %w", r.path, err)
	}
	r.dirty = true
	return nil
}

func (r *rejectFile) sync() error {
	if r.f == nil || !r.dirty {
		return nil
	}
	if err := r.f.Sync(); err != nil {
		return fmt.Errorf("sync reject file %s: %w", r.path, err)
	}
	r.dirty = false
	return nil
}

func (r *rejectFile) close() error {
	if r.f == nil {
		return nil
	}
	err := r.sync()
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	return err
}
