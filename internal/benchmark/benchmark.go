// Package benchmark is --benchmark (SPEC §2, §10): synthetic streams
// loaded through the production pipeline and Oracle engine into scratch
// tables (config.BenchmarkPrefix + 8 hexadecimal digits, dropped with
// PURGE), measured on the user's own database: rows/s, MB/s and round
// trips per batch for append (array INSERT), upsert (MERGE; half the keys
// repeat), rows with 10 KB text values and rows with 100 KB LOB values,
// with one stream and with max_parallelism streams in parallel.
//
// The figures are wall-clock times of whole pipeline runs (reading,
// validating, building rows, binding, the server's work, commits), the
// figure a user compares with another loader on the same database. Each
// case's tables are created by a run of their own before the timed one,
// so the round trips per batch are the batches', with the setup's apart.
package benchmark

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/connect"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/pipeline"
	"github.com/target-oracle/target-oracle/internal/verify"
)

// DefaultRows is --rows when not given.
const DefaultRows = 200000

// Options are what a benchmark run needs.
type Options struct {
	Config *config.Config
	Facts  connect.Facts
	Server pipeline.Server
	// Engine is the production Oracle engine on sessions whose sockets
	// RoundTrips counts.
	Engine engine.Engine
	// RoundTrips returns the round trips so far (RoundTrips.Count of the
	// wrapper the sessions dial through).
	RoundTrips func() int64
	// Dial opens plain sessions for dropping the tables.
	Dial oracle.Dialer
	// Check is --check (privileges and quotas); it runs first.
	Check func(ctx context.Context) (connect.Report, error)
	Rows  int // --rows; 0 means DefaultRows
	Log   *slog.Logger
	Rand  io.Reader
	// CleanupTimeout bounds the final drops; 0 means 2 minutes.
	CleanupTimeout time.Duration
	// Now is the clock of the measurements; nil is time.Now.
	Now func() time.Time
}

// Shape is one kind of synthetic stream.
type Shape struct {
	Name   string // append | upsert | text-10kb | lob-100kb
	Method string // load_method
	Rows   int    // records in all streams together
	// RecordBytes is about how long one RECORD line is.
	RecordBytes int
}

// Shapes are the streams of SPEC §2 for rows records.
func Shapes(rows int) []Shape {
	return []Shape{
		{"append", "append-only", rows, 475},
		{"upsert", "upsert", rows, 475},
		{"text-10kb", "append-only", max(1, rows/100), 10*1024 + 80},
		{"lob-100kb", "append-only", max(1, rows/1000), 100*1024 + 80},
	}
}

// Figure is one measured case.
type Figure struct {
	Case               string  `json:"case"`
	Streams            int     `json:"streams"`
	Rows               int     `json:"rows"`
	Bytes              int64   `json:"bytes"` // RECORD lines read
	Seconds            float64 `json:"seconds"`
	RowsPerSecond      float64 `json:"rows_per_second"`
	MBPerSecond        float64 `json:"mb_per_second"`
	Batches            int64   `json:"batches"`
	RoundTrips         int64   `json:"round_trips"`
	RoundTripsPerBatch float64 `json:"round_trips_per_batch"`
	// SetupRoundTrips are those of creating the case's tables (DDL and
	// comments), in a run before the timed one: not in RoundTrips.
	SetupRoundTrips int64  `json:"setup_round_trips"`
	Error           string `json:"error,omitempty"`
}

// Report is the outcome of a benchmark run.
type Report struct {
	Server           verify.ServerFacts `json:"server"`
	CheckOK          bool               `json:"check_ok"`
	Missing          []string           `json:"missing_privileges,omitempty"`
	Fixes            []string           `json:"fixes,omitempty"`
	BatchSizeRows    int                `json:"batch_size_rows"`
	RowsPerExecute   int                `json:"rows_per_execute"`
	MaxParallelism   int                `json:"max_parallelism"`
	VolumeRows       int                `json:"volume_rows"`
	VolumeBytes      int64              `json:"volume_bytes"`
	Quota            string             `json:"quota"`
	Figures          []Figure           `json:"figures"`
	Tables           []string           `json:"tables"`
	Dropped          []string           `json:"dropped"`
	LeftoversDropped []string           `json:"leftovers_dropped,omitempty"`
	Errors           []string           `json:"errors,omitempty"`
	Stopped          bool               `json:"stopped,omitempty"`
}

// OK reports whether every case ran.
func (r *Report) OK() bool {
	if !r.CheckOK || r.Stopped || len(r.Errors) > 0 || len(r.Figures) == 0 {
		return false
	}
	for _, f := range r.Figures {
		if f.Error != "" {
			return false
		}
	}
	return true
}

var scratchName = regexp.MustCompile(`^` + regexp.QuoteMeta(config.BenchmarkPrefix) + `[0-9A-F]{8}$`)

// Run runs --benchmark. Volume and quota are decided before anything is
// created; every table is dropped after its case and, after a failure or
// a cancelled ctx, at the end.
func Run(ctx context.Context, o Options) (*Report, error) {
	if o.Check == nil || o.Engine == nil || o.Dial == nil || o.Config == nil {
		return &Report{}, errors.New("options need Config, Engine, Dial and Check")
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Rand == nil {
		o.Rand = rand.Reader
	}
	if o.Rows <= 0 {
		o.Rows = DefaultRows
	}
	if o.CleanupTimeout <= 0 {
		o.CleanupTimeout = 2 * time.Minute
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.RoundTrips == nil {
		o.RoundTrips = func() int64 { return 0 }
	}
	par := max(1, o.Config.MaxParallelism)
	rep := &Report{Server: serverFacts(o.Facts), BatchSizeRows: o.Config.BatchSizeRows, RowsPerExecute: oracle.DefaultMaxArrayRows, MaxParallelism: par}
	streams := []int{1}
	if par > 1 {
		streams = append(streams, par)
	}
	for _, s := range Shapes(o.Rows) {
		rep.VolumeRows += s.Rows * len(streams)
		rep.VolumeBytes += int64(s.Rows*s.RecordBytes) * int64(len(streams))
	}
	chk, err := o.Check(ctx)
	if err != nil {
		return rep, fmt.Errorf("check: %w", err)
	}
	rep.CheckOK, rep.Missing, rep.Fixes = chk.OK(), chk.Missing, chk.Fixes
	if !rep.CheckOK {
		return rep, nil
	}
	// The largest case's tables exist at once (each case drops its own).
	var largest int64
	for _, s := range Shapes(o.Rows) {
		largest = max(largest, int64(s.Rows*s.RecordBytes))
	}
	q, ok := quota(o.Config, chk.Access, 2*largest)
	rep.Quota = q
	if !ok {
		rep.Errors = append(rep.Errors, q)
		return rep, nil
	}
	o.Log.Info("benchmark volume", "rows", rep.VolumeRows, "mb", fmt.Sprintf("%.1f", float64(rep.VolumeBytes)/1e6), "quota", q)
	b := &run{o: o, rep: rep, schema: o.Facts.DefaultSchema}
	defer b.cleanup(ctx)
	if left, err := verify.DropLeftovers(ctx, o.Dial, b.schema, config.BenchmarkPrefix, scratchName.MatchString); err != nil {
		rep.Errors = append(rep.Errors, "leftovers: "+err.Error())
	} else {
		rep.LeftoversDropped = left
	}
	for _, s := range Shapes(o.Rows) {
		for _, n := range streams {
			if err := ctx.Err(); err != nil {
				rep.Stopped = true
				return rep, err
			}
			f, err := b.runCase(ctx, s, n)
			if ctx.Err() != nil {
				rep.Stopped = true
				return rep, ctx.Err()
			}
			if err != nil {
				f.Error = err.Error()
			}
			rep.Figures = append(rep.Figures, f)
		}
	}
	return rep, nil
}

func serverFacts(f connect.Facts) verify.ServerFacts {
	s := f.Server
	return verify.ServerFacts{Version: s.Version, Edition: s.Edition, Compatible: s.Compatible, MaxStringSize: s.MaxStringSize,
		DBCharset: s.DBCharset, NCharset: s.NCharset, Schema: f.DefaultSchema, IdentifierMaxBytes: f.IdentifierMaxBytes,
		VarcharMaxBytes: f.VarcharMaxBytes, BooleanNative: f.BooleanNative, JSONNative: f.JSONNative, National: f.National}
}

// quota says whether the quota of the tablespace the tables go to has
// room for need bytes.
func quota(cfg *config.Config, a connect.Access, need int64) (string, bool) {
	ts, quotas := a.UserTablespace, a.UserQuotas
	if !a.Own() {
		ts, quotas = a.OwnerTablespace, a.OwnerQuotas
		if !a.OwnerKnown {
			return "not readable for another schema (DBA_TS_QUOTAS); make sure it has room for about " + mb(need), true
		}
		if a.OwnerUnlimited {
			return "UNLIMITED TABLESPACE", true
		}
	}
	if cfg.Tablespace != "" {
		ts = strings.ToUpper(cfg.Tablespace)
	}
	for _, p := range a.Privileges {
		if strings.EqualFold(p, "UNLIMITED TABLESPACE") && a.Own() {
			return "UNLIMITED TABLESPACE", true
		}
	}
	for _, q := range quotas {
		if !strings.EqualFold(q.Tablespace, ts) {
			continue
		}
		if q.MaxBytes < 0 {
			return "unlimited on " + ts, true
		}
		free := q.MaxBytes - q.Bytes
		if free < need {
			return fmt.Sprintf("the quota on %s has %s free; the benchmark needs about %s at once (lower --rows, or ALTER USER … QUOTA)", ts, mb(free), mb(need)), false
		}
		return fmt.Sprintf("%s free on %s, about %s needed at once", mb(free), ts, mb(need)), true
	}
	return "no quota on " + orUnknown(ts) + " was found (see --check)", true
}

func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

func orUnknown(s string) string {
	if s == "" {
		return "the default tablespace"
	}
	return s
}

// bench is one run's state.
type run struct {
	o       Options
	rep     *Report
	schema  string
	pending []string // tables created and not dropped yet
}

func (b *run) newName() (string, error) {
	var x [4]byte
	if _, err := io.ReadFull(b.o.Rand, x[:]); err != nil {
		return "", fmt.Errorf("scratch table name: %w", err)
	}
	return config.BenchmarkPrefix + strings.ToUpper(hex.EncodeToString(x[:])), nil
}

// runCase loads shape s split over n streams in one pipeline run, then
// drops its tables.
func (b *run) runCase(ctx context.Context, s Shape, n int) (Figure, error) {
	f := Figure{Case: s.Name, Streams: n, Rows: s.Rows}
	cfg := settings(b.o.Config, b.schema, s.Method, n)
	var names []string
	for i := 0; i < n; i++ {
		name, err := b.newName()
		if err != nil {
			return f, err
		}
		cfg.TableNameMappings[streamName(i)] = name
		names = append(names, name)
	}
	b.pending = append(b.pending, names...)
	b.rep.Tables = append(b.rep.Tables, names...)
	srv := b.o.Server
	srv.DefaultSchema = b.schema
	eng := &counting{Engine: b.o.Engine, keep: true}
	// The tables first, in a run of their own: logins, DDL, comments and
	// catalog reads are a one-time cost of some 15 round trips per table,
	// which would otherwise be divided among the batches and (with
	// max_parallelism tables of one batch each) dwarf the per-batch figure
	// SPEC §10 bounds.
	rt0 := b.o.RoundTrips()
	err := pipeline.Run(ctx, pipeline.Options{Config: cfg, Engine: eng, Server: srv, Input: strings.NewReader(schemaLines(s, n)), StateOut: io.Discard, Log: b.o.Log})
	if err == nil {
		err = eng.remember(ctx, b.schema, names)
	}
	f.SetupRoundTrips = b.o.RoundTrips() - rt0
	if err == nil {
		err = b.measure(ctx, &f, s, n, cfg, srv, eng)
	}
	if cerr := eng.Close(); err == nil && cerr != nil {
		err = cerr
	}
	dropped, derr := verify.Drop(ctx, b.o.Dial, b.schema, names)
	b.rep.Dropped = append(b.rep.Dropped, dropped...)
	b.pending = without(b.pending, dropped)
	if err == nil && derr != nil {
		err = derr
	}
	return f, err
}

// measure loads the records of shape s over n streams into the tables the
// setup run created: the timed run, whose round trips are those of the
// batches plus each table's catalog read.
func (b *run) measure(ctx context.Context, f *Figure, s Shape, n int, cfg *config.Config, srv pipeline.Server, eng *counting) error {
	pr, pw := io.Pipe()
	var read atomic.Int64
	go func() { pw.CloseWithError(generate(pw, s, n, &read)) }()
	rt0, t0 := b.o.RoundTrips(), b.o.Now()
	err := pipeline.Run(ctx, pipeline.Options{Config: cfg, Engine: eng, Server: srv, Input: pr, StateOut: io.Discard, Log: b.o.Log})
	pr.CloseWithError(io.ErrClosedPipe) // stop the generator if the run ended early
	f.Seconds = b.o.Now().Sub(t0).Seconds()
	f.RoundTrips = b.o.RoundTrips() - rt0
	f.Batches = eng.loads.Load()
	f.Bytes = read.Load()
	if f.Seconds > 0 {
		f.RowsPerSecond = float64(f.Rows) / f.Seconds
		f.MBPerSecond = float64(f.Bytes) / 1e6 / f.Seconds
	}
	if f.Batches > 0 {
		f.RoundTripsPerBatch = float64(f.RoundTrips) / float64(f.Batches)
	}
	return err
}

func without(list, drop []string) []string {
	var out []string
	for _, s := range list {
		keep := true
		for _, d := range drop {
			keep = keep && s != d
		}
		if keep {
			out = append(out, s)
		}
	}
	return out
}

// cleanup drops what is left, also after ctx was cancelled.
func (b *run) cleanup(ctx context.Context) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), b.o.CleanupTimeout)
	defer cancel()
	dropped, err := verify.Drop(cctx, b.o.Dial, b.schema, b.pending)
	b.rep.Dropped = append(b.rep.Dropped, dropped...)
	if err != nil {
		b.rep.Errors = append(b.rep.Errors, fmt.Sprintf("cleanup: %v (drop the remaining tables of %v by hand: DROP TABLE … PURGE)", err, verify.Remaining(b.pending, dropped)))
	}
}

// settings are the user's settings with the benchmark's streams mapped to
// the scratch tables and nothing else reshaping them; batching, types and
// parallelism stay the user's.
func settings(base *config.Config, schema, method string, streams int) *config.Config {
	c := *base
	c.DefaultTargetSchema, c.SchemaMapping = schema, nil
	c.TablePrefix, c.TableSuffix = "", ""
	c.TableNameMappings = map[string]string{}
	c.ColumnMappings, c.IgnoredColumns, c.StreamOverrides, c.CustomIndexes = nil, nil, nil, nil
	c.StreamMaps, c.StreamMapConfig = nil, nil
	c.TruncateBeforeLoad, c.HardDelete, c.ProcessActivateVersionMessages = false, false, false
	c.OnInvalidRecord, c.RejectPath, c.SummaryPath, c.HTTPListenAddress = "fail", "", "", ""
	c.LoadMethod = method
	c.MaxParallelism = max(1, streams)
	// The generated rows have no column of the user's partitioning, and a
	// benchmark prunes and refuses nothing; compression stays the user's.
	c.OnDatabaseError, c.DeleteMissing, c.Partitioning = "fail", "none", config.Partitioning{}
	return &c
}
