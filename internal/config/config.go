// Package config holds the target's settings: one table of settings (names,
// types, defaults, aliases, env names, secrets, descriptions) from which
// parsing, validation, --about and the settings reference are all derived.
package config

// Secret is a string that never prints: fmt, %v, slog and JSON all show it
// redacted. Use Reveal only where the value is handed to the driver.
type Secret string

// Config is the effective configuration of one run, after merging files,
// .env and the environment and applying aliases and defaults.
type Config struct {
	// Connection
	Host                  string
	Port                  int
	ServiceName           string
	SID                   string
	User                  string
	Password              Secret
	ProxyUser             string
	DSN                   Secret
	TNSAdmin              string
	Protocol              string // tcp | tcps
	SSLVerify             bool
	SSLServerDNMatch      *bool // nil: not given (the descriptor's, else true)
	SSLServerCertDN       string
	WalletLocation        string
	WalletPassword        Secret
	NetworkEncryption     string // accepted|requested|required|rejected
	ConnectTimeoutSeconds int
	SSHTunnel             SSHTunnel

	// Naming and table model
	DefaultTargetSchema string            // "" = the user's own schema (DRY_RUN in dry-run); may hold {stream_schema}
	SchemaMapping       map[string]string // source schema ({stream_schema} part) -> target schema
	TablePrefix         string
	TableSuffix         string
	TableNameMappings   map[string]string
	ColumnMappings      map[string]map[string]string // stream -> property path -> column
	IgnoredColumns      map[string][]string          // stream ("*" = every stream) -> property paths
	IdentifierCase      string                       // upper | preserve
	IdentifierMaxBytes  string                       // auto | 30 | 128
	ColumnOrdering      string                       // schema | alphabetical
	ColumnComments      bool
	StorageMode         string // hybrid | flattened | json
	FlatteningEnabled   bool
	FlatteningMaxDepth  int
	FlatteningSeparator string
	JSONColumnName      string
	StreamOverrides     []StreamOverride // in config order; first matching pattern wins

	// Loading
	LoadMethod                     string // upsert | append-only | overwrite | history
	HistoryValidFrom               string // property path: a history version's valid-from
	TruncateBeforeLoad             bool
	HardDelete                     bool
	DeleteMissing                  string  // none | soft | hard
	DeleteMissingMaxFraction       float64 // 0..1
	ProcessActivateVersionMessages bool
	AddRecordMetadata              bool
	PrimaryKeyRequired             bool
	ValidateRecords                bool
	OnInvalidRecord                string // fail | skip | reject
	OnDatabaseError                string // fail | reject
	RejectPath                     string
	BatchSizeRows                  int
	BatchSizeBytes                 int64
	MaxBufferedBytes               int64
	BatchWaitLimitSeconds          int
	FlushAllStreams                bool
	MaxParallelism                 int
	SchemaEvolution                string // widen | additive | fail
	VarcharMaxBytes                string // auto | 4000 | 32767
	MaxColumns                     string // auto | 1000 | 4096
	InterpretContentEncoding       bool
	BooleanType                    string // auto | number | boolean
	JSONType                       string // auto | json | clob
	TimestampType                  string // timestamp_tz | timestamp
	NationalCharacters             string // auto | always | never
	Tablespace                     string
	IndexTablespace                string
	LOBTablespace                  string
	Partitioning                   Partitioning // the zero value: none
	Compression                    string       // none | advanced | query_low | query_high | archive_low | archive_high
	GrantSelectTo                  []string
	CustomIndexes                  map[string][]CustomIndex
	DDLLockTimeoutSeconds          int
	StatementTimeoutSeconds        int
	ShutdownTimeoutSeconds         int

	// Stream maps (raw; compiled by the stream-map package)
	StreamMaps      map[string]any
	StreamMapConfig map[string]any

	// Operations
	LogLevel               string // debug | info | warn | error
	LogFormat              string // text | json
	MetricsIntervalSeconds int
	SummaryPath            string
	HTTPListenAddress      string
}

// StreamOverride is one stream_overrides entry: settings that apply to the
// streams whose name matches Pattern ("*" wildcards). A nil field keeps the
// global value.
type StreamOverride struct {
	Pattern             string
	StorageMode         *string
	LoadMethod          *string
	HardDelete          *bool
	DeleteMissing       *string
	BatchSizeRows       *int
	FlatteningMaxDepth  *int
	DefaultTargetSchema *string
	Partitioning        *Partitioning
	Compression         *string
}

// SSHTunnel is the ssh_tunnel setting: connect through an SSH bastion.
// The JSON names are the setting's keys; secrets marshal redacted.
type SSHTunnel struct {
	Enable             bool   `json:"enable"`
	Host               string `json:"host"`
	Port               int    `json:"port"`
	Username           string `json:"username"`
	PrivateKey         Secret `json:"private_key"`          // PEM text, or a path to a readable file
	PrivateKeyPassword Secret `json:"private_key_password"` // of an encrypted private_key
	Password           Secret `json:"password"`
	HostKey            string `json:"host_key"`    // "SHA256:…" fingerprint or an authorized_keys line
	KnownHosts         string `json:"known_hosts"` // "" = ~/.ssh/known_hosts
}

// CustomIndex is one custom_indexes entry.
type CustomIndex struct {
	Name    string // "" = generated
	Columns []string
	Unique  bool
}
