package connect

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"log/slog"

	"github.com/target-oracle/target-oracle/internal/config"
)

// The tests' ways in: the program connects through OpenWrapped (the CLI
// passes its logger and the round-trip counter's wrap).

// Connector returns a database/sql connector for the connection settings
// of cfg. It resolves the dsn (reading tnsnames.ora for an alias) and
// checks the result with go-ora's own parser, so that a wrong setting
// fails here rather than at the first query. Warnings (an IFILE that is
// not followed, ignored Easy Connect parameters) go to slog.Default();
// ConnectorLog chooses the logger.
func Connector(cfg *config.Config) (driver.Connector, error) {
	return ConnectorLog(cfg, slog.Default())
}

// ConnectorLog is Connector with the logger for warnings.
func ConnectorLog(cfg *config.Config, log *slog.Logger) (driver.Connector, error) {
	return connectorWrapped(cfg, log, nil)
}

// Open returns a pool of sessions for cfg after one successful ping, so
// that a wrong host, service or password is reported now. The caller
// closes the pool.
func Open(ctx context.Context, cfg *config.Config) (*sql.DB, error) {
	return OpenWrapped(ctx, cfg, slog.Default(), nil)
}
