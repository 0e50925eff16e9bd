package cli

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"runtime/pprof"
	"syscall"

	"github.com/target-oracle/target-oracle/internal/benchmark"
	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/connect"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/verify"
)

// oneShotUsage checks the flags of --verify and --benchmark (SPEC §2); ""
// when they are fine.
func oneShotUsage(o options, fs *flag.FlagSet) string {
	rowsGiven := false
	fs.Visit(func(f *flag.Flag) { rowsGiven = rowsGiven || f.Name == "rows" })
	switch {
	case o.verify && o.bench:
		return "--verify and --benchmark exclude each other"
	case (o.verify || o.bench) && (o.check || o.dryRun || o.plan || o.about):
		return "--verify and --benchmark exclude --check, --dry-run, --plan and --about"
	case (o.verify || o.bench) && o.input != "":
		return "--verify and --benchmark read no input: they make their own"
	case rowsGiven && !o.bench:
		return "--rows needs --benchmark"
	case rowsGiven && o.rows < 1:
		return fmt.Sprintf("--rows must be at least 1, not %d", o.rows)
	case (o.verify || o.bench) && o.format != "text" && o.format != "json":
		return fmt.Sprintf("--format of --verify and --benchmark must be text or json, not %q", o.format)
	}
	return ""
}

// verifyCmd runs --verify: its report alone goes to stdout. Exit 0 only
// if every case passed; 128+N after a signal (the scratch tables are
// dropped first).
func verifyCmd(o options, cfg *config.Config, std IO, log *slog.Logger) int {
	fail := reporter(cfg, log, std.Stderr)
	srv, code, err := dialUnlessSignalled(std, log, func(ctx context.Context) (*server, int, error) {
		return dial(ctx, cfg, log)
	})
	if err != nil {
		fail("--verify: connect", err)
		return code
	}
	defer srv.db.Close()
	ctx, signalled, stop := oneShotContext(std, log)
	defer stop()
	eng := srv.engine(cfg, log, false)
	defer eng.Close()
	rep, err := verify.Run(ctx, verify.Options{
		Config: cfg, Facts: srv.facts, Server: serverFromFacts(srv.facts), Engine: eng, Dial: oracle.DialDB(srv.db),
		Check: checker(srv.db, cfg, srv.facts), Log: log,
	})
	return finish("--verify", rep.Write, rep.OK, err, o.format, std, fail, signalled)
}

// benchmarkCmd runs --benchmark on sessions whose sockets count round
// trips.
func benchmarkCmd(o options, cfg *config.Config, std IO, log *slog.Logger) int {
	var rt benchmark.RoundTrips
	fail := reporter(cfg, log, std.Stderr)
	srv, code, err := dialUnlessSignalled(std, log, func(ctx context.Context) (*server, int, error) {
		return dialWrapped(ctx, cfg, log, rt.Wrap)
	})
	if err != nil {
		fail("--benchmark: connect", err)
		return code
	}
	defer srv.db.Close()
	ctx, signalled, stop := oneShotContext(std, log)
	defer stop()
	eng := srv.engine(cfg, log, false)
	defer eng.Close()
	rep, err := benchmark.Run(ctx, benchmark.Options{
		Config: cfg, Facts: srv.facts, Server: serverFromFacts(srv.facts), Engine: eng, RoundTrips: rt.Count,
		Dial: oracle.DialDB(srv.db), Check: checker(srv.db, cfg, srv.facts), Rows: o.rows, Log: log,
	})
	return finish("--benchmark", rep.Write, rep.OK, err, o.format, std, fail, signalled)
}

func checker(db *sql.DB, cfg *config.Config, facts connect.Facts) func(context.Context) (connect.Report, error) {
	return func(ctx context.Context) (connect.Report, error) { return connect.Check(ctx, db, cfg, facts) }
}

// finish prints the report on stdout and decides the exit code; fail
// reports an error on stderr.
func finish(what string, write func(io.Writer, string) error, ok func() bool, runErr error, format string, std IO,
	fail func(string, error), signalled func() syscall.Signal) int {
	if err := write(std.State, format); err != nil {
		fail(what+": write the report", err)
		return ExitFailed
	}
	if s := signalled(); s != 0 {
		return 128 + int(s)
	}
	if runErr != nil && !errors.Is(runErr, context.Canceled) {
		fail(what, runErr)
		return ExitFailed
	}
	if !ok() {
		return ExitFailed
	}
	return ExitOK
}

// oneShotContext is a context the first SIGINT, SIGTERM or SIGHUP cancels
// (the run stops and drops its scratch tables); a second signal, or
// SIGQUIT, exits at once without the cleanup.
func oneShotContext(std IO, log *slog.Logger) (context.Context, func() syscall.Signal, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan syscall.Signal, 1)
	done := make(chan struct{})
	var first syscall.Signal
	if std.Signals != nil {
		go func() {
			n := 0
			for {
				select {
				case <-done:
					return
				case s := <-std.Signals:
					sig, _ := s.(syscall.Signal)
					n++
					if n == 1 && sig != syscall.SIGQUIT {
						select {
						case got <- sig:
						default:
						}
						log.Warn("signal: stopping, dropping the scratch tables", "signal", s.String())
						cancel()
						continue
					}
					if n == 1 { // SIGQUIT first: it decides the exit code
						select {
						case got <- sig:
						default:
						}
					}
					what := "second signal"
					if sig == syscall.SIGQUIT {
						// As in a load (SPEC §7 rule 5): the stacks first.
						what = "SIGQUIT"
						if std.Stderr != nil {
							fmt.Fprintf(std.Stderr, "SIGQUIT: goroutine stacks follow\n")
							_ = pprof.Lookup("goroutine").WriteTo(std.Stderr, 2)
						}
					}
					log.Warn(what+": exiting without dropping the scratch tables (they are dropped by the next run after an hour)", "signal", s.String())
					if std.Exit != nil {
						std.Exit(128 + int(sig))
					}
					cancel()
				}
			}
		}()
	}
	signalled := func() syscall.Signal {
		if first == 0 {
			select {
			case first = <-got:
			default:
			}
		}
		return first
	}
	return ctx, signalled, func() { close(done); cancel() }
}
