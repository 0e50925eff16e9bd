package config

import (
	"math"
)

// kind is how a setting's value is read and checked.
type kind uint8

const (
	kindSame            kind = iota // in an alias: the setting's own kind
	kindString                      // text
	kindSecret                      // text that never prints
	kindInteger                     // whole number within [min, max]
	kindBoolean                     // true/false (and env spellings)
	kindEnum                        // one of enum (case-insensitive) or a values alias
	kindStrings                     // array of strings (JSON or comma list)
	kindObject                      // JSON object (or a string holding one)
	kindStringsOrObject             // array of strings, or an object
	kindObjectOrNone                // JSON object, or the string "none" (the empty object)
	kindFraction                    // number from 0 to 1 (JSON number or text), stored as float64
)

// valueMap says that the value From (matched case-insensitively) means the
// canonical value To.
type valueMap struct{ from, to string }

// alias is another name a peer target uses for a setting.
type alias struct {
	name string
	// kind of the alias's own values when they differ from the setting's
	// (use_ssl is a boolean, protocol an enum).
	kind kind
	// values maps alias values to canonical ones; a value not listed
	// passes through unchanged and is checked as a canonical value.
	values []valueMap
	note   string // documentation: where the name comes from, or a rule
}

// setting is one row of the settings table, the single source of truth for
// parsing, defaults, validation, env names, --about and docs/settings.md.
type setting struct {
	name     string
	kind     kind
	def      any        // JSON-able default; nil = none
	enum     []string   // kindEnum: canonical values
	values   []valueMap // kindEnum: peer spellings of canonical values
	min, max int64      // kindInteger: inclusive range
	nonEmpty bool       // kindString: "" is rejected
	required bool       // needed to connect (checked by CheckConnection, not Load)
	keysOnly bool       // kindObject whose values may be secrets (hash salts): logs show the keys only
	// nullIsValue: a null inside the object is a value (stream maps: a
	// property mapped to null is removed; config values read by
	// expressions), not "not set" as it is in every other setting.
	nullIsValue bool
	desc        string
	aliases     []alias
	// field returns a pointer to the Config field the value is stored in.
	field func(*Config) any
	// conv, when set, turns the checked value into the field's type and
	// checks its structure (mappings, overrides, indexes).
	conv func(t []setting, v any) (any, error)
	// members, for an object setting, are the keys its object may hold,
	// each a row of its own: name is the key, field points into the
	// object's Config field. Each member can also be given as
	// <setting>.<key> (a config key, as Meltano names nested settings) and
	// TARGET_ORACLE_<SETTING>_<KEY>; --about, docs/settings.md and the
	// Meltano definition list them.
	members []setting
}

func names(ns ...string) []alias {
	as := make([]alias, len(ns))
	for i, n := range ns {
		as[i] = alias{name: n}
	}
	return as
}

func vm(pairs ...string) []valueMap {
	out := make([]valueMap, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, valueMap{pairs[i], pairs[i+1]})
	}
	return out
}

const maxInt32 = math.MaxInt32

// table returns the settings table in documentation order. It is built on
// each call so that no package state is shared or mutable.
func table() []setting {
	t := make([]setting, 0, 72)
	t = append(t, connectionSettings()...)
	t = append(t, namingSettings()...)
	t = append(t, loadingSettings()...)
	t = append(t, typeSettings()...)
	t = append(t, operationSettings()...)
	return t
}

func connectionSettings() []setting {
	return []setting{
		{name: "host", kind: kindString, def: "localhost", desc: "Listener host.",
			aliases: names("oracle_host"), field: func(c *Config) any { return &c.Host }},
		{name: "port", kind: kindInteger, def: 1521, min: 1, max: 65535, desc: "Listener port.",
			aliases: names("oracle_port"), field: func(c *Config) any { return &c.Port }},
		{name: "service_name", kind: kindString, desc: "Service name of the database (or give sid).",
			aliases: names("oracle_service_name", "oracle_service"), field: func(c *Config) any { return &c.ServiceName }},
		{name: "sid", kind: kindString, desc: "SID, instead of a service name.",
			aliases: []alias{{name: "database", note: "radbrt's target-oracle"}}, field: func(c *Config) any { return &c.SID }},
		{name: "user", kind: kindString, required: true, desc: "Login user. Required to connect, unless dsn carries one.",
			aliases: names("username", "oracle_user"), field: func(c *Config) any { return &c.User }},
		{name: "password", kind: kindSecret, desc: "Password of user.",
			aliases: names("oracle_password"), field: func(c *Config) any { return &c.Password }},
		{name: "proxy_user", kind: kindString, desc: "Log in as user on behalf of this user (proxy authentication).",
			field: func(c *Config) any { return &c.ProxyUser }},
		{name: "dsn", kind: kindSecret,
			desc: "Full connect string: an oracle:// URL (path = service name), Easy Connect host[:port]/service, " +
				"a (DESCRIPTION=...) descriptor, or a TNS alias from tnsnames.ora; overrides host, port, service_name " +
				"and sid. A user and password inside an oracle:// URL are used when user/password are not set.",
			aliases: []alias{{name: "sqlalchemy_url",
				note: "oracle://, oracle+oracledb:// or oracle+cx_oracle:// URL read by SQLAlchemy's rules: the path is a SID unless ?service_name= is given"}},
			field: func(c *Config) any { return &c.DSN }},
		{name: "tns_admin", kind: kindString,
			desc:  "Folder holding tnsnames.ora (and sqlnet.ora). Default: $TNS_ADMIN, else wallet_location.",
			field: func(c *Config) any { return &c.TNSAdmin }},
		{name: "protocol", kind: kindEnum, def: "tcp", enum: []string{"tcp", "tcps"}, desc: "TLS when tcps.",
			aliases: []alias{{name: "use_ssl", kind: kindBoolean, values: vm("true", "tcps", "false", "tcp")}},
			field:   func(c *Config) any { return &c.Protocol }},
		{name: "ssl_verify", kind: kindBoolean, def: true,
			desc: "Verify the server certificate chain against the wallet's certificates (the system roots " +
				"without a wallet). false turns every certificate check off, DN matching included (testing only; warned).",
			field: func(c *Config) any { return &c.SSLVerify }},
		{name: "ssl_server_dn_match", kind: kindBoolean,
			desc: "true: the server certificate must match the host connected to (SAN, else CN), or, when " +
				"ssl_server_cert_dn or the descriptor's SSL_SERVER_CERT_DN is given, its subject DN must equal that DN; " +
				"false: the chain only (warned). Default: the descriptor's SSL_SERVER_DN_MATCH, else true.",
			aliases: []alias{{name: "disable_dn_matching", kind: kindBoolean, values: vm("true", "false", "false", "true"),
				note: "turns DN matching off, never chain verification"}},
			field: func(c *Config) any { return &c.SSLServerDNMatch }},
		{name: "ssl_server_cert_dn", kind: kindString,
			desc:  "The server certificate's expected subject DN (\"CN=…, O=…, C=…\", any order). Default: the descriptor's SSL_SERVER_CERT_DN.",
			field: func(c *Config) any { return &c.SSLServerCertDN }},
		{name: "wallet_location", kind: kindString, desc: "Wallet directory (cwallet.sso or ewallet.p12).",
			aliases: names("ssl_wallet_location"), field: func(c *Config) any { return &c.WalletLocation }},
		{name: "wallet_password", kind: kindSecret, desc: "Password of an ewallet.p12 wallet.",
			aliases: names("ssl_wallet_password"), field: func(c *Config) any { return &c.WalletPassword }},
		{name: "network_encryption", kind: kindEnum, def: "accepted",
			enum: []string{"accepted", "requested", "required", "rejected"},
			desc: "Oracle native network encryption and integrity.", field: func(c *Config) any { return &c.NetworkEncryption }},
		{name: "ssh_tunnel", kind: kindObject,
			desc: "Connect through an SSH bastion: an object of enable, host, port, username, private_key (secret), " +
				"private_key_password (secret), password (secret), host_key and known_hosts, each also a setting of its own " +
				"(ssh_tunnel.host, TARGET_ORACLE_SSH_TUNNEL_HOST), as Meltano passes them. Disabled unless enable is true. " +
				"An unknown host key fails, printing its fingerprint and the setting to pin it.",
			members: sshTunnelMembers(),
			field:   func(c *Config) any { return &c.SSHTunnel }, conv: convSSHTunnel},
		{name: "connect_timeout_seconds", kind: kindInteger, def: 30, min: 1, max: 3600,
			desc: "Seconds to wait for a connection (TCP, TLS, TNS and login). A dsn's own CONNECT_TIMEOUT (descriptor, tnsnames.ora entry or Easy Connect connect_timeout) takes its place for that dsn.", aliases: names("connection_timeout"),
			field: func(c *Config) any { return &c.ConnectTimeoutSeconds }},
	}
}

func namingSettings() []setting {
	return []setting{
		{name: "default_target_schema", kind: kindString,
			desc: "Schema (owner) of every table, conformed like a table name and upper-cased. Default: the user's own schema. " +
				"{stream_schema} in it is replaced, for a stream named schema-table or db-schema-table, by the schema part (the table is named from the last part); " +
				"for other stream names by nothing (an empty result is the user's schema); public is the user's schema unless schema_mapping maps it. " +
				"A stream that {stream_schema} routes into a schema Oracle maintains (SYS, SYSTEM, XDB, AUDSYS, MDSYS, …) is refused at its SCHEMA (exit 2); a schema written in the settings is used as given.",
			aliases: names("schema", "target_schema"), field: func(c *Config) any { return &c.DefaultTargetSchema }, conv: convDefaultTargetSchema},
		{name: "table_prefix", kind: kindString, def: "", desc: "Added before every generated table name. It may not start like TARGET_ORACLE$VERIFY_ or TARGET_ORACLE$BENCH_ (the scratch tables of --verify and --benchmark).",
			field: func(c *Config) any { return &c.TablePrefix }, conv: convTablePrefix},
		{name: "table_suffix", kind: kindString, def: "", desc: "Added after every generated table name.",
			field: func(c *Config) any { return &c.TableSuffix }},
		{name: "schema_mapping", kind: kindObject, def: map[string]any{},
			desc:  "Object source schema -> target schema: the {stream_schema} part of a stream name mapped to a schema (PipelineWise's name).",
			field: func(c *Config) any { return &c.SchemaMapping }, conv: convSchemaMapping},
		{name: "table_name_mappings", kind: kindObject, def: map[string]any{},
			desc:  "Object stream -> table name; explicit table names, used verbatim (not starting with TARGET_ORACLE$VERIFY_ or TARGET_ORACLE$BENCH_, the scratch tables of --verify and --benchmark).",
			field: func(c *Config) any { return &c.TableNameMappings }, conv: convTableNames},
		{name: "column_mappings", kind: kindObject, def: map[string]any{},
			desc: "Object stream -> {property path -> column}; explicit column names, used verbatim (a JSON string is accepted too). " +
				"A path joins property names with \".\"; one naming two properties (a key \"a.b\" and the nested a -> b) is refused.",
			field: func(c *Config) any { return &c.ColumnMappings }, conv: convColumnMappings},
		{name: "ignored_columns", kind: kindStringsOrObject, def: []string{},
			desc: "Property paths never loaded, nor copied into JSON columns (a.b names a nested property; a path naming two properties is refused): " +
				"an array applies to every stream, an object maps stream -> array.",
			field: func(c *Config) any { return &c.IgnoredColumns }, conv: convIgnored},
		{name: "identifier_case", kind: kindEnum, def: "upper", enum: []string{"upper", "preserve"},
			desc: "Case of generated names.", field: func(c *Config) any { return &c.IdentifierCase }},
		{name: "identifier_max_bytes", kind: kindEnum, def: "auto", enum: []string{"auto", "30", "128"},
			desc:  "Identifier length limit in bytes; auto reads it from the database's COMPATIBLE.",
			field: func(c *Config) any { return &c.IdentifierMaxBytes }},
		{name: "column_ordering", kind: kindEnum, def: "schema", enum: []string{"schema", "alphabetical"},
			values: vm("", "schema"),
			desc:   "Order of a new table's columns: keys, then properties (schema order or alphabetical), then metadata.",
			field:  func(c *Config) any { return &c.ColumnOrdering }},
		{name: "column_comments", kind: kindBoolean, def: true,
			desc:  "Comment each column with its source property path and schema description.",
			field: func(c *Config) any { return &c.ColumnComments }},
		{name: "storage_mode", kind: kindEnum, def: "hybrid", enum: []string{"hybrid", "flattened", "json"},
			desc: "hybrid: a column per top-level property, objects and arrays as JSON; flattened: nested properties " +
				"become columns down to flattening_max_depth; json: keys, metadata and one JSON document column.",
			field: func(c *Config) any { return &c.StorageMode }},
		{name: "flattening_enabled", kind: kindBoolean, def: false,
			desc:  "Singer SDK flag: true means storage_mode flattened (an error with storage_mode json).",
			field: func(c *Config) any { return &c.FlatteningEnabled }},
		{name: "flattening_max_depth", kind: kindInteger, def: 3, min: 0, max: 64,
			desc: "Levels of nested objects expanded into columns.", aliases: names("max_flattening_depth"),
			field: func(c *Config) any { return &c.FlatteningMaxDepth }},
		{name: "flattening_separator", kind: kindString, def: "__", nonEmpty: true,
			desc: "Joins nested property names.", field: func(c *Config) any { return &c.FlatteningSeparator }},
		{name: "json_column_name", kind: kindString, def: "DATA", nonEmpty: true,
			desc: "Document column in json mode.", field: func(c *Config) any { return &c.JSONColumnName }},
		{name: "stream_overrides", kind: kindObject, def: map[string]any{},
			desc: "Object stream pattern -> {storage_mode, load_method, hard_delete, delete_missing, batch_size_rows, flattening_max_depth, default_target_schema, partitioning, compression}; " +
				"* matches any text; an exact stream name beats patterns, then earlier patterns beat later ones.",
			field: func(c *Config) any { return &c.StreamOverrides }, conv: convOverrides},
	}
}

func loadingSettings() []setting {
	return []setting{
		{name: "load_method", kind: kindEnum, def: "upsert", enum: []string{"upsert", "append-only", "overwrite", "history"},
			values: vm("INSERT", "append-only", "BULK_INSERT", "append-only", "append", "append-only",
				"MERGE", "upsert", "BULK_MERGE", "upsert"),
			desc: "upsert: the last record per key replaces the row (keyless streams append); append-only: insert every record; overwrite: the first flush of the run replaces the table's contents; " +
				"history: every version of a row is kept (slowly changing dimension, type 2; streams with key_properties; docs/guarantees.md).",
			aliases: []alias{{name: "sdc_mode", values: vm("insert", "append-only", "append", "append-only", "merge", "upsert"),
				note: "flext-target-oracle's own setting, combined with load_method when load_method is absent or a flext value " +
					"(INSERT, BULK_INSERT, MERGE, BULK_MERGE): upsert if either says merge, else append-only; " +
					"ignored, with a warning if it disagrees, beside a target-oracle load_method"}},
			field: func(c *Config) any { return &c.LoadMethod }},
		{name: "truncate_before_load", kind: kindBoolean, def: false,
			desc: "Truncate each table before its first flush of the run.", field: func(c *Config) any { return &c.TruncateBeforeLoad }},
		{name: "hard_delete", kind: kindBoolean, def: false,
			desc:  "Delete rows whose record has _sdc_deleted_at set, and rows of older table versions, instead of marking them.",
			field: func(c *Config) any { return &c.HardDelete }},
		{name: "delete_missing", kind: kindEnum, def: "none", enum: []string{"none", "soft", "hard"},
			desc: "After a complete run, soft-delete (set _SDC_DELETED_AT) or hard-delete the rows of an upsert stream's table " +
				"that the run did not write (taps that re-send a whole table every run without ACTIVATE_VERSION). " +
				"Only when the input ended at EOF without failure or signal, a STATE came after the stream's last RECORD, and at most " +
				"delete_missing_max_fraction of the table would go; states are held until the end of input. See docs/guarantees.md.",
			field: func(c *Config) any { return &c.DeleteMissing }},
		{name: "delete_missing_max_fraction", kind: kindFraction, def: 0.5,
			desc: "A number from 0 to 1: when delete_missing would prune more than this fraction of a table's rows, " +
				"prune nothing and fail the run (exit 1) naming the counts.",
			field: func(c *Config) any { return &c.DeleteMissingMaxFraction }},
		{name: "process_activate_version_messages", kind: kindBoolean, def: true,
			desc: "Act on ACTIVATE_VERSION messages (full-table replication).", aliases: names("activate_version"),
			field: func(c *Config) any { return &c.ProcessActivateVersionMessages }},
		{name: "add_record_metadata", kind: kindBoolean, def: true, desc: "Add the _SDC_* metadata columns.",
			aliases: names("add_metadata_columns"), field: func(c *Config) any { return &c.AddRecordMetadata }},
		{name: "primary_key_required", kind: kindBoolean, def: false,
			desc: "Refuse streams without key_properties (exit 3).", field: func(c *Config) any { return &c.PrimaryKeyRequired }},
		{name: "validate_records", kind: kindBoolean, def: true, desc: "Check records against their schema.",
			field: func(c *Config) any { return &c.ValidateRecords }},
		{name: "on_invalid_record", kind: kindEnum, def: "fail", enum: []string{"fail", "skip", "reject"},
			desc:  "What an invalid record does: fail the run (exit 3), be skipped with a warning, or be written to reject_path.",
			field: func(c *Config) any { return &c.OnInvalidRecord }},
		{name: "on_database_error", kind: kindEnum, def: "fail", enum: []string{"fail", "reject"},
			desc: "What a row the database refuses with a row-level error (ORA-12899, 01438, 01722, 01400, 02290, 02291, " +
				"02292, 00001 on INSERT, or a value needing a widening schema_evolution forbids) does: fail the run, or be " +
				"written to reject_path while the rest of its batch commits (docs/guarantees.md).",
			field: func(c *Config) any { return &c.OnDatabaseError }},
		{name: "history_valid_from", kind: kindString,
			desc: "With load_method history: the date-time property (a column of the table) whose value is a version's valid-from, " +
				"instead of time_extracted or the batch time; makes replays exact (same key and valid-from is a no-op).",
			field: func(c *Config) any { return &c.HistoryValidFrom }},
		{name: "reject_path", kind: kindString, def: "rejected-records.jsonl", nonEmpty: true,
			desc: "JSON lines file of rejected records. With a reject policy it is checked at the start of the run (a path that cannot be written, or that names a file the run reads or writes otherwise, such as the --input file or summary_path, fails the run before it loads anything) and opened at the first rejected record (a FIFO at the start).", field: func(c *Config) any { return &c.RejectPath }},
		{name: "batch_size_rows", kind: kindInteger, def: 10000, min: 1, max: 100_000_000,
			desc: "Rows per stream before a flush.", aliases: names("batch_size"),
			field: func(c *Config) any { return &c.BatchSizeRows }},
		{name: "batch_size_bytes", kind: kindInteger, def: 33554432, min: 1, max: 1 << 40,
			desc: "Input bytes per stream before a flush.", field: func(c *Config) any { return &c.BatchSizeBytes }},
		{name: "max_buffered_bytes", kind: kindInteger, def: 134217728, min: 1, max: 1 << 44,
			desc: "Bytes of all records not yet committed, in-flight batches included (each record's input size plus 16 " +
				"per column and 64), what their rows hold in memory; at the limit the largest buffer flushes and reading waits.",
			field: func(c *Config) any { return &c.MaxBufferedBytes }},
		{name: "batch_wait_limit_seconds", kind: kindInteger, def: 60, min: 1, max: 86400,
			desc:  "Oldest uncommitted record's maximum age, enforced by a timer even when input is idle.",
			field: func(c *Config) any { return &c.BatchWaitLimitSeconds }},
		{name: "flush_all_streams", kind: kindBoolean, def: false, desc: "Any flush flushes every stream.",
			field: func(c *Config) any { return &c.FlushAllStreams }},
		{name: "max_parallelism", kind: kindInteger, def: 4, min: 1, max: 64,
			desc:    "Streams loaded at once (one database session each).",
			aliases: []alias{{name: "parallelism", values: vm("0", "4", "-1", "4"), note: "PipelineWise: 0 and -1 (automatic) mean the default"}},
			field:   func(c *Config) any { return &c.MaxParallelism }},
	}
}

// typeSettings: table shape, column types, storage and DDL.
func typeSettings() []setting {
	return []setting{
		{name: "schema_evolution", kind: kindEnum, def: "widen", enum: []string{"widen", "additive", "fail"},
			desc: "widen: add columns and widen types; additive: add columns only; fail: stop on any table change.",
			aliases: []alias{
				{name: "allow_alter_table", kind: kindBoolean, values: vm("false", "fail", "true", "widen")},
				{name: "freeze_schema", kind: kindBoolean, values: vm("true", "additive", "false", "widen"),
					note: "radbrt's target-oracle, which still adds new columns when frozen"},
			},
			field: func(c *Config) any { return &c.SchemaEvolution }},
		{name: "varchar_max_bytes", kind: kindEnum, def: "auto", enum: []string{"auto", "4000", "32767"},
			desc: "VARCHAR2 ceiling; auto reads MAX_STRING_SIZE.", field: func(c *Config) any { return &c.VarcharMaxBytes }},
		{name: "max_columns", kind: kindEnum, def: "auto", enum: []string{"auto", "1000", "4096"},
			desc:  "Columns per table; auto reads MAX_COLUMNS (4096 where it is EXTENDED, 23ai; else 1000).",
			field: func(c *Config) any { return &c.MaxColumns }},
		{name: "interpret_content_encoding", kind: kindBoolean, def: false,
			desc:  "contentEncoding base64/base16 strings are binary: RAW(n) or BLOB columns (docs/types.md); false keeps them text.",
			field: func(c *Config) any { return &c.InterpretContentEncoding }},
		{name: "boolean_type", kind: kindEnum, def: "auto", enum: []string{"auto", "number", "boolean"},
			desc: "auto: BOOLEAN on 23ai and later, else NUMBER(1).", field: func(c *Config) any { return &c.BooleanType }},
		{name: "json_type", kind: kindEnum, def: "auto", enum: []string{"auto", "json", "clob"},
			desc:  "auto: JSON on 21c and later (COMPATIBLE >= 20), else CLOB with an IS JSON check.",
			field: func(c *Config) any { return &c.JSONType }},
		{name: "timestamp_type", kind: kindEnum, def: "timestamp_tz", enum: []string{"timestamp_tz", "timestamp"},
			desc:  "Type of date-time columns (the instant is kept; values are stored in UTC).",
			field: func(c *Config) any { return &c.TimestampType }},
		{name: "national_characters", kind: kindEnum, def: "auto", enum: []string{"auto", "always", "never"},
			desc:  "Use NVARCHAR2/NCLOB when the database character set cannot hold every Unicode character.",
			field: func(c *Config) any { return &c.NationalCharacters }},
		{name: "tablespace", kind: kindString, desc: "Tablespace of created tables.",
			field: func(c *Config) any { return &c.Tablespace }, conv: convIdentifier},
		{name: "index_tablespace", kind: kindString, desc: "Tablespace of created indexes.",
			field: func(c *Config) any { return &c.IndexTablespace }, conv: convIdentifier},
		{name: "lob_tablespace", kind: kindString, desc: "Tablespace of LOB segments.",
			field: func(c *Config) any { return &c.LOBTablespace }, conv: convIdentifier},
		{name: "grant_select_to", kind: kindStrings, def: []string{},
			desc:    "Users and roles granted SELECT on every table the target creates.",
			aliases: names("default_target_schema_select_permissions"), field: func(c *Config) any { return &c.GrantSelectTo },
			conv: convIdentifiers},
		{name: "custom_indexes", kind: kindObject, def: map[string]any{},
			desc:  "Object stream -> [{name?, columns, unique?}]; columns are property paths, column names or metadata names (_sdc_batched_at); indexes created with the table (a JSON string is accepted too).",
			field: func(c *Config) any { return &c.CustomIndexes }, conv: convIndexes},
		{name: "partitioning", kind: kindObjectOrNone, def: "none",
			desc: "Interval-partition new tables: {\"column\": a key, a required non-null top-level date-time property, or _sdc_received_at, \"interval\": day|month|year}, or none. " +
				"A WITH TIME ZONE column partitions through a virtual UTC column; partitioned tables get ENABLE ROW MOVEMENT. Needs Oracle Enterprise Edition with the Partitioning option.",
			field: func(c *Config) any { return &c.Partitioning }, conv: convPartitioning},
		{name: "compression", kind: kindEnum, def: "none", enum: []string{"none", "advanced", "query_low", "query_high", "archive_low", "archive_high"},
			desc: "Table compression of new tables: advanced (ROW STORE COMPRESS ADVANCED, the Advanced Compression option), " +
				"query_*/archive_* (COLUMN STORE COMPRESS FOR …, Hybrid Columnar Compression: Exadata or Autonomous Database storage).",
			field: func(c *Config) any { return &c.Compression }},
		{name: "ddl_lock_timeout_seconds", kind: kindInteger, def: 60, min: 0, max: 1_000_000,
			desc: "How long DDL waits for a busy table.", field: func(c *Config) any { return &c.DDLLockTimeoutSeconds }},
		{name: "statement_timeout_seconds", kind: kindInteger, def: 0, min: 0, max: maxInt32,
			desc: "Cancel a statement running longer (0: no limit).", field: func(c *Config) any { return &c.StatementTimeoutSeconds }},
		{name: "shutdown_timeout_seconds", kind: kindInteger, def: 0, min: 0, max: maxInt32,
			desc:  "After SIGINT/SIGTERM, stop starting new batches after this long (0: drain everything).",
			field: func(c *Config) any { return &c.ShutdownTimeoutSeconds }},
	}
}

func operationSettings() []setting {
	return []setting{
		{name: "stream_maps", kind: kindObject, def: map[string]any{}, nullIsValue: true, desc: "Singer SDK stream maps.",
			field: func(c *Config) any { return &c.StreamMaps }},
		{name: "stream_map_config", kind: kindObject, def: map[string]any{}, keysOnly: true, nullIsValue: true,
			desc: "Values that stream-map expressions read as config.", field: func(c *Config) any { return &c.StreamMapConfig }},
		{name: "log_level", kind: kindEnum, def: "info", enum: []string{"debug", "info", "warn", "error"},
			values: vm("warning", "warn"), desc: "Least severe log level written to stderr.",
			field: func(c *Config) any { return &c.LogLevel }},
		{name: "log_format", kind: kindEnum, def: "text", enum: []string{"text", "json"},
			desc: "Log line format on stderr.", field: func(c *Config) any { return &c.LogFormat }},
		{name: "metrics_interval_seconds", kind: kindInteger, def: 60, min: 1, max: 86400,
			desc: "Seconds between METRIC and progress lines.", field: func(c *Config) any { return &c.MetricsIntervalSeconds }},
		{name: "summary_path", kind: kindString, desc: "Also write the final summary as JSON to this file. It is opened (and emptied) when the run starts, so a path that cannot be written fails the run before it loads anything, and written when the run ends. It must be a file of its own: the --input file, standard input's or output's file, a --config file, .env, reject_path, the ssh key or known_hosts, a file inside the dump folder, wallet_location or tns_admin, or an existing file that is no earlier summary is a configuration error.",
			field: func(c *Config) any { return &c.SummaryPath }},
		{name: "http_listen_address", kind: kindString, desc: "When set, serve /healthz and Prometheus /metrics here.",
			field: func(c *Config) any { return &c.HTTPListenAddress }},
	}
}

// peerSetting is a setting of a peer target that target-oracle accepts
// without acting on it: a config written for the peer still loads, with a
// warning saying why the setting does not apply.
type peerSetting struct {
	name, peer, why string
}

func peerSettings() []peerSetting {
	const sdk, flext, radbrt = "Singer SDK", "flext-target-oracle", "radbrt's target-oracle"
	const postgres, pipelinewise = "MeltanoLabs target-postgres", "PipelineWise"
	return []peerSetting{
		{"batch_config", sdk, "BATCH messages name their own files and encoding"},
		{"faker_config", sdk, "stream-map expressions have no faker"},
		{"flattening_max_key_length", sdk, "long names are cut to the identifier limit with a hash suffix"},
		{"commit_interval", flext, "every batch commits in its own transaction (see batch_size_rows)"},
		{"parallel_degree", flext, "use max_parallelism"},
		{"use_bulk_operations", flext, "loading always uses array binds"},
		{"autocommit", flext, "every batch commits in its own transaction"},
		{"transaction_timeout", flext, "use statement_timeout_seconds"},
		{"column_order_rules", flext, "use column_ordering"},
		{"debug", flext, "use log_level: debug"},
		{"pool_size", flext, "one session per stream, up to max_parallelism"},
		{"use_merge_statements", flext, "use load_method"},
		{"varchar_max_length", flext, "use varchar_max_bytes"},
		{"number_precision", flext, "numbers are stored exactly as NUMBER"},
		{"retry_config", flext, "retries are built in"},
		{"create_foreign_key_indexes", flext, "use custom_indexes"},
		{"driver_name", radbrt, "the Oracle driver is built in (pure Go)"},
		{"prefer_float_over_numeric", radbrt, "numbers are stored exactly as NUMBER"},
		{"dialect+driver", postgres, "the Oracle driver is built in (pure Go)"},
		{"use_copy", postgres, "loading always uses array binds"},
		{"sanitize_null_text_characters", postgres, "strings are loaded byte-exact, NUL characters included"},
		{"ssl_enable", postgres, "use protocol: tcps"},
		{"ssl_mode", postgres, "use ssl_verify and ssl_server_dn_match"},
		{"ssl_certificate_authority", postgres, "use wallet_location (the trusted certificates)"},
		{"ssl_client_certificate_enable", postgres, "use wallet_location (a wallet holding the client certificate)"},
		{"ssl_client_certificate", postgres, "use wallet_location (a wallet holding the client certificate)"},
		{"ssl_client_private_key", postgres, "use wallet_location (a wallet holding the client certificate)"},
		{"ssl_storage_directory", postgres, "use wallet_location"},
		{"data_flattening_max_level", pipelinewise, "use flattening_enabled: true and flattening_max_depth"},
		{"parallelism_max", pipelinewise, "use max_parallelism"},
		{"temp_dir", pipelinewise, "nothing is staged in local files"},
		{"disable_table_cache", pipelinewise, "table shapes are read from the catalog as needed; there is no cache to turn off"},
	}
}

// flextGroup is the key under which flext-target-oracle nests its settings.
const flextGroup = "TargetOracle"

// sshTunnelMembers are the keys of ssh_tunnel: MeltanoLabs target-postgres's
// names, plus host-key pinning.
func sshTunnelMembers() []setting {
	return []setting{
		{name: "enable", kind: kindBoolean, def: false, desc: "Connect through the bastion.",
			field: func(c *Config) any { return &c.SSHTunnel.Enable }},
		{name: "host", kind: kindString, desc: "Bastion host. Required when enable is true.",
			field: func(c *Config) any { return &c.SSHTunnel.Host }},
		{name: "port", kind: kindInteger, def: 22, min: 1, max: 65535, desc: "Bastion SSH port.",
			field: func(c *Config) any { return &c.SSHTunnel.Port }},
		{name: "username", kind: kindString, desc: "SSH user. Required when enable is true.",
			field: func(c *Config) any { return &c.SSHTunnel.Username }},
		{name: "private_key", kind: kindSecret, desc: "Private key: PEM text, or the path of a readable file. " +
			"Give private_key or password when enable is true.",
			field: func(c *Config) any { return &c.SSHTunnel.PrivateKey }},
		{name: "private_key_password", kind: kindSecret, desc: "Passphrase of an encrypted private_key.",
			field: func(c *Config) any { return &c.SSHTunnel.PrivateKeyPassword }},
		{name: "password", kind: kindSecret, desc: "SSH password, instead of or besides a private_key.",
			field: func(c *Config) any { return &c.SSHTunnel.Password }},
		{name: "host_key", kind: kindString, desc: "The bastion's host key: a SHA256:… fingerprint or an authorized_keys line.",
			field: func(c *Config) any { return &c.SSHTunnel.HostKey }},
		{name: "known_hosts", kind: kindString, desc: "known_hosts file checked when host_key is not given. Default: ~/.ssh/known_hosts.",
			field: func(c *Config) any { return &c.SSHTunnel.KnownHosts }},
	}
}
