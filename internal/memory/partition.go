package memory

import (
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oravalue"
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
			return &engine.RowError{Line: r.Line, Err: valueError(oravalue.NoPartition(col))}
		}
	}
	return nil
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
	if oravalue.PartitionOf(p.Interval, old[col]) != oravalue.PartitionOf(p.Interval, v) {
		return valueError(oravalue.PartitionMove())
	}
	return nil
}
