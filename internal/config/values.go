package config

import "strconv"

// The values of enum settings that code branches on. The settings table
// (settings.go) lists every value a setting accepts; these name the ones
// compared with, so that a comparison cannot drift from the table by a
// typo (TestValuesAreInTheTable). MethodHistory is in history.go.
const (
	// Auto lets the server decide: identifier_max_bytes,
	// varchar_max_bytes, max_columns, boolean_type, json_type,
	// national_characters (resolved by the *For methods below).
	Auto = "auto"

	MethodUpsert     = "upsert"      // load_method
	MethodAppendOnly = "append-only" // load_method
	MethodOverwrite  = "overwrite"   // load_method

	StorageHybrid    = "hybrid"    // storage_mode
	StorageFlattened = "flattened" // storage_mode
	StorageJSON      = "json"      // storage_mode

	DeleteMissingNone = "none" // delete_missing
	DeleteMissingHard = "hard" // delete_missing

	Skip   = "skip"   // on_invalid_record
	Reject = "reject" // on_invalid_record, on_database_error

	CompressionNone = "none" // compression

	SchemaEvolutionFail = "fail" // schema_evolution: no DDL on existing tables

	IdentifierPreserve = "preserve"  // identifier_case
	TimestampPlain     = "timestamp" // timestamp_type: no time zone

	BooleanNumber  = "number"  // boolean_type
	BooleanBoolean = "boolean" // boolean_type
	JSONTypeJSON   = "json"    // json_type
	JSONTypeCLOB   = "clob"    // json_type
	NationalAlways = "always"  // national_characters
	NationalNever  = "never"   // national_characters
)

// AppendOnly reports load_method append-only: every record is a new row.
func (s *StreamSettings) AppendOnly() bool { return s.LoadMethod == MethodAppendOnly }

// Overwrite reports load_method overwrite: the first batch replaces the table.
func (s *StreamSettings) Overwrite() bool { return s.LoadMethod == MethodOverwrite }

// History reports load_method history (slowly changing dimension, type 2).
func (s *StreamSettings) History() bool { return s.LoadMethod == MethodHistory }

// RejectsDatabaseErrors reports on_database_error reject.
func (c *Config) RejectsDatabaseErrors() bool { return c.OnDatabaseError == Reject }

// RejectsInvalidRecords reports on_invalid_record reject.
func (c *Config) RejectsInvalidRecords() bool { return c.OnInvalidRecord == Reject }

// UpperIdentifiers reports identifier_case upper: names are folded to
// upper case.
func (c *Config) UpperIdentifiers() bool { return c.IdentifierCase != IdentifierPreserve }

// TimestampTZ reports whether date-times are stored WITH TIME ZONE
// (timestamp_type other than timestamp).
func (c *Config) TimestampTZ() bool { return c.TimestampType != TimestampPlain }

// The `auto` settings, resolved against what the server supports: an
// explicit value wins, `auto` (or "") takes the server's. The one home of
// that rule: the --check probe (connect), --dry-run's assumed server (cli)
// and each stream's table options (pipeline) all resolve through these.

// IdentifierMaxBytesFor is identifier_max_bytes on a server allowing server bytes.
func (c *Config) IdentifierMaxBytesFor(server int) int { return numberOr(c.IdentifierMaxBytes, server) }

// VarcharMaxBytesFor is varchar_max_bytes on a server whose ceiling is server.
func (c *Config) VarcharMaxBytesFor(server int) int { return numberOr(c.VarcharMaxBytes, server) }

// MaxColumnsFor is max_columns on a server allowing server columns.
func (c *Config) MaxColumnsFor(server int) int { return numberOr(c.MaxColumns, server) }

// BooleanNativeFor reports BOOLEAN columns (boolean_type); server: the server has BOOLEAN.
func (c *Config) BooleanNativeFor(server bool) bool {
	return choice(c.BooleanType, BooleanBoolean, BooleanNumber, server)
}

// JSONNativeFor reports JSON columns (json_type); server: the server has JSON.
func (c *Config) JSONNativeFor(server bool) bool {
	return choice(c.JSONType, JSONTypeJSON, JSONTypeCLOB, server)
}

// NationalFor reports NVARCHAR2/NCLOB for text (national_characters);
// server: the database character set does not hold every character.
func (c *Config) NationalFor(server bool) bool {
	return choice(c.NationalCharacters, NationalAlways, NationalNever, server)
}

// numberOr is an auto|N setting: N when given, else server.
func numberOr(setting string, server int) int {
	if n, err := strconv.Atoi(setting); err == nil {
		return n
	}
	return server
}

// choice is an auto|on|off setting: true for on, false for off, else server.
func choice(setting, on, off string, server bool) bool {
	switch setting {
	case on:
		return true
	case off:
		return false
	}
	return server
}
