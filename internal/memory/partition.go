package memory

import (
	"fmt"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

// checkPartitions models what interval range partitioning refuses: a row
// whose partition key is NULL maps to no partition (ORA-14400). Rows are
// checked before any is applied, as Oracle fails the whole array DML.
func checkPartitions(p *table.Partition, w *engine.Write) error {
	if p == nil {
		return nil
	}
	col := p.KeyColumn()
	i := -1
	for j, c := range w.Columns {
		if c == col {
			i = j
		}
	}
	for _, r := range w.Rows {
		if r.Kind != engine.RowUpsert {
			continue // deletes and soft deletes leave the key as it is
		}
		if col == w.DatabaseTime {
			continue // the database's own time: never NULL
		}
		if i < 0 || r.Values[i] == "" {
			return fmt.Errorf("input line %d: %w", r.Line, oraError(14400, fmt.Sprintf("inserted partition key does not map to any partition (%q is NULL)", col)))
		}
	}
	return nil
}

// partitionOf is the interval partition a date-time value (UTC text,
// "2006-01-02T…") falls in: P0 below 2000-01-01, then one per interval.
func partitionOf(p *table.Partition, v string) string {
	if v < "2000-01-01" {
		return "P0"
	}
	n := 7
	switch p.Interval {
	case "day":
		n = 10
	case "year":
		n = 4
	}
	if len(v) < n {
		return v
	}
	return v[:n]
}

// checkMove models ORA-14402: without ROW MOVEMENT an update may not move
// a row to another partition.
func checkMove(p *table.Partition, old, row map[string]string) error {
	if p == nil || p.RowMovement {
		return nil
	}
	col := p.KeyColumn()
	v, set := row[col]
	if !set {
		return nil
	}
	if partitionOf(p, old[col]) != partitionOf(p, v) {
		return oraError(14402, "updating partition key column would cause a partition change")
	}
	return nil
}
