package connect

import (
	"context"
	"database/sql"
	"log/slog"
	"net"

	"github.com/target-oracle/target-oracle/internal/config"
)

// OpenWrapped is Open with every socket go-ora dials (through
// OracleConnector.Dialer) passed through wrap: --benchmark counts round
// trips with a net.Conn wrapper, since go-ora keeps no count. A wrapped
// socket is no *net.TCPConn, so go-ora sends a break in band (a marker
// packet) rather than as out-of-band data (network/net_others.go).
func OpenWrapped(ctx context.Context, cfg *config.Config, log *slog.Logger, wrap func(net.Conn) net.Conn) (*sql.DB, error) {
	c, err := connectorWrapped(cfg, log, wrap)
	if err != nil {
		return nil, err
	}
	db := sql.OpenDB(c)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}
