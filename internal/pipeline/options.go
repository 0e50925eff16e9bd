package pipeline

import (
	"strconv"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/table"
)

// tableOptions resolves the table model's options for one stream from the
// settings and the server facts (`auto` settings adapt to the server).
func (p *pipeline) tableOptions(stream string, st config.StreamSettings) table.Options {
	c, srv := p.cfg, p.o.Server
	o := table.Options{
		TablePrefix:         c.TablePrefix,
		TableSuffix:         c.TableSuffix,
		TableName:           c.TableNameMappings[stream],
		ColumnMappings:      c.ColumnMappings[stream],
		IgnoredColumns:      append(append([]string(nil), c.IgnoredColumns["*"]...), c.IgnoredColumns[stream]...),
		IdentifierUpper:     c.IdentifierCase != "preserve",
		IdentifierMaxBytes:  srv.IdentifierMaxBytes,
		ColumnOrdering:      c.ColumnOrdering,
		ColumnComments:      c.ColumnComments,
		StorageMode:         st.StorageMode,
		FlatteningMaxDepth:  st.FlatteningMaxDepth,
		FlatteningSeparator: c.FlatteningSeparator,
		JSONColumnName:      c.JSONColumnName,
		AddRecordMetadata:   c.AddRecordMetadata,
		VarcharMaxBytes:     srv.VarcharMaxBytes,
		BooleanNative:       srv.BooleanNative,
		JSONNative:          srv.JSONNative,
		TimestampTZ:         c.TimestampType != "timestamp",
		National:            srv.NationalNeeded,
		NoKeyConstraint:     st.LoadMethod == "append-only",
		Partitioning:        table.PartitionOption{Column: st.Partitioning.Column, Interval: st.Partitioning.Interval},
		Compression:         st.Compression,
		History:             st.LoadMethod == config.MethodHistory,

		MaxColumns:               srv.MaxColumns,
		InterpretContentEncoding: c.InterpretContentEncoding,
		VectorNative:             srv.VectorNative,
	}
	if n, err := strconv.Atoi(c.MaxColumns); err == nil {
		o.MaxColumns = n
	}
	if n, err := strconv.Atoi(c.IdentifierMaxBytes); err == nil {
		o.IdentifierMaxBytes = n
	}
	if n, err := strconv.Atoi(c.VarcharMaxBytes); err == nil {
		o.VarcharMaxBytes = n
	}
	switch c.BooleanType {
	case "number":
		o.BooleanNative = false
	case "boolean":
		o.BooleanNative = true
	}
	switch c.JSONType {
	case "json":
		o.JSONNative = true
	case "clob":
		o.JSONNative = false
	}
	switch c.NationalCharacters {
	case "always":
		o.National = true
	case "never":
		o.National = false
	}
	o.Schema, o.TablePart = routeStream(c, st, srv, stream, &o)
	for _, ix := range c.CustomIndexes[stream] {
		o.CustomIndexes = append(o.CustomIndexes, table.Index{Name: ix.Name, Columns: ix.Columns, Unique: ix.Unique})
	}
	return o
}
