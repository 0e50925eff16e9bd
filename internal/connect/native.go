package connect

import (
	"context"
	"fmt"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// readVector decides whether the VECTOR type exists: Oracle 23ai from
// 23.4 with COMPATIBLE at least 23.4; when COMPATIBLE is not readable, a
// query that builds a vector tells (ORA-00904 or ORA-00902 without it).
func (s *ServerInfo) readVector(ctx context.Context, q querier) error {
	switch {
	case s.Major < 23 || !versionAtLeast(s.Version, 23, 4):
		s.VectorType = false
	case s.Compatible != "":
		s.VectorType = versionAtLeast(s.Compatible, 23, 4)
	default:
		ok, err := s.feature(ctx, q, probeVector(), "the VECTOR type", 902, 904)
		s.VectorType = ok
		return err
	}
	return nil
}

// columns is the column limit: 4096 only where MAX_COLUMNS is EXTENDED
// (auto reads it; unknown means the 1000 every server allows). 0 stands
// for 1000, as in table.Options.
func (f *Facts) columns(cfg *config.Config) int {
	server := table.MaxColumns
	if f.Server.MaxColumns == "EXTENDED" {
		server = table.MaxColumnsExtended
	}
	n := cfg.MaxColumnsFor(server)
	if n > server {
		f.Problems = append(f.Problems, fmt.Sprintf("max_columns is %d but MAX_COLUMNS is %s (%d columns per table; EXTENDED, on 23ai, allows %d)",
			n, orUnknown(f.Server.MaxColumns), server, table.MaxColumnsExtended))
	}
	if n <= table.MaxColumns {
		return 0
	}
	return n
}

// probeVector returns one row when the VECTOR type exists (23ai).
// LOCAL SQL — to be moved into internal/oraclesql (catalog.go) with the
// other probes of queries.go.
func probeVector() oraclesql.Statement {
	return oraclesql.Statement{SQL: "SELECT VECTOR_DIMENSION_COUNT(TO_VECTOR('[1]')) AS PROBE FROM DUAL", Kind: oraclesql.KindQuery}
}
