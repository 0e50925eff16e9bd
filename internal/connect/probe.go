package connect

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// ServerInfo is what the server supports, as read once per run.
type ServerInfo struct {
	Version       string // "19.21.0.0.0" (VERSION_FULL) or "19.0.0.0.0"
	Major         int    // 19, 21, 23
	Edition       string // "Enterprise Edition", "Free", "Express Edition"; "" if unknown
	Compatible    string // COMPATIBLE ("19.0.0"); "" when it could not be read
	MaxStringSize string // STANDARD | EXTENDED
	// StringBindBytes is the longest string go-ora binds as VARCHAR
	// (4000 or 32767), probed when MAX_STRING_SIZE is EXTENDED; 0 when
	// not probed.
	StringBindBytes    int
	IdentifierMaxBytes int    // 30 or 128
	DBCharset          string // NLS_CHARACTERSET, e.g. AL32UTF8
	NCharset           string // NLS_NCHAR_CHARACTERSET, e.g. AL16UTF16
	BooleanType        bool   // the BOOLEAN SQL type exists (23ai, COMPATIBLE >= 23)
	JSONType           bool   // the JSON type exists (21c+, COMPATIBLE >= 20)
	// MaxColumns is the MAX_COLUMNS parameter (23ai): STANDARD (1000
	// columns per table) or EXTENDED (4096); "" when not read.
	MaxColumns    string
	VectorType    bool   // the VECTOR type exists (23ai, COMPATIBLE >= 23.4)
	CurrentSchema string // SYS_CONTEXT('USERENV','CURRENT_SCHEMA')
	SessionUser   string // SYS_CONTEXT('USERENV','SESSION_USER'): whose privileges apply
	// CloudService is SYS_CONTEXT('USERENV','CLOUD_SERVICE'): the workload
	// type of an Autonomous Database ("OLTP", "DWCS", …), "" elsewhere.
	CloudService string
	ServiceName  string // SYS_CONTEXT('USERENV','SERVICE_NAME') of the session
	// Warnings say which facts were inferred because a view was not
	// readable, and how to let the target read it.
	Warnings []string
}

// querier is what the probes need: *sql.Conn, *sql.DB and *sql.Tx have it.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Probe reads the server's facts on one session. It needs no privilege
// beyond CREATE SESSION: when V$PARAMETER is not readable it falls back
// to DATABASE_COMPATIBLE_LEVEL and to probes that fail in a known way
// (ORA-00972 for 30-byte identifiers, ORA-00910 for 4000-byte VARCHAR2).
// Server errors of optional reads become Warnings; an error is returned
// only when the basic facts cannot be read or the session fails.
func Probe(ctx context.Context, conn *sql.Conn) (ServerInfo, error) {
	return probe(ctx, conn)
}

func probe(ctx context.Context, q querier) (ServerInfo, error) {
	var s ServerInfo
	steps := []func(context.Context, querier) error{
		s.readServer, s.readProduct, s.readParameters,
		s.readIdentifiers, s.readStringSize, s.readStringBind, s.readBoolean, s.readJSON, s.readVector, s.readCloud,
	}
	for _, step := range steps {
		if err := step(ctx, q); err != nil {
			return s, fmt.Errorf("probe Oracle: %w", err)
		}
	}
	return s, nil
}

func (s *ServerInfo) warn(format string, a ...any) {
	s.Warnings = append(s.Warnings, fmt.Sprintf(format, a...))
}

func (s *ServerInfo) readServer(ctx context.Context, q querier) error {
	var schema, user, version, cs, ncs sql.NullString
	if err := queryRow(ctx, q, oraclesql.ProbeServer(), &schema, &user, &version, &cs, &ncs); err != nil {
		return err
	}
	s.CurrentSchema, s.SessionUser, s.Version = schema.String, user.String, version.String
	s.DBCharset, s.NCharset = cs.String, ncs.String
	s.Major = major(s.Version)
	return nil
}

func (s *ServerInfo) readProduct(ctx context.Context, q querier) error {
	var product, full sql.NullString
	err := queryRow(ctx, q, probeProduct(), &product, &full)
	if Code(err) == 904 { // before 18c: no VERSION_FULL
		err = queryRow(ctx, q, probeProductOnly(), &product)
	}
	if fatal := optional(err); fatal != nil {
		return fatal
	}
	if err != nil {
		s.warn("edition unknown: PRODUCT_COMPONENT_VERSION is not readable (%s)", oraText(err))
	}
	s.Edition = edition(product.String)
	if full.String != "" {
		s.Version = full.String
	}
	return nil
}

func (s *ServerInfo) readParameters(ctx context.Context, q querier) error {
	rows, err := q.QueryContext(ctx, probeParameters().SQL)
	if err == nil {
		err = scanParameters(rows, s)
	}
	if fatal := optional(err); fatal != nil {
		return fatal
	}
	if err == nil {
		return nil
	}
	s.warn("V$PARAMETER is not readable (%s): COMPATIBLE, MAX_STRING_SIZE and MAX_COLUMNS are inferred; "+
		"GRANT SELECT ON V_$PARAMETER (or SELECT_CATALOG_ROLE) for exact values", oraText(err))
	var v sql.NullString
	err = queryRow(ctx, q, probeCompatibleLevel(), &v)
	if fatal := optional(err); fatal != nil {
		return fatal
	}
	if err != nil {
		s.warn("DATABASE_COMPATIBLE_LEVEL is not readable (%s): features are detected by probes", oraText(err))
	}
	s.Compatible = v.String
	return nil
}

func scanParameters(rows *sql.Rows, s *ServerInfo) error {
	defer rows.Close()
	for rows.Next() {
		var name, value sql.NullString
		if err := rows.Scan(&name, &value); err != nil {
			return err
		}
		switch strings.ToLower(name.String) {
		case "compatible":
			s.Compatible = value.String
		case "max_string_size":
			s.MaxStringSize = strings.ToUpper(value.String)
		case "max_columns":
			s.MaxColumns = strings.ToUpper(value.String)
		}
	}
	return rows.Err()
}

func (s *ServerInfo) readIdentifiers(ctx context.Context, q querier) error {
	if s.Compatible != "" {
		s.IdentifierMaxBytes = table.MaxBytesShort
		if versionAtLeast(s.Compatible, 12, 2) {
			s.IdentifierMaxBytes = table.MaxBytesLong
		}
		return nil
	}
	ok, err := s.feature(ctx, q, oraclesql.ProbeLongIdentifiers(), "128-byte identifiers", 972)
	s.IdentifierMaxBytes = table.MaxBytesShort
	if ok {
		s.IdentifierMaxBytes = table.MaxBytesLong
	}
	return err
}

func (s *ServerInfo) readStringSize(ctx context.Context, q querier) error {
	if s.MaxStringSize != "" {
		return nil
	}
	ok, err := s.feature(ctx, q, oraclesql.ProbeExtendedStrings(), "32767-byte VARCHAR2", 910)
	s.MaxStringSize = "STANDARD"
	if ok {
		s.MaxStringSize = "EXTENDED"
	}
	return err
}

// readStringBind decides the VARCHAR bind limit the way go-ora will
// encode binds: go-ora takes it from a server capability bit
// (connection.go:1390-1398), not from MAX_STRING_SIZE, and sends a longer
// string as a LONG bind (parameter_encode.go:367-372), which a MERGE's
// select list refuses. If the two disagreed, 4,001-32,767-byte values
// would fail; a 4001-byte bind answered with 4001 proves they agree.
func (s *ServerInfo) readStringBind(ctx context.Context, q querier) error {
	if s.MaxStringSize != "EXTENDED" {
		return nil
	}
	var n sql.NullString
	err := queryRow(ctx, q, oraclesql.ProbeStringBind(), &n)
	if fatal := optional(err); fatal != nil {
		return fatal
	}
	if err == nil && n.String == strconv.Itoa(oraclesql.StringBindProbeBytes) {
		s.StringBindBytes = 32767
		return nil
	}
	s.StringBindBytes = 4000
	answer := "answered " + n.String
	if err != nil {
		answer = "failed with " + oraText(err)
	}
	s.warn("MAX_STRING_SIZE is EXTENDED but a 4001-byte string bind %s: the driver binds at most 4000 bytes as VARCHAR, so strings stay within 4000 bytes", answer)
	return nil
}

func (s *ServerInfo) readBoolean(ctx context.Context, q querier) error {
	switch {
	case s.Major < 23:
		s.BooleanType = false
	case s.Compatible != "":
		s.BooleanType = versionAtLeast(s.Compatible, 23)
	default:
		ok, err := s.feature(ctx, q, oraclesql.ProbeBoolean(), "the BOOLEAN type", 902, 904)
		s.BooleanType = ok
		return err
	}
	return nil
}

func (s *ServerInfo) readJSON(ctx context.Context, q querier) error {
	switch {
	case s.Major < 21:
		s.JSONType = false
	case s.Compatible != "":
		s.JSONType = versionAtLeast(s.Compatible, 20)
	default:
		ok, err := s.feature(ctx, q, oraclesql.ProbeJSONType(), "the JSON type", 902, 904)
		s.JSONType = ok
		return err
	}
	return nil
}

// readCloud reads whether the database is an Autonomous Database, and the
// service the session uses. A server error (before 18c) means it is not.
func (s *ServerInfo) readCloud(ctx context.Context, q querier) error {
	var cloud, service sql.NullString
	err := queryRow(ctx, q, probeCloud(), &cloud, &service)
	if fatal := optional(err); fatal != nil {
		return fatal
	}
	s.CloudService, s.ServiceName = cloud.String, service.String
	return nil
}

// Autonomous reports whether the server is an Autonomous Database.
func (s ServerInfo) Autonomous() bool { return s.CloudService != "" }

// parallelService reports whether an Autonomous Database service name is
// one of the _high or _medium services, which run statements in parallel
// and admit few concurrent ones ("g1234_mydb_high.adb.oraclecloud.com").
func parallelService(service string) bool {
	first, _, _ := strings.Cut(strings.ToLower(service), ".")
	return strings.HasSuffix(first, "_high") || strings.HasSuffix(first, "_medium")
}

// feature runs a probe query: success means the feature exists, a server
// error means it does not (an unexpected code is also noted as a
// warning). Other errors (the session failed) are returned.
func (s *ServerInfo) feature(ctx context.Context, q querier, st oraclesql.Statement, what string, expected ...int) (bool, error) {
	rows, err := q.QueryContext(ctx, st.SQL, args(st)...)
	if err == nil {
		for rows.Next() {
		}
		err = rows.Err()
		rows.Close()
	}
	if err == nil {
		return true, nil
	}
	if fatal := optional(err); fatal != nil {
		return false, fatal
	}
	code := Code(err)
	for _, c := range expected {
		if code == c {
			return false, nil
		}
	}
	s.warn("probe for %s failed with %s: assuming it is not available", what, oraText(err))
	return false, nil
}

// optional returns err when it is not a server error (a lost session,
// a cancelled context): those end the probe. Server errors return nil,
// and the caller treats them as "not readable".
func optional(err error) error {
	if err == nil || errors.Is(err, sql.ErrNoRows) || Code(err) != 0 {
		return nil
	}
	return err
}

// oraText is an error's text for a warning: the ORA- line only.
func oraText(err error) string {
	if errors.Is(err, sql.ErrNoRows) {
		return "no rows"
	}
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return msg
}

// queryRow runs st and scans its first row; sql.ErrNoRows if none.
func queryRow(ctx context.Context, q querier, st oraclesql.Statement, dest ...any) error {
	rows, err := q.QueryContext(ctx, st.SQL, args(st)...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	if err := rows.Scan(dest...); err != nil {
		return err
	}
	return rows.Close()
}

// major is the first number of a version string ("19.0.0.0.0" -> 19).
func major(v string) int {
	n, _ := strconv.Atoi(strings.SplitN(strings.TrimSpace(v), ".", 2)[0])
	return n
}

// versionAtLeast compares a dotted version ("12.2.0.1") with want
// (12, 2), component by component; a missing component is 0.
func versionAtLeast(v string, want ...int) bool {
	parts := strings.Split(strings.TrimSpace(v), ".")
	for i, w := range want {
		n := 0
		if i < len(parts) {
			n, _ = strconv.Atoi(parts[i])
		}
		if n != w {
			return n > w
		}
	}
	return true
}

// edition extracts the edition from PRODUCT: the words after the release
// name ("Oracle Database 19c Enterprise Edition" -> "Enterprise Edition",
// "Oracle Database 23ai Free" -> "Free").
func edition(product string) string {
	words := strings.Fields(product)
	for i, w := range words {
		if w[0] >= '0' && w[0] <= '9' {
			return strings.Join(words[i+1:], " ")
		}
	}
	return ""
}

// Facts are the effective choices of the `auto` settings for one run.
type Facts struct {
	Server             ServerInfo
	IdentifierMaxBytes int    // 30 | 128
	VarcharMaxBytes    int    // 4000 | 32767
	BooleanNative      bool   // BOOLEAN columns, else NUMBER(1)
	JSONNative         bool   // JSON columns, else CLOB IS JSON
	MaxColumns         int    // columns per table: 4096 with MAX_COLUMNS=EXTENDED; 0 means 1000
	VectorNative       bool   // VECTOR columns for vector properties, else JSON
	National           bool   // NVARCHAR2/NCLOB for text
	DefaultSchema      string // owner of the tables (conformed)
	// Problems are explicit settings the server cannot honour (say
	// boolean_type: boolean on 19c); loading would fail, so --check fails.
	Problems []string
}

// Resolve applies the settings to the server's facts: an explicit value
// wins, `auto` (or "") takes the server's answer (config's *For methods).
func (s ServerInfo) Resolve(cfg *config.Config) Facts {
	f := Facts{Server: s}
	f.IdentifierMaxBytes = f.identifiers(cfg)
	f.VarcharMaxBytes = f.varchar(cfg)
	f.BooleanNative = f.native("boolean_type", config.BooleanBoolean, cfg.BooleanNativeFor(s.BooleanType), s.BooleanType,
		"the server has no BOOLEAN type (Oracle 23ai with COMPATIBLE >= 23 has)")
	f.JSONNative = f.native("json_type", config.JSONTypeJSON, cfg.JSONNativeFor(s.JSONType), s.JSONType,
		"the server has no JSON type (Oracle 21c+ with COMPATIBLE >= 20 has)")
	f.MaxColumns = f.columns(cfg)
	f.VectorNative = s.VectorType
	f.National = cfg.NationalFor(!unicodeCharset(s.DBCharset))
	f.DefaultSchema = s.CurrentSchema
	// A {stream_schema} template names no one schema: the user's own is
	// the default, and each stream's schema is known only from the input.
	if cfg.DefaultTargetSchema != "" && !strings.Contains(cfg.DefaultTargetSchema, "{stream_schema}") {
		f.DefaultSchema = table.SchemaName(cfg.DefaultTargetSchema, cfg.UpperIdentifiers(), f.IdentifierMaxBytes)
	}
	return f
}

func (f *Facts) identifiers(cfg *config.Config) int {
	server := f.Server.IdentifierMaxBytes
	if server == 0 {
		server = table.MaxBytesShort // unknown: the limit every version accepts
	}
	n := cfg.IdentifierMaxBytesFor(server)
	if n > server {
		f.Problems = append(f.Problems, fmt.Sprintf("identifier_max_bytes is %d but the server allows %d (COMPATIBLE %s)", n, server, orUnknown(f.Server.Compatible)))
	}
	return n
}

// varchar is the string ceiling: 32767 only when MAX_STRING_SIZE is
// EXTENDED and go-ora binds such strings as VARCHAR (StringBindBytes), so
// that columns, the engine's bind limit and go-ora's agree.
func (f *Facts) varchar(cfg *config.Config) int {
	server := 4000
	extended := f.Server.MaxStringSize == "EXTENDED"
	if extended && (f.Server.StringBindBytes == 0 || f.Server.StringBindBytes >= 32767) {
		server = 32767
	}
	n := cfg.VarcharMaxBytesFor(server)
	switch {
	case n > server && extended:
		f.Problems = append(f.Problems, fmt.Sprintf("varchar_max_bytes is %d but the driver binds at most %d bytes as VARCHAR on this server (MAX_STRING_SIZE is EXTENDED)", n, server))
	case n > server:
		f.Problems = append(f.Problems, fmt.Sprintf("varchar_max_bytes is %d but MAX_STRING_SIZE is %s (VARCHAR2 up to %d bytes)", n, orUnknown(f.Server.MaxStringSize), server))
	}
	return n
}

// native is an auto|on|off setting resolved (on: chosen); on without
// server support is a problem.
func (f *Facts) native(name, on string, chosen, server bool, why string) bool {
	if chosen && !server {
		f.Problems = append(f.Problems, fmt.Sprintf("%s is %s but %s", name, on, why))
	}
	return chosen
}

// unicodeCharset reports whether the database character set holds every
// Unicode character; an unknown one is assumed to (AL32UTF8 is the
// default since 12.2).
func unicodeCharset(cs string) bool {
	switch strings.ToUpper(cs) {
	case "", "AL32UTF8", "UTF8":
		return true
	}
	return false
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
