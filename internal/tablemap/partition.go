package tablemap

import (
	"fmt"
	"strings"

	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/table"
)

// partition resolves the partitioning option for a table about to be
// created (SPEC §3 partitioning). The column must always have a value, or
// Oracle refuses the row (ORA-14400: a NULL key maps to no partition): a
// key, a required date-time property, or _SDC_RECEIVED_AT.
func (b *builder) partition(t *table.Table) error {
	p := b.opts.Partitioning
	if p.Column == "" {
		return nil
	}
	col, why := b.partitionColumn(t, p.Column)
	if col != nil && col.Type.Kind != table.KindTimestamp && col.Type.Kind != table.KindDate {
		why = "is not a date-time column (it is " + col.Type.String() + ")"
	}
	if why != "" {
		return &table.ConfigError{Setting: "partitioning", Msg: fmt.Sprintf("column %q %s; partition by a key, a required top-level date-time property that cannot be null, or _sdc_received_at", p.Column, why)}
	}
	part := &table.Partition{Column: col.Name, Interval: p.Interval, RowMovement: true}
	if col.Type.TZ {
		// Oracle refuses TIMESTAMP WITH TIME ZONE partition keys: partition
		// by the instant in UTC, a virtual column.
		part.Source, part.Frac = col.Name, col.Type.Frac
		part.Column = table.DerivedName(col.Name, "$P", b.opts.MaxBytes())
		if limit := b.opts.ColumnLimit(); len(t.Columns)+t.Unused+1 > limit {
			return inputError(b.stream, "", "the table would need %d columns with the virtual partition column %s, more than the database's %d", len(t.Columns)+t.Unused+1, table.Quote(part.Column), limit)
		}
	}
	t.Partition = part
	return nil
}

// partitionColumn finds the column of the partitioning setting's column,
// or says why there is none that qualifies.
func (b *builder) partitionColumn(t *table.Table, name string) (*table.Column, string) {
	if strings.EqualFold(name, strings.ToLower(table.MetaReceivedAt)) {
		if c := t.Column(table.MetaReceivedAt); c != nil {
			return c, ""
		}
		return nil, "is not a column of the table"
	}
	for _, c := range b.all() {
		if c.role != table.RoleProperty || c.path != name {
			continue
		}
		if why := mayBeNull(c); why != "" {
			return nil, why
		}
		if col := t.Column(c.name); col != nil {
			return col, ""
		}
	}
	for _, c := range b.keys {
		if c.path == name {
			if col := t.Column(c.name); col != nil {
				return col, ""
			}
		}
	}
	return nil, "is not a property of the stream with a column of its own"
}

// mayBeNull says why a property's column may hold NULL, "" when it never
// does: a key; or a top-level property the schema requires and whose type
// excludes null. A nested property is absent whenever its parent object is
// (or is null), which a required list alone does not rule out.
func mayBeNull(c *cand) string {
	switch {
	case c.key:
		return ""
	case c.prop == nil || !c.prop.Required:
		return "is neither a key nor a required property"
	case len(c.source) > 1:
		return "is a nested property (absent whenever its parent object is)"
	case c.prop.Types.Has(schema.Null):
		return "is a required property whose type allows null"
	}
	return ""
}
