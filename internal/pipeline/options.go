package pipeline

import (
	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/table"
)

// tableOptions resolves the table model's options for one stream from the
// settings and the server facts (`auto` settings adapt to the server:
// config's *For methods).
func (p *pipeline) tableOptions(stream string, st config.StreamSettings) table.Options {
	c, srv := p.cfg, p.o.Server
	o := table.Options{
		TablePrefix:         c.TablePrefix,
		TableSuffix:         c.TableSuffix,
		TableName:           c.TableNameMappings[stream],
		ColumnMappings:      c.ColumnMappings[stream],
		IgnoredColumns:      append(append([]string(nil), c.IgnoredColumns["*"]...), c.IgnoredColumns[stream]...),
		IdentifierUpper:     c.UpperIdentifiers(),
		IdentifierMaxBytes:  c.IdentifierMaxBytesFor(srv.IdentifierMaxBytes),
		ColumnOrdering:      c.ColumnOrdering,
		ColumnComments:      c.ColumnComments,
		StorageMode:         st.StorageMode,
		FlatteningMaxDepth:  st.FlatteningMaxDepth,
		FlatteningSeparator: c.FlatteningSeparator,
		JSONColumnName:      c.JSONColumnName,
		AddRecordMetadata:   c.AddRecordMetadata,
		VarcharMaxBytes:     c.VarcharMaxBytesFor(srv.VarcharMaxBytes),
		BooleanNative:       c.BooleanNativeFor(srv.BooleanNative),
		JSONNative:          c.JSONNativeFor(srv.JSONNative),
		TimestampTZ:         c.TimestampTZ(),
		National:            c.NationalFor(srv.NationalNeeded),
		NoKeyConstraint:     st.AppendOnly(),
		Partitioning:        table.PartitionOption{Column: st.Partitioning.Column, Interval: st.Partitioning.Interval},
		Compression:         st.Compression,
		History:             st.History(),

		MaxColumns:               c.MaxColumnsFor(srv.MaxColumns),
		InterpretContentEncoding: c.InterpretContentEncoding,
		VectorNative:             srv.VectorNative,
	}
	o.Schema, o.TablePart = routeStream(c, st, srv, stream, &o)
	for _, ix := range c.CustomIndexes[stream] {
		o.CustomIndexes = append(o.CustomIndexes, table.Index{Name: ix.Name, Columns: ix.Columns, Unique: ix.Unique})
	}
	return o
}
