package fake

import (
	"regexp"
	"strings"

	"github.com/target-oracle/target-oracle/internal/oravalue"
)

// partitioning is the interval range partitioning a CREATE TABLE declared,
// as far as the fake models it: which rows the table refuses.
type partitioning struct {
	column      string // the PARTITION BY column (ALL_PART_KEY_COLUMNS), virtual or stored
	key         string // the stored column deciding the partition (a virtual key's source)
	interval    string // DAY | MONTH | YEAR
	rowMovement bool
}

var (
	rePartition = regexp.MustCompile(`PARTITION BY RANGE \("([^"]+)"\) INTERVAL \(NUMTO(?:YM|DS)INTERVAL\(1, '(DAY|MONTH|YEAR)'\)\)`)
	reUTCOf     = regexp.MustCompile(`^SYS_EXTRACT_UTC\("([^"]+)"\)$`)
)

// partitioning reads the clauses after a CREATE TABLE's column list.
func (t *tbl) partitioning(tail string) (*partitioning, error) {
	m := rePartition.FindStringSubmatch(tail)
	if m == nil {
		if strings.Contains(tail, "PARTITION BY") {
			return nil, oraError(14000, "fake: unsupported partitioning clause %q", tail)
		}
		return nil, nil
	}
	c := t.col(m[1])
	if c == nil {
		return nil, oraError(904, "%q: invalid identifier", m[1])
	}
	p := &partitioning{column: c.name, key: c.name, interval: m[2], rowMovement: strings.Contains(tail, " ENABLE ROW MOVEMENT")}
	if c.expr != "" {
		src := reUTCOf.FindStringSubmatch(c.expr)
		if src == nil {
			return nil, oraError(14000, "fake: unsupported virtual partition key %q", c.expr)
		}
		p.key = src[1]
	} else if c.typ.TZ {
		return nil, oraError(14751, "invalid data type for partitioning column of an interval partitioned table")
	}
	return p, nil
}

// place refuses a row whose key is NULL: it maps to no partition.
func (p *partitioning) place(r map[string]string) error {
	if p == nil || r[p.key] != "" {
		return nil
	}
	return valueError(oravalue.NoPartition(p.key))
}

// move refuses an update that changes the row's partition when the table
// has no ROW MOVEMENT.
func (p *partitioning) move(old, r map[string]string) error {
	if p == nil {
		return nil
	}
	if r[p.key] == "" {
		return valueError(oravalue.NoPartition(p.key))
	}
	if !p.rowMovement && oravalue.PartitionOf(p.interval, old[p.key]) != oravalue.PartitionOf(p.interval, r[p.key]) {
		return valueError(oravalue.PartitionMove())
	}
	return nil
}
