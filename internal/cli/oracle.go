package cli

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/connect"
	"github.com/target-oracle/target-oracle/internal/pipeline"
)

// check runs --check: connect, read what the server is and what the user
// may do, print the report. Exit 0 only if loading can work.
func check(cfg *config.Config, io IO, log *slog.Logger) int {
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(cfg.ConnectTimeoutSeconds+60)*time.Second)
	defer cancel()
	db, err := connect.Open(ctx, cfg)
	if err != nil {
		fmt.Fprintf(io.Stderr, "target-oracle: --check: %v\n", err)
		return ExitFailed
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		fmt.Fprintf(io.Stderr, "target-oracle: --check: %v\n", err)
		return ExitFailed
	}
	info, err := connect.Probe(ctx, conn)
	conn.Close()
	if err != nil {
		fmt.Fprintf(io.Stderr, "target-oracle: --check: %v\n", err)
		return ExitFailed
	}
	for _, w := range info.Warnings {
		log.Warn(w)
	}
	facts := info.Resolve(cfg)
	report, err := connect.Check(ctx, db, cfg, facts)
	if err != nil {
		fmt.Fprintf(io.Stderr, "target-oracle: --check: %v\n", err)
		return ExitFailed
	}
	// --check is not a pipeline run: the report goes to stdout, where a
	// person or a script reads it.
	if err := report.Write(io.State); err != nil {
		return ExitFailed
	}
	if !report.OK() {
		return ExitFailed
	}
	return ExitOK
}

// serverFromFacts turns the resolved server facts into what the pipeline
// and the table model need.
func serverFromFacts(f connect.Facts) pipeline.Server {
	return pipeline.Server{
		DefaultSchema:      f.DefaultSchema,
		IdentifierMaxBytes: f.IdentifierMaxBytes,
		VarcharMaxBytes:    f.VarcharMaxBytes,
		BooleanNative:      f.BooleanNative,
		JSONNative:         f.JSONNative,
		NationalNeeded:     f.National,
	}
}
