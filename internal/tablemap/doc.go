// Package tablemap turns a stream's compiled JSON Schema and records into the
// rows of its table: NewLayout maps the schema's properties onto a
// table.Table (column types, names, key sizing, flattening, metadata and
// history columns, partition key), and Layout.Row / Layout.RowOnePass convert
// one RECORD into a row of stored values with the column statistics that
// decide widening. RowOnePass is the one-pass decoder: it validates the
// record with the schema's compiled plan while it converts it.
//
// It is the one package that knows the JSON Schema → Oracle type mapping and
// the record → row conversion; the table model itself (package table) knows
// neither Singer nor JSON Schema.
package tablemap
