package connect

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// Access is what the session may do in the target schema, as read from
// the catalog. Check reads it; Evaluate decides from it alone, so the
// decision logic is testable without a database.
type Access struct {
	User         string   // session user, whose privileges these are
	Schema       string   // target schema (owner of the tables)
	SchemaExists bool     // ALL_USERS lists Schema
	Privileges   []string // SESSION_PRIVS: system privileges, roles included
	// The session user's default tablespace and quotas (USER_USERS,
	// USER_TS_QUOTAS): they apply when Schema is the user's own.
	UserTablespace string
	UserQuotas     []Quota
	// Another schema's default tablespace and quotas. They need the DBA_
	// views; OwnerKnown is false when those were not readable.
	OwnerKnown      bool
	OwnerTablespace string
	OwnerQuotas     []Quota
	OwnerUnlimited  bool // UNLIMITED TABLESPACE granted directly to Schema
}

// Quota is one tablespace quota. MaxBytes -1 means unlimited.
type Quota struct {
	Tablespace      string
	Bytes, MaxBytes int64
}

// Own reports whether the tables go into the session user's schema.
func (a Access) Own() bool { return a.Schema == "" || a.Schema == a.User }

func (a Access) has(priv string) bool {
	for _, p := range a.Privileges {
		if strings.EqualFold(p, priv) {
			return true
		}
	}
	return false
}

// Status grades one line of a check report.
type Status uint8

const (
	Info Status = iota // a fact
	Pass               // a requirement that is met
	Warn               // could not be verified, or works with a caveat
	Fail               // loading cannot work until it is fixed
)

func (s Status) String() string {
	return [...]string{"info", "ok", "warn", "FAIL"}[s]
}

// Item is one line of a check report.
type Item struct {
	Status Status
	Topic  string // "server", "privilege", "quota", …
	Detail string
}

// Report is the outcome of --check.
type Report struct {
	Facts  Facts
	Access Access
	Items  []Item
	// Missing lists the system privileges the load needs and lacks.
	Missing []string
	// Fixes are the statements a DBA would run, in order.
	Fixes []string
}

// OK reports whether loading can work: no item failed.
func (r Report) OK() bool {
	for _, it := range r.Items {
		if it.Status == Fail {
			return false
		}
	}
	return true
}

// Check reads the session's privileges and quotas and evaluates them for
// the settings; facts come from Probe and Resolve. It returns an error
// only when the session itself fails.
func Check(ctx context.Context, db *sql.DB, cfg *config.Config, facts Facts) (Report, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("check: %w", err)
	}
	defer conn.Close()
	a, err := readAccess(ctx, conn, facts)
	if err != nil {
		return Report{}, fmt.Errorf("check: %w", err)
	}
	return Evaluate(cfg, facts, a), nil
}

func readAccess(ctx context.Context, q querier, f Facts) (Access, error) {
	a := Access{User: f.Server.SessionUser, Schema: f.DefaultSchema, SchemaExists: true}
	if a.Schema == "" {
		a.Schema = a.User
	}
	var err error
	if a.Privileges, err = readStrings(ctx, q, oraclesql.ProbePrivileges()); err != nil {
		return a, fmt.Errorf("read SESSION_PRIVS: %w", err)
	}
	var ts sql.NullString
	if err := optional(queryRow(ctx, q, probeDefaultTablespace(), &ts)); err != nil {
		return a, err
	}
	a.UserTablespace = ts.String
	if a.UserQuotas, err = readQuotas(ctx, q, oraclesql.ProbeQuotas()); err != nil {
		return a, fmt.Errorf("read USER_TS_QUOTAS: %w", err)
	}
	if a.Own() {
		return a, nil
	}
	names, err := readStrings(ctx, q, oraclesql.ProbeSchema(a.Schema))
	if err != nil {
		return a, fmt.Errorf("read ALL_USERS: %w", err)
	}
	a.SchemaExists = len(names) > 0
	return a, readOwner(ctx, q, &a)
}

// readOwner reads another schema's tablespace and quotas when the DBA_
// views are readable; server errors leave OwnerKnown false.
func readOwner(ctx context.Context, q querier, a *Access) error {
	var ts sql.NullString
	err := queryRow(ctx, q, probeOwnerTablespace(a.Schema), &ts)
	if err == nil {
		a.OwnerTablespace = ts.String
		a.OwnerQuotas, err = readQuotas(ctx, q, probeOwnerQuotas(a.Schema))
	}
	if err == nil {
		var unl []string
		unl, err = readStrings(ctx, q, probeOwnerUnlimited(a.Schema))
		a.OwnerUnlimited = len(unl) > 0
	}
	if fatal := optional(err); fatal != nil {
		return fatal
	}
	a.OwnerKnown = err == nil
	return nil
}

func readStrings(ctx context.Context, q querier, st oraclesql.Statement) ([]string, error) {
	rows, err := q.QueryContext(ctx, st.SQL, args(st)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s sql.NullString
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s.String)
	}
	return out, rows.Err()
}

func readQuotas(ctx context.Context, q querier, st oraclesql.Statement) ([]Quota, error) {
	rows, err := q.QueryContext(ctx, st.SQL, args(st)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Quota
	for rows.Next() {
		var ts, used, max sql.NullString // NUMBER may arrive as int64 or float64
		if err := rows.Scan(&ts, &used, &max); err != nil {
			return nil, err
		}
		out = append(out, Quota{Tablespace: ts.String, Bytes: number(used.String), MaxBytes: number(max.String)})
	}
	return out, rows.Err()
}

// number parses a catalog NUMBER scanned as text ("1048576", "1.048576e+06").
func number(s string) int64 {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n
	}
	f, _ := strconv.ParseFloat(s, 64)
	return int64(f)
}

// Evaluate decides, from the facts, the access read and the settings,
// whether loading can work, and what a DBA would grant otherwise.
func Evaluate(cfg *config.Config, f Facts, a Access) Report {
	if a.Schema == "" {
		a.Schema = a.User
	}
	r := Report{Facts: f, Access: a}
	r.serverItems()
	r.tunnelItems(cfg)
	r.schemaItems(cfg)
	r.privilegeItems(cfg)
	r.quotaItems(cfg)
	r.optionItems(cfg)
	return r
}

// tunnelItems report the SSH tunnel the sessions went through.
func (r *Report) tunnelItems(cfg *config.Config) {
	if !cfg.SSHTunnel.Enable {
		return
	}
	t, err := tunnelFor(cfg.SSHTunnel)
	if err != nil {
		r.add(Fail, "tunnel", "%v", err)
		return
	}
	r.add(Info, "tunnel", "%s", t.describe())
}

func (r *Report) add(s Status, topic, format string, args ...any) {
	r.Items = append(r.Items, Item{Status: s, Topic: topic, Detail: fmt.Sprintf(format, args...)})
}

func (r *Report) serverItems() {
	s := r.Facts.Server
	r.add(Info, "server", "Oracle Database %s, %s", s.Version, orUnknown(s.Edition)+pick(s.Edition == "", " edition", ""))
	r.add(Info, "server", "COMPATIBLE %s, MAX_STRING_SIZE %s, identifiers up to %d bytes",
		orUnknown(s.Compatible), orUnknown(s.MaxStringSize), s.IdentifierMaxBytes)
	r.add(Info, "server", "character sets %s (national %s)", orUnknown(s.DBCharset), orUnknown(s.NCharset))
	r.add(Info, "session", "user %s, current schema %s", s.SessionUser, s.CurrentSchema)
	r.autonomousItems()
	f := r.Facts
	r.add(Info, "settings", "identifiers %d bytes, VARCHAR2 up to %d bytes, booleans as %s, JSON as %s, text as %s, up to %d columns, vectors as %s",
		f.IdentifierMaxBytes, f.VarcharMaxBytes, pick(f.BooleanNative, "BOOLEAN", "NUMBER(1)"),
		pick(f.JSONNative, "JSON", "CLOB IS JSON"), pick(f.National, "NVARCHAR2/NCLOB", "VARCHAR2/CLOB"),
		max(f.MaxColumns, table.MaxColumns), pick(f.VectorNative, "VECTOR", "JSON"))
	for _, w := range s.Warnings {
		r.add(Warn, "server", "%s", w)
	}
	for _, p := range f.Problems {
		r.add(Fail, "settings", "%s", p)
	}
}

// autonomousItems report an Autonomous Database and its service. Every
// session turns parallel DML off (oraclesql.SessionSetup), so the _high
// and _medium services work, but they admit few concurrent statements and
// spend parallel servers on small ones: _tp and _low suit frequent loads.
func (r *Report) autonomousItems() {
	s := r.Facts.Server
	if !s.Autonomous() {
		return
	}
	r.add(Info, "server", "Autonomous Database (workload %s), service %s; every session runs ALTER SESSION DISABLE PARALLEL DML",
		s.CloudService, orUnknown(s.ServiceName))
	if parallelService(s.ServiceName) {
		r.add(Warn, "service", "%s is a _high or _medium service: few concurrent sessions, statements run in parallel; "+
			"for frequent loads connect to the _tp (Transaction Processing) or _low service", s.ServiceName)
	}
}

func pick(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

func (r *Report) schemaItems(cfg *config.Config) {
	a := r.Access
	switch {
	case a.Own():
		r.add(Pass, "schema", "tables go into %s, the user's own schema", a.Schema)
	case a.SchemaExists:
		r.add(Pass, "schema", "schema %s exists (not the user's own: system privileges on ANY TABLE are needed)", a.Schema)
	default:
		r.add(Fail, "schema", "schema %s does not exist (or is not visible to %s)", a.Schema, a.User)
		auth := "NO AUTHENTICATION"
		if r.Facts.Server.Major > 0 && r.Facts.Server.Major < 18 {
			auth = `IDENTIFIED BY "<password>"`
		}
		r.Fixes = append(r.Fixes, fmt.Sprintf("CREATE USER %s %s", ident(a.Schema), auth))
	}
	r.routedSchemaItems(cfg)
}

// routedSchemaItems says what a {stream_schema} template needs: its
// schemas are known only from the input, so their existence is checked
// at each stream's SCHEMA, and any schema but the user's own needs the
// ANY privileges.
func (r *Report) routedSchemaItems(cfg *config.Config) {
	routed := strings.Contains(cfg.DefaultTargetSchema, "{stream_schema}")
	for _, o := range cfg.StreamOverrides {
		routed = routed || o.DefaultTargetSchema != nil && strings.Contains(*o.DefaultTargetSchema, "{stream_schema}")
	}
	if !routed {
		return
	}
	var privs []string
	for _, n := range needs(cfg, false) {
		privs = append(privs, n.priv)
	}
	r.add(Info, "schema", "default_target_schema routes streams by {stream_schema}: their schemas are known only from the input (a missing one fails at the stream's SCHEMA); tables in schemas other than %s need %s",
		r.Access.User, strings.Join(privs, ", "))
}

// need is a privilege the load needs, and why.
type need struct{ priv, why string }

// needs lists the system privileges the load needs for the settings. In
// the user's own schema CREATE TABLE is enough (owners may alter,
// comment, index, truncate, grant and write their own tables); another
// schema needs the ANY privileges.
func needs(cfg *config.Config, own bool) []need {
	if own {
		return []need{{"CREATE TABLE", "creating tables"}}
	}
	n := []need{
		{"CREATE ANY TABLE", "creating tables in another schema"},
		{"SELECT ANY TABLE", "reading its tables (MERGE, catalog)"},
		{"INSERT ANY TABLE", "inserting rows"},
	}
	if cfg.SchemaEvolution != config.SchemaEvolutionFail {
		n = append(n, need{"ALTER ANY TABLE", "adding and widening columns (schema_evolution)"})
	}
	if usesLoad(cfg, config.MethodUpsert) || (cfg.ProcessActivateVersionMessages && !cfg.HardDelete) {
		n = append(n, need{"UPDATE ANY TABLE", "upserts and soft deletes"})
	}
	if usesLoad(cfg, config.MethodOverwrite) || usesHardDelete(cfg) {
		n = append(n, need{"DELETE ANY TABLE", "overwrite and hard deletes"})
	}
	if cfg.TruncateBeforeLoad {
		n = append(n, need{"DROP ANY TABLE", "TRUNCATE (truncate_before_load)"})
	}
	if cfg.ColumnComments {
		n = append(n, need{"COMMENT ANY TABLE", "column comments (column_comments)"})
	}
	if len(cfg.CustomIndexes) > 0 {
		n = append(n, need{"CREATE ANY INDEX", "custom_indexes"})
	}
	if len(cfg.GrantSelectTo) > 0 {
		n = append(n, need{"GRANT ANY OBJECT PRIVILEGE", "grant_select_to"})
	}
	return n
}

// usesLoad reports whether load_method, or a stream override, is m.
func usesLoad(cfg *config.Config, m string) bool {
	if cfg.LoadMethod == m || (m == config.MethodUpsert && cfg.LoadMethod == "") {
		return true
	}
	for _, o := range cfg.StreamOverrides {
		if o.LoadMethod != nil && *o.LoadMethod == m {
			return true
		}
	}
	return false
}

func usesHardDelete(cfg *config.Config) bool {
	if cfg.HardDelete {
		return true
	}
	for _, o := range cfg.StreamOverrides {
		if o.HardDelete != nil && *o.HardDelete {
			return true
		}
	}
	return false
}

// equivalent privileges: holding the right one satisfies the left one.
var implied = map[string]string{"CREATE TABLE": "CREATE ANY TABLE"}

func (r *Report) privilegeItems(cfg *config.Config) {
	a := r.Access
	for _, n := range needs(cfg, a.Own()) {
		if a.has(n.priv) || (implied[n.priv] != "" && a.has(implied[n.priv])) {
			r.add(Pass, "privilege", "%s (for %s)", n.priv, n.why)
			continue
		}
		r.add(Fail, "privilege", "%s is missing (needed for %s)", n.priv, n.why)
		r.Missing = append(r.Missing, n.priv)
	}
	if len(r.Missing) > 0 {
		r.Fixes = append(r.Fixes, fmt.Sprintf("GRANT %s TO %s", strings.Join(r.Missing, ", "), ident(a.User)))
	}
}

func (r *Report) quotaItems(cfg *config.Config) {
	a := r.Access
	owner, unlimited, quotas, deflt, known := a.User, a.has("UNLIMITED TABLESPACE"), a.UserQuotas, a.UserTablespace, true
	if !a.Own() {
		owner, unlimited, quotas, deflt, known = a.Schema, a.OwnerUnlimited, a.OwnerQuotas, a.OwnerTablespace, a.OwnerKnown
	}
	if !a.SchemaExists { // the CREATE USER fix needs a quota too
		for _, ts := range tablespaces(cfg, a.UserTablespace) {
			if ts != "" {
				r.Fixes = append(r.Fixes, fmt.Sprintf("ALTER USER %s QUOTA UNLIMITED ON %s", ident(owner), ident(ts)))
			}
		}
		return
	}
	spaces := tablespaces(cfg, deflt)
	if !known {
		for _, ts := range spaces {
			r.add(Warn, "quota", "cannot read the quota of %s on %s (needs SELECT on DBA_TS_QUOTAS, DBA_USERS, DBA_SYS_PRIVS); "+
				"make sure %s has one: ALTER USER %s QUOTA UNLIMITED ON %s", owner, tsName(ts), owner, ident(owner), tsName(ts))
		}
		return
	}
	if unlimited {
		r.add(Pass, "quota", "%s has UNLIMITED TABLESPACE", owner)
		return
	}
	for _, ts := range spaces {
		r.quota(owner, ts, quotas)
	}
}

// tablespaces lists the tablespaces new tables use: tablespace (or the
// owner's default), index_tablespace, lob_tablespace. "" is an unknown
// default tablespace.
func tablespaces(cfg *config.Config, deflt string) []string {
	first := cfg.Tablespace
	if first == "" {
		first = deflt
	}
	out := []string{normalTS(first)}
	for _, ts := range []string{cfg.IndexTablespace, cfg.LOBTablespace} {
		if ts = normalTS(ts); ts != "" && !contains(out, ts) {
			out = append(out, ts)
		}
	}
	return out
}

// normalTS spells a configured tablespace as the catalog does: an
// ordinary name upper-cased, anything else as written.
func normalTS(ts string) string {
	if u := strings.ToUpper(ts); ordinaryName(u) {
		return u
	}
	return ts
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func (r *Report) quota(owner, ts string, quotas []Quota) {
	if ts == "" {
		r.add(Warn, "quota", "the default tablespace of %s is unknown: quota not checked", owner)
		return
	}
	for _, q := range quotas {
		if q.Tablespace != ts {
			continue
		}
		switch {
		case q.MaxBytes < 0:
			r.add(Pass, "quota", "%s has an unlimited quota on %s", owner, ts)
		case q.Bytes < q.MaxBytes:
			r.add(Pass, "quota", "%s may use %d more bytes on %s (quota %d)", owner, q.MaxBytes-q.Bytes, ts, q.MaxBytes)
		default:
			r.add(Fail, "quota", "the quota of %s on %s is used up (%d of %d bytes)", owner, ts, q.Bytes, q.MaxBytes)
			r.Fixes = append(r.Fixes, fmt.Sprintf("ALTER USER %s QUOTA UNLIMITED ON %s", ident(owner), ident(ts)))
		}
		return
	}
	r.add(Fail, "quota", "%s has no quota on tablespace %s (and no UNLIMITED TABLESPACE)", owner, ts)
	r.Fixes = append(r.Fixes, fmt.Sprintf("ALTER USER %s QUOTA UNLIMITED ON %s", ident(owner), ident(ts)))
}

func tsName(ts string) string {
	if ts == "" {
		return "<its default tablespace>"
	}
	return ident(ts)
}

// ident writes a user, schema or tablespace name for a DBA's statement:
// unquoted when it is an ordinary upper-case name, else double-quoted.
func ident(name string) string {
	if ordinaryName(name) {
		return name
	}
	return `"` + name + `"`
}

func ordinaryName(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c == '#') {
			return false
		}
	}
	return true
}

// Write prints the report for a person: facts, then each requirement,
// then the statements that fix what failed, then the verdict.
func (r Report) Write(w io.Writer) error {
	var b strings.Builder
	b.WriteString("target-oracle --check\n\n")
	items := append([]Item(nil), r.Items...)
	sort.SliceStable(items, func(i, j int) bool { return items[i].Status == Info && items[j].Status != Info })
	for _, it := range items {
		fmt.Fprintf(&b, "  %-6s %-9s %s\n", "["+it.Status.String()+"]", it.Topic, it.Detail)
	}
	if len(r.Fixes) > 0 {
		b.WriteString("\nA DBA can fix this with:\n\n")
		for _, s := range r.Fixes {
			fmt.Fprintf(&b, "  %s;\n", s)
		}
	}
	if r.OK() {
		b.WriteString("\nResult: loading can work.\n")
	} else {
		b.WriteString("\nResult: loading cannot work until the FAIL lines are fixed.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
