package oraclesql

import (
	"strconv"

	"github.com/target-oracle/target-oracle/internal/table"
)

// virtualPartitionColumn is the UTC instant of a WITH TIME ZONE column,
// the partition key Oracle accepts in its place (it refuses TIMESTAMP WITH
// TIME ZONE interval keys with ORA-14751).
func virtualPartitionColumn(p *table.Partition) string {
	return table.Quote(p.Column) + " TIMESTAMP(" + strconv.Itoa(p.Frac) + ") GENERATED ALWAYS AS (SYS_EXTRACT_UTC(" + table.Quote(p.Source) + ")) VIRTUAL"
}

// partitionClause is interval range partitioning with one partition below
// 2000-01-01 (Oracle needs one range partition to start the intervals;
// earlier values all land in it), and ENABLE ROW MOVEMENT (an upsert that
// changes the key's partition moves the row instead of failing with
// ORA-14402). The bound is a TO_DATE: a DATE bound serves TIMESTAMP keys
// too, and the session's NLS_CALENDAR is GREGORIAN. P0 is written
// unquoted (the same name to Oracle), the form the lint grammar accepts.
func partitionClause(p *table.Partition) string {
	if p == nil {
		return ""
	}
	s := " PARTITION BY RANGE (" + table.Quote(p.Column) + ") INTERVAL (" + intervalExpr(p.Interval) + ")" +
		" (PARTITION P0 VALUES LESS THAN (TO_DATE('2000-01-01', 'YYYY-MM-DD')))"
	if p.RowMovement {
		s += " ENABLE ROW MOVEMENT"
	}
	return s
}

func intervalExpr(interval string) string {
	switch interval {
	case "day":
		return "NUMTODSINTERVAL(1, 'DAY')"
	case "year":
		return "NUMTOYMINTERVAL(1, 'YEAR')"
	}
	return "NUMTOYMINTERVAL(1, 'MONTH')"
}

// compressionClause is the table compression of a new table. "advanced" is
// OLTP compression (Advanced Compression option); the query_* and archive_*
// levels are Hybrid Columnar Compression, which needs Exadata, ZFS/Pillar
// storage or Autonomous Database (elsewhere CREATE TABLE fails with
// ORA-64307). BASIC is not offered: it compresses direct-path loads only,
// and this loader uses conventional array DML.
func compressionClause(c string) string {
	switch c {
	case "advanced":
		return " ROW STORE COMPRESS ADVANCED"
	case "query_low":
		return " COLUMN STORE COMPRESS FOR QUERY LOW"
	case "query_high":
		return " COLUMN STORE COMPRESS FOR QUERY HIGH"
	case "archive_low":
		return " COLUMN STORE COMPRESS FOR ARCHIVE LOW"
	case "archive_high":
		return " COLUMN STORE COMPRESS FOR ARCHIVE HIGH"
	}
	return ""
}
