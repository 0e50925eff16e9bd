// Package cli is the command line of target-oracle: flags, configuration,
// logging, signals and the mapping of errors to exit codes. It wires the
// stages together; the work is done in the other packages.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/target-oracle/target-oracle/internal/about"
	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/metrics"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/pipeline"
	"github.com/target-oracle/target-oracle/internal/private"
	"github.com/target-oracle/target-oracle/internal/table"
)

// Exit codes (SPEC §2).
const (
	ExitOK     = 0
	ExitFailed = 1 // database, file system or anything else
	ExitConfig = 2 // settings or command line
	ExitInput  = 3 // the input alone is wrong
)

// ClockEnv fixes the clock used for metadata columns, for reproducible
// dry-run dumps in tests (RFC 3339 text). Variables named
// TARGET_ORACLE_TEST_* are reserved for tests and are never settings.
const ClockEnv = "TARGET_ORACLE_TEST_NOW"

// StoreEnv keeps the embedded engine's tables in this file across runs,
// each change committed atomically, so crash tests can kill the target and
// run it again on what it committed.
const StoreEnv = "TARGET_ORACLE_TEST_STORE"

// LoadDelayEnv makes every load of the embedded engine take this long (a
// Go duration), so tests can signal the target in the middle of a flush.
const LoadDelayEnv = "TARGET_ORACLE_TEST_LOAD_DELAY"

// DDLDelayEnv makes every DDL change of the embedded engine take this long,
// so tests can signal or kill the target in the middle of a migration.
const DDLDelayEnv = "TARGET_ORACLE_TEST_DDL_DELAY"

// IO is what a run talks to. State receives STATE lines only.
type IO struct {
	Stdin  io.Reader
	State  io.Writer
	Stderr io.Writer
	Env    []string
	Dir    string // working directory (for .env)
	// Signals delivers SIGINT, SIGTERM, SIGHUP and SIGQUIT; nil disables
	// signal handling.
	Signals <-chan os.Signal
	// Exit ends the process with a code. After a hard stop (a second
	// signal, or SIGQUIT) the run may be blocked writing a STATE to a fd 1
	// nobody reads; the abort must not wait on it (SPEC §7 rule 5), so the
	// signal watcher calls Exit itself if the run has not ended within
	// abortGrace. Nil: never forced (tests of Main in-process).
	Exit func(code int)
	// StateClosed, when set, says why State cannot carry STATE lines (the
	// process was started with fd 1 closed): a load that writes states
	// fails with it before reading anything; the one-shot modes, whose
	// report nobody can read either way, do not.
	StateClosed error
}

type options struct {
	configs []string
	input   string
	dryRun  bool
	plan    bool
	dumpDir string
	check   bool
	verify  bool
	bench   bool
	rows    int
	about   bool
	format  string
	version bool
}

// Main runs the command and returns the exit code.
func Main(args []string, std IO) int {
	// --help, --version and --about are not pipeline runs: they answer on
	// stdout, where Meltano reads --about --format json.
	out := &reportWriter{w: std.State}
	o, code, done := parseFlags(args, out, std.Stderr)
	if done {
		return out.outcome("--help", code, std.Stderr)
	}
	switch {
	case o.version:
		fmt.Fprintf(out, "target-oracle %s\n", about.Version())
		return out.outcome("--version", ExitOK, std.Stderr)
	case o.about:
		return out.outcome("--about", printAbout(o.format, out, std.Stderr), std.Stderr)
	}
	return run(o, std)
}

// reportWriter keeps the first error writing --help, --version or
// --about to stdout: a report that did not arrive (a pipe whose reader
// has gone, a full disk) is a failure, not a silent exit 0.
type reportWriter struct {
	w   io.Writer
	err error
}

func (r *reportWriter) Write(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.w.Write(p)
	r.err = err
	return n, err
}

// outcome is code, or exit 1 with a message when the report was not
// written.
func (r *reportWriter) outcome(what string, code int, stderr io.Writer) int {
	if r.err == nil {
		return code
	}
	fmt.Fprintf(stderr, "target-oracle: %s: write the report to standard output: %v\n", what, r.err)
	return max(code, ExitFailed)
}

func parseFlags(args []string, stdout, stderr io.Writer) (options, int, bool) {
	var o options
	fs := flag.NewFlagSet("target-oracle", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Func("config", "settings `FILE` (repeatable; files merge left to right) or ENV for TARGET_ORACLE_* variables and .env", func(s string) error {
		o.configs = append(o.configs, s)
		return nil
	})
	fs.Func("input", "read messages from `FILE` instead of stdin", once(&o.input, "a file name"))
	fs.BoolVar(&o.dryRun, "dry-run", false, "run on the embedded engine: no database")
	fs.BoolVar(&o.plan, "plan", false, "connect read-only and show the DDL and DML a run would execute")
	fs.Func("dry-run-dump", "with --dry-run: write statements, tables and rows to `DIR` (replaced)", once(&o.dumpDir, "a directory"))
	fs.BoolVar(&o.check, "check", false, "connect and report whether loading can work")
	fs.BoolVar(&o.verify, "verify", false, "prove on the database, in scratch tables it drops, that every value path lands exactly")
	fs.BoolVar(&o.bench, "benchmark", false, "load synthetic streams into scratch tables it drops and report rows/s, MB/s and round trips")
	fs.Func("rows", "with --benchmark: `N` records of the append and upsert cases (default 200000)", onceInt(&o.rows))
	fs.BoolVar(&o.about, "about", false, "print name, version, capabilities and settings")
	o.format = "text"
	fs.Func("format", "report `format`: text or json (--about, --verify, --benchmark), markdown (--about) (default text)", once(&o.format, "a format"))
	fs.BoolVar(&o.version, "version", false, "print the version")
	fs.Usage = func() { usage(fs) }
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" {
			fs.SetOutput(stdout)
			usage(fs)
			return o, ExitOK, true
		}
	}
	if err := fs.Parse(args); err != nil {
		return o, ExitConfig, true
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "target-oracle: unexpected argument %q\n", fs.Arg(0))
		return o, ExitConfig, true
	}
	if o.dryRun && o.plan {
		fmt.Fprintln(stderr, "target-oracle: --dry-run and --plan exclude each other")
		return o, ExitConfig, true
	}
	if o.dumpDir != "" && !o.dryRun && !o.plan {
		fmt.Fprintln(stderr, "target-oracle: --dry-run-dump needs --dry-run or --plan")
		return o, ExitConfig, true
	}
	if o.dumpDir != "" {
		if err := memory.CheckDumpDir(o.dumpDir); err != nil {
			fmt.Fprintf(stderr, "target-oracle: --dry-run-dump: %v\n", err)
			return o, ExitConfig, true
		}
	}
	if o.check && (o.dryRun || o.plan) {
		fmt.Fprintln(stderr, "target-oracle: --check excludes --dry-run and --plan")
		return o, ExitConfig, true
	}
	if msg := reportUsage(o); msg != "" {
		fmt.Fprintln(stderr, "target-oracle: "+msg)
		return o, ExitConfig, true
	}
	formatGiven := false
	fs.Visit(func(f *flag.Flag) { formatGiven = formatGiven || f.Name == "format" })
	if msg := oneShotUsage(o, fs); msg != "" {
		fmt.Fprintln(stderr, "target-oracle: "+msg)
		return o, ExitConfig, true
	}
	if formatGiven && !o.about && !o.verify && !o.bench {
		// SPEC §2: --format shapes a one-shot report; a load has none.
		fmt.Fprintln(stderr, "target-oracle: --format needs --about, --verify or --benchmark")
		return o, ExitConfig, true
	}
	switch o.format {
	case "text", "json", "markdown":
	default:
		fmt.Fprintf(stderr, "target-oracle: --format must be text, json or markdown, not %q\n", o.format)
		return o, ExitConfig, true
	}
	return o, 0, false
}

// once is a flag that takes one non-empty value: an empty one (`--input
// ""`, an unset variable in a script) would silently mean stdin or no
// dump, and a second one silently replaced the first.
func once(dst *string, what string) func(string) error {
	set := false
	return func(s string) error {
		switch {
		case set:
			return errors.New("given twice")
		case s == "":
			return fmt.Errorf("needs %s, not an empty value", what)
		}
		*dst, set = s, true
		return nil
	}
}

// onceInt is once for an integer flag (--rows): a second value is an
// error, not a silent replacement of the first.
func onceInt(dst *int) func(string) error {
	set := false
	return func(s string) error {
		if set {
			return errors.New("given twice")
		}
		n, err := strconv.ParseInt(s, 0, strconv.IntSize)
		if err != nil {
			return errors.New("parse error")
		}
		*dst, set = int(n), true
		return nil
	}
}

func usage(fs *flag.FlagSet) {
	w := fs.Output()
	fmt.Fprint(w, `target-oracle loads a Singer tap's output into Oracle Database.

Usage:
  target-oracle [--config FILE|ENV]... [--input FILE] [--dry-run | --plan] [--dry-run-dump DIR]
  target-oracle --config FILE --check
  target-oracle --config FILE --verify [--format text|json]
  target-oracle --config FILE --benchmark [--rows N] [--format text|json]
  target-oracle --about [--format text|json|markdown]
  target-oracle --version | --help

In a load only STATE lines are written to standard output; --check, --verify,
--benchmark and --about write only their report there. Logs, METRIC lines and
the summary go to standard error.

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, `
Exit status:
  0    success
  1    the database, the file system or anything else failed
  2    the settings or the command line are wrong
  3    the input alone is wrong (malformed message, invalid schema or record)
  128+N  stopped by signal N (129 SIGHUP, 130 SIGINT, 143 SIGTERM: drain, commit,
         write the true state; a second signal, or SIGQUIT (131, goroutine stacks
         on stderr), aborts at once, rolling back)
`)
}

func run(o options, std IO) int {
	cfg, report, err := config.Load(config.Sources{ConfigArgs: o.configs, Environ: std.Env, WorkDir: std.Dir})
	if err != nil {
		fmt.Fprintf(std.Stderr, "target-oracle: configuration: %s\n", configText(err))
		return ExitConfig
	}
	log := newLogger(cfg, std.Stderr)
	for _, w := range report.Warnings {
		log.Warn(w)
	}
	for _, e := range report.Effective {
		log.Info("setting given through an alias", "effective", e)
	}
	now, err := clock(std.Env)
	if err != nil {
		log.Error(err.Error())
		return ExitConfig
	}
	if o.check || o.plan || !o.dryRun {
		if err := cfg.CheckConnection(); err != nil {
			reporter(cfg, log, std.Stderr)("configuration", errors.New(configText(err)))
			return ExitConfig
		}
	}
	if o.check {
		return check(cfg, std, log)
	}
	if o.verify {
		return verifyCmd(o, cfg, std, log)
	}
	if o.bench {
		return benchmarkCmd(o, cfg, std, log)
	}
	return load(o, std, cfg, log, now)
}

// openRejectPath checks reject_path, when a reject policy will write it,
// against the run's other files (rejectCollision), and opens it now when
// it is no regular file: a FIFO's open(2) waits for its reader, and a
// signal meanwhile must still end the run (unlessSignalled); a regular
// file is created only at the first rejected record (the pipeline).
func openRejectPath(o options, cfg *config.Config, std IO, log *slog.Logger, fail func(string, error)) (*os.File, int) {
	if cfg.RejectPath == "" || !cfg.RejectsInvalidRecords() && !cfg.RejectsDatabaseErrors() {
		return nil, 0
	}
	if err := rejectCollision(o, cfg, std); err != nil {
		fail("reject_path", err)
		return nil, ExitConfig
	}
	fi, err := os.Lstat(cfg.RejectPath)
	if err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
		endRejectLine(cfg.RejectPath, log)
	}
	if err != nil || fi.Mode().IsRegular() || fi.Mode()&os.ModeSymlink != 0 {
		return nil, 0 // the pipeline's check says what is wrong with it
	}
	f, sigCode, err := unlessSignalled(std, log, "opening reject_path", func(context.Context) (*os.File, error) {
		return private.OpenFile(cfg.RejectPath, os.O_APPEND)
	}, func(f *os.File) {
		if f != nil {
			f.Close()
		}
	})
	if sigCode != 0 {
		return nil, sigCode
	}
	if err != nil {
		fail("reject_path", fmt.Errorf("reject_path %q cannot be written: %w", cfg.RejectPath, err))
		return nil, ExitFailed
	}
	return f, 0
}

// endRejectLine ends the last line of an existing reject_path file when
// it lacks its line end: an earlier run stopped in the middle of writing a
// rejected record (killed, or the disk full). The rejected records of this
// run are appended after it; glued to the cut line, the first would be no
// JSON line either, and a STATE covers it. Errors are left to the
// pipeline's own check of the path.
func endRejectLine(path string, log *slog.Logger) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		return
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, fi.Size()-1); err != nil || last[0] == '\n' {
		return
	}
	if _, err := f.Write([]byte("\n")); err != nil {
		return
	}
	log.Warn("reject_path ended inside a line (an earlier run stopped while writing a rejected record): a line end was added, so that this run's rejected records start on lines of their own",
		"reject_path", path)
}

func load(o options, std IO, cfg *config.Config, log *slog.Logger, now func() time.Time) int {
	fail := reporter(cfg, log, std.Stderr)
	if std.StateClosed != nil && !o.plan {
		fail("stdout", std.StateClosed)
		return ExitFailed
	}
	var summary *metrics.SummaryFile
	if cfg.SummaryPath != "" {
		if err := summaryCollision(o, cfg, std); err != nil {
			fail("summary_path", err)
			return ExitConfig
		}
		// A FIFO blocks open(2) until a reader comes: a signal meanwhile
		// must still end the run (unlessSignalled).
		sf, sigCode, err := unlessSignalled(std, log, "opening summary_path", func(context.Context) (*metrics.SummaryFile, error) {
			return metrics.OpenSummary(cfg.SummaryPath)
		}, func(sf *metrics.SummaryFile) { sf.Close() })
		if sigCode != 0 {
			return sigCode
		}
		if err != nil {
			fail("summary", err)
			return ExitFailed // a file-system failure (SPEC §2), before anything loads
		}
		summary = sf
		defer summary.Close()
	}
	rejectFile, rcode := openRejectPath(o, cfg, std, log, fail)
	if rcode != 0 {
		return rcode
	}
	if rejectFile != nil {
		defer rejectFile.Close() // the pipeline closes it; this is for the paths that end before
	}
	in, closeIn, sigCode, err := openInputUnlessSignalled(o.input, std, log)
	if err != nil {
		fail("input", err)
		if sigCode != 0 { // a signal while open(2) blocked
			return sigCode
		}
		return ExitFailed
	}
	defer closeIn()
	srvInfo := dryRunServer(cfg)
	var eng engine.Engine
	var dump *memory.Engine // the embedded engine of --dry-run and --plan
	stateOut := std.State
	switch {
	case o.dryRun:
		log.Warn("dry run: STATE lines describe the embedded engine, not a database; do not feed them to an orchestrator's state store")
		fault, ferr := parseFault(getenv(std.Env, FaultEnv))
		if ferr != nil {
			fail(FaultEnv, ferr)
			return ExitConfig
		}
		if dump, err = embedded(o, std, cfg, fail, srvInfo, now, nil, fault.hooks()); err != nil {
			return ExitConfig
		}
		eng = dump
		if fault != nil && fault.kind == "state" {
			stateOut = faultWriter{w: stateOut, f: fault}
		}
	default:
		srv, code, err := dialUnlessSignalled(std, log, func(ctx context.Context) (*server, int, error) {
			return dial(ctx, cfg, log)
		})
		if err != nil {
			fail("connect", err)
			return code
		}
		defer srv.db.Close()
		srvInfo = serverFromFacts(srv.facts)
		if o.plan {
			// Read the real catalog, write nothing: the embedded engine
			// runs the plan and shows its SQL. No STATE is written.
			real := srv.engine(cfg, log, true)
			if dump, err = embedded(o, std, cfg, fail, srvInfo, now, real.Describe, memory.Hooks{}); err != nil {
				return ExitConfig
			}
			eng, stateOut = planEngine{Engine: dump, indexes: real}, io.Discard
		} else {
			eng = srv.engine(cfg, log, false)
		}
	}
	reg := metrics.New(std.Stderr, time.Duration(cfg.MetricsIntervalSeconds)*time.Second, time.Now())
	reg.SetOutput(metrics.Output{JSON: cfg.LogFormat == "json", BatchTimers: cfg.LogLevel == "debug"})
	if cfg.HTTPListenAddress != "" {
		srv, err := metrics.Serve(cfg.HTTPListenAddress, reg)
		if err != nil {
			fail("http_listen_address", err)
			return ExitConfig
		}
		defer srv.Close()
		log.Info("serving /healthz and /metrics", "address", srv.Addr())
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := make(chan struct{})
	ended := make(chan struct{})
	defer close(ended)
	sig := watchSignals(signalWatch{sigs: std.Signals, stop: stop, cancel: cancel, log: log,
		stderr: std.Stderr, exit: std.Exit, ended: ended})

	// A dump run too: its rows live on disk (memory/spill.go), and without
	// the limit 10,000 one-row streams peaked at 620 MB, past the bound.
	streamsChanged, longLine := limitMemory(cfg, std.Env)
	err = pipeline.Run(ctx, pipeline.Options{
		StreamsChanged: streamsChanged,
		LongLine:       longLine,
		Config:         cfg,
		Engine:         eng,
		Server:         srvInfo,
		Input:          in,
		StateOut:       stateOut,
		Log:            log,
		Now:            now,
		Stop:           stop,
		Metrics:        reg,
		RejectFile:     rejectFile,
		OwnFile:        ownFile(o, cfg, std),
	})
	if cerr := eng.Close(); cerr != nil {
		fail("close", cerr)
		if err == nil {
			err = cerr
		}
	}
	if o.plan && dump != nil {
		for _, st := range dump.Statements() {
			log.Info("plan", "sql", st)
		}
	}
	switch {
	case errors.Is(err, pipeline.ErrDrainCut):
		reg.StoppedShort() // records read were not loaded: not drained
	case errors.Is(err, pipeline.ErrStopped):
		reg.Stopped() // a drain that succeeded is no failure
	}
	sum := reg.Finish(time.Now(), err)
	code := exitCode(err, sig(), fail)
	if o.dumpDir != "" {
		announceDump(log, o.dumpDir, err)
	}
	if summary != nil {
		if serr := summary.Write(sum); serr != nil {
			fail("summary", serr)
			if code == ExitOK {
				code = ExitFailed // a file-system failure (SPEC §2)
			}
		}
	}
	return code
}

// announceDump is the last log line of a run with --dry-run-dump: where
// the dump is and what it holds (SPEC §11), also after a failure.
func announceDump(log *slog.Logger, dir string, runErr error) {
	tables, _ := filepath.Glob(filepath.Join(dir, "tables", "*.jsonl"))
	what := "what the run committed"
	if runErr != nil {
		what = "what was committed before the run stopped"
	}
	log.Info("dry-run dump written: statements.sql (every statement run), tables.json (table shapes), tables/SCHEMA.TABLE.jsonl (rows by primary key)",
		"dir", dir, "tables", len(tables), "holds", what)
}

// reporter returns how an error that ends the run is shown once the
// settings are read: a plain line a person can read (quotes unescaped)
// with log_format text, a log record with json (so every stderr line of
// the run is one).
func reporter(cfg *config.Config, log *slog.Logger, stderr io.Writer) func(what string, err error) {
	return func(what string, err error) {
		if cfg.LogFormat == "json" {
			log.Error(what, "err", err.Error())
			return
		}
		fmt.Fprintf(stderr, "target-oracle: %s: %v\n", what, err)
	}
}

// planEngine is --plan's engine: the embedded engine, whose tables from
// the real catalog have their indexes read from it as a load reads them
// (engine.IndexReader, asked only for a table with custom indexes), so
// the plan shows the CREATE INDEX of a custom index the table lacks.
type planEngine struct {
	*memory.Engine
	indexes engine.IndexReader // the real, read-only engine
}

// Indexes implements engine.IndexReader.
func (p planEngine) Indexes(ctx context.Context, t *table.Table) ([]table.Index, error) {
	return p.indexes.Indexes(ctx, t)
}

// embedded builds the embedded engine of --dry-run (catalog nil) and
// --plan (catalog: the real database's, read only); fail reports why not.
func embedded(o options, std IO, cfg *config.Config, fail func(string, error), srv pipeline.Server, now func() time.Time,
	catalog func(ctx context.Context, schema, name string) (*table.Table, error), hooks memory.Hooks) (*memory.Engine, error) {
	mo := memory.Options{DumpDir: o.dumpDir, Now: now, Catalog: catalog, StorePath: getenv(std.Env, StoreEnv), Hooks: hooks, MaxColumns: srv.MaxColumns, NoColumnComments: !cfg.ColumnComments}
	for name, dst := range map[string]*time.Duration{LoadDelayEnv: &mo.LoadDelay, DDLDelayEnv: &mo.ApplyDelay} {
		if v := getenv(std.Env, name); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil {
				fail(name, err)
				return nil, err
			}
			*dst = d
		}
	}
	if o.dumpDir != "" || o.plan {
		// statements.sql and the plan hold what the Oracle engine would
		// run, rendered by the same renderer.
		mo.Render = newRenderer(cfg, srv)
	}
	eng, err := memory.Open(mo)
	if err != nil {
		fail(StoreEnv, err)
		return nil, err
	}
	return eng, nil
}

// newRenderer is the SQL renderer for a run.
func newRenderer(cfg *config.Config, srv pipeline.Server) *oraclesql.Renderer {
	return oraclesql.New(oraclesql.Options{
		Tablespace:         cfg.Tablespace,
		IndexTablespace:    cfg.IndexTablespace,
		LOBTablespace:      cfg.LOBTablespace,
		GrantSelectTo:      cfg.GrantSelectTo,
		ColumnComments:     cfg.ColumnComments,
		IdentifierMaxBytes: srv.IdentifierMaxBytes,
		LockWaitSeconds:    cfg.DDLLockTimeoutSeconds,
	})
}

// dryRunServer is the server --dry-run assumes: Oracle 19c with default
// parameters, schema DRY_RUN, with the limits identifier_max_bytes and
// varchar_max_bytes set (auto keeps 19c's). The renderer of the dump
// derives names (<TABLE>_PK, check constraints, migration columns) from
// this limit, so it must be the one the table model names columns by.
func dryRunServer(cfg *config.Config) pipeline.Server {
	return pipeline.Server{
		DefaultSchema:      "DRY_RUN",
		IdentifierMaxBytes: cfg.IdentifierMaxBytesFor(table.MaxBytesLong),
		VarcharMaxBytes:    cfg.VarcharMaxBytesFor(4000),
		MaxColumns:         cfg.MaxColumnsFor(0), // auto keeps 19c's 1000 (0)
	}
}

// exitCode maps the run's outcome to the exit status, by cause.
func exitCode(err error, signalled os.Signal, report func(string, error)) int {
	if signalled != nil {
		if err != nil && !errors.Is(err, pipeline.ErrStopped) && !errors.Is(err, context.Canceled) {
			report("drain after signal failed", err)
		}
		if s, ok := signalled.(syscall.Signal); ok {
			return 128 + int(s)
		}
		return 128 + 15
	}
	if err == nil {
		return ExitOK
	}
	var ie *inputerr.Error
	var ce *config.Error
	switch {
	case errors.As(err, &ie):
		report("invalid input", err)
		return ExitInput
	case errors.As(err, &ce):
		report("configuration", errors.New(configText(err)))
		return ExitConfig
	}
	report("load failed", err)
	return ExitFailed
}

// abortGrace is how long a hard stop lets the run unwind (cancelled
// statements, rollbacks) before the process exits anyway. Exiting without
// the rollback loses nothing: Oracle rolls back the transactions of a
// session that ends, and the embedded store commits atomically.
const abortGrace = time.Second

// signalWatch is what watchSignals needs.
type signalWatch struct {
	sigs   <-chan os.Signal
	stop   chan struct{}      // closed by the first draining signal
	cancel context.CancelFunc // the hard stop
	log    *slog.Logger
	stderr io.Writer
	exit   func(int)     // nil: never forced
	ended  chan struct{} // closed when the run has returned
}

// watchSignals turns the first SIGINT, SIGTERM or SIGHUP into a soft stop
// (close stop: drain, commit, write the true state) and a second signal,
// or SIGQUIT at any time, into a hard stop: cancel the run (rolling back)
// and, if it has not ended within abortGrace (say it is blocked writing to
// a fd 1 that nobody reads), exit without it. SIGQUIT first writes every
// goroutine's stack to stderr, as Go's default handler would, but exits
// 131 instead of 2. It returns a func that reports the signal the exit
// code is decided by: the hard stop's, else the first.
func watchSignals(w signalWatch) func() os.Signal {
	if w.sigs == nil {
		return func() os.Signal { return nil }
	}
	var mu sync.Mutex
	var decided os.Signal
	set := func(s os.Signal) {
		mu.Lock()
		decided = s
		mu.Unlock()
	}
	go func() {
		drained := false
		for s := range w.sigs {
			if s == syscall.SIGQUIT || drained {
				set(s)
				w.hardStop(s)
				return
			}
			drained = true
			set(s)
			close(w.stop)
		}
	}()
	return func() os.Signal {
		mu.Lock()
		defer mu.Unlock()
		return decided
	}
}

func (w signalWatch) hardStop(s os.Signal) {
	if s == syscall.SIGQUIT {
		fmt.Fprintf(w.stderr, "SIGQUIT: goroutine stacks follow\n")
		pprof.Lookup("goroutine").WriteTo(w.stderr, 2)
	}
	what := "second signal"
	if s == syscall.SIGQUIT {
		what = "SIGQUIT"
	}
	w.log.Warn(what+": aborting, rolling back; nothing more is written to stdout", "signal", s.String())
	w.cancel()
	if w.exit == nil {
		return
	}
	select {
	case <-w.ended:
	case <-time.After(abortGrace):
		code := 128 + 15
		if n, ok := s.(syscall.Signal); ok {
			code = 128 + int(n)
		}
		w.exit(code)
	}
}

// openInputUnlessSignalled opens --input; a signal while open(2) blocks
// (a FIFO whose writer has not started) ends it with code 128+N.
func openInputUnlessSignalled(path string, std IO, log *slog.Logger) (io.Reader, func(), int, error) {
	type opened struct {
		r     io.Reader
		close func()
	}
	in, code, err := unlessSignalled(std, log, "opening the input", func(context.Context) (opened, error) {
		r, c, err := openInput(path, std.Stdin)
		return opened{r, c}, err
	}, func(o opened) {
		if o.close != nil {
			o.close()
		}
	})
	return in.r, in.close, code, err
}

func openInput(path string, stdin io.Reader) (io.Reader, func(), error) {
	if path == "" || path == "-" {
		return stdin, func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

func clock(env []string) (func() time.Time, error) {
	if v := getenv(env, ClockEnv); v != "" {
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not an RFC 3339 time", ClockEnv, v)
		}
		return func() time.Time { return t }, nil
	}
	return nil, nil // the real clock; the pipeline then formats receipt times once per chunk
}

// getenv reads a variable from env ("KEY=value" strings); the last wins.
func getenv(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if s, ok := strings.CutPrefix(kv, key+"="); ok {
			v = s
		}
	}
	return v
}

func newLogger(cfg *config.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	ho := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, ho))
	}
	return slog.New(slog.NewTextHandler(w, ho))
}

// Signals returns a channel of SIGINT, SIGTERM, SIGHUP and SIGQUIT for
// Main.
func Signals() <-chan os.Signal {
	c := make(chan os.Signal, 4)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	// A closed stdout (the orchestrator went away) must be a write error
	// the run reports and exits 1 with, not a silent death by SIGPIPE.
	signal.Ignore(syscall.SIGPIPE)
	return c
}
