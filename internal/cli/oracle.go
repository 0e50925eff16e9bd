package cli

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/connect"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/pipeline"
	"github.com/target-oracle/target-oracle/internal/table"
)

// server is a connected database and what it is.
type server struct {
	db    *sql.DB
	facts connect.Facts
}

// dial connects and probes the server. Settings the server cannot honour
// (say boolean_type: boolean on 19c) are configuration errors.
func dial(ctx context.Context, cfg *config.Config, log *slog.Logger) (*server, int, error) {
	return dialWrapped(ctx, cfg, log, nil)
}

// dialWrapped is dial with every socket passed through wrap (nil: none):
// --benchmark counts round trips so.
func dialWrapped(ctx context.Context, cfg *config.Config, log *slog.Logger, wrap func(net.Conn) net.Conn) (*server, int, error) {
	srv, code, err := probeServer(ctx, cfg, log, wrap)
	if err != nil {
		return nil, code, err
	}
	if p := srv.facts.Problems; len(p) > 0 {
		srv.db.Close()
		return nil, ExitConfig, fmt.Errorf("the server cannot honour these settings: %s", strings.Join(p, "; "))
	}
	return srv, 0, nil
}

// probeServer connects and probes the server; the facts it returns may
// hold Problems (settings the server cannot honour), which --check
// reports as FAIL lines and every other mode refuses (dialWrapped).
func probeServer(parent context.Context, cfg *config.Config, log *slog.Logger, wrap func(net.Conn) net.Conn) (*server, int, error) {
	ctx, cancel := context.WithTimeout(parent, time.Duration(cfg.ConnectTimeoutSeconds+60)*time.Second)
	defer cancel()
	// The run's logger writes the connection's warnings (an ignored Easy
	// Connect parameter), so log_format and log_level apply to them.
	db, err := connect.OpenWrapped(ctx, cfg, log, wrap)
	var settings *connect.SettingsError
	if errors.As(err, &settings) {
		return nil, ExitConfig, err
	}
	if err != nil {
		return nil, ExitFailed, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, ExitFailed, err
	}
	info, err := connect.Probe(ctx, conn)
	conn.Close()
	if err != nil {
		db.Close()
		return nil, ExitFailed, err
	}
	for _, w := range info.Warnings {
		log.Warn(w)
	}
	facts := info.Resolve(cfg)
	log.Info("connected", "server", info.Version, "edition", info.Edition, "compatible", info.Compatible,
		"schema", facts.DefaultSchema, "identifier_max_bytes", facts.IdentifierMaxBytes,
		"varchar_max_bytes", facts.VarcharMaxBytes, "boolean", facts.BooleanNative, "json", facts.JSONNative,
		"national", facts.National, "max_columns", max(facts.MaxColumns, table.MaxColumns), "vector", facts.VectorNative)
	return &server{db: db, facts: facts}, 0, nil
}

// dialUnlessSignalled runs dial (which connects and probes) until it ends
// or a signal arrives: connecting to a host that accepts and never answers
// takes up to connect_timeout_seconds, and an interrupt (Ctrl-C, an
// orchestrator cancelling the task) must end it at once with exit 128+N,
// not wait for the timeout and exit 1 (SPEC §2, §7 rule 5).
func dialUnlessSignalled(std IO, log *slog.Logger, dial func(context.Context) (*server, int, error)) (*server, int, error) {
	type dialed struct {
		srv  *server
		code int
	}
	d, code, err := unlessSignalled(std, log, "connecting", func(ctx context.Context) (dialed, error) {
		srv, code, err := dial(ctx)
		return dialed{srv, code}, err
	}, func(d dialed) {
		if d.srv != nil {
			d.srv.db.Close()
		}
	})
	if code != 0 {
		return nil, code, err
	}
	return d.srv, d.code, err
}

// unlessSignalled runs a blocking step that comes before the run's own
// signal handling (opening the input, connecting) in a goroutine, and
// returns early if the first SIGINT, SIGTERM, SIGHUP or SIGQUIT arrives:
// signal.Notify has already taken those signals from the runtime, so
// without this a step that blocks (open(2) on a FIFO nobody writes, a
// server that never answers) would ignore every one of them. Nothing is
// loaded yet, so there is nothing to drain: the context is cancelled, the
// step gets abortGrace to return (what it returns is discarded), and the
// exit code is 128+N. Once the step is done, the run reads the channel.
func unlessSignalled[T any](std IO, log *slog.Logger, what string, step func(context.Context) (T, error), discard func(T)) (T, int, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		v   T
		err error
	}
	res := make(chan result, 1)
	go func() {
		v, err := step(ctx)
		res <- result{v, err}
	}()
	var zero T
	select {
	case r := <-res:
		return r.v, 0, r.err
	case got := <-std.Signals: // a nil channel (no signal handling) never delivers
		if got == syscall.SIGQUIT {
			fmt.Fprintf(std.Stderr, "SIGQUIT: goroutine stacks follow\n")
			pprof.Lookup("goroutine").WriteTo(std.Stderr, 2)
		}
		log.Warn("signal while "+what+": stopping; nothing was loaded", "signal", got.String())
		cancel()
		select {
		case r := <-res:
			discard(r.v)
		case <-time.After(abortGrace): // open(2) on a FIFO cannot be cancelled
			go func() { discard((<-res).v) }()
		}
		n := 15
		if s, ok := got.(syscall.Signal); ok {
			n = int(s)
		}
		return zero, 128 + n, fmt.Errorf("stopped by signal %s while %s", got, what)
	}
}

// engine is the Oracle engine for a connected server; a read-only one
// (--plan) reads the catalog and refuses every change.
func (s *server) engine(cfg *config.Config, log *slog.Logger, readOnly bool) *oracle.Engine {
	return oracle.New(oracle.DialDB(s.db), newRenderer(cfg, serverFromFacts(s.facts)), oracle.Options{
		MaxStringBytes:        s.facts.VarcharMaxBytes,
		Charset:               s.facts.Server.DBCharset,
		NationalCharsetID:     oracle.CharsetID(s.facts.Server.NCharset),
		StatementTimeout:      time.Duration(cfg.StatementTimeoutSeconds) * time.Second,
		DDLLockTimeoutSeconds: cfg.DDLLockTimeoutSeconds,
		Log:                   log,
		ReadOnly:              readOnly,
	})
}

// check runs --check: connect, read what the server is and what the user
// may do, print the report. Exit 0 only if loading can work.
func check(cfg *config.Config, std IO, log *slog.Logger) int {
	// Settings the server cannot honour do not stop --check: its report
	// shows the server facts with a FAIL line for each (docs/oracle.md).
	fail := reporter(cfg, log, std.Stderr)
	srv, code, err := dialUnlessSignalled(std, log, func(ctx context.Context) (*server, int, error) {
		return probeServer(ctx, cfg, log, nil)
	})
	if err != nil {
		fail("--check: connect", err)
		return code
	}
	db, facts := srv.db, srv.facts
	defer db.Close()
	// The queries after the login are guarded as the login is: a server
	// that stops answering must not make SIGTERM or Ctrl-C wait out the
	// timeout (signal.Notify has taken them from the runtime).
	report, sigCode, err := unlessSignalled(std, log, "checking the server", func(sctx context.Context) (connect.Report, error) {
		ctx, cancel := context.WithTimeout(sctx, time.Duration(cfg.ConnectTimeoutSeconds+60)*time.Second)
		defer cancel()
		return connect.Check(ctx, db, cfg, facts)
	}, func(connect.Report) {})
	if sigCode != 0 {
		return sigCode
	}
	if err != nil {
		fail("--check", err)
		return ExitFailed
	}
	// --check is not a pipeline run: the report goes to stdout, where a
	// person or a script reads it.
	if err := report.Write(std.State); err != nil {
		fail("--check: write the report to standard output", err)
		return ExitFailed
	}
	switch {
	case len(facts.Problems) > 0:
		return ExitConfig // the settings are wrong for this server, as a load would say
	case !report.OK():
		return ExitFailed
	}
	return ExitOK
}

// serverFromFacts turns the resolved server facts into what the pipeline
// and the table model need.
func serverFromFacts(f connect.Facts) pipeline.Server {
	return pipeline.Server{
		DefaultSchema:      f.DefaultSchema,
		UserSchema:         f.Server.CurrentSchema,
		IdentifierMaxBytes: f.IdentifierMaxBytes,
		VarcharMaxBytes:    f.VarcharMaxBytes,
		BooleanNative:      f.BooleanNative,
		JSONNative:         f.JSONNative,
		NationalNeeded:     f.National,
		MaxColumns:         f.MaxColumns,
		VectorNative:       f.VectorNative,
	}
}
