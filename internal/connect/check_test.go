package connect

import (
	"bytes"
	"context"
	"flag"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/config"
)

var update = flag.Bool("update", false, "rewrite golden files")

// loadConfig is a Config with the defaults that matter to Check.
func loadConfig() *config.Config {
	c := autoConfig()
	c.LoadMethod, c.SchemaEvolution = "upsert", "widen"
	c.ColumnComments, c.ProcessActivateVersionMessages = true, true
	return c
}

func facts(s ServerInfo, schema string) Facts {
	f := s.Resolve(autoConfig())
	if schema != "" {
		f.DefaultSchema = schema
	}
	return f
}

// With a {stream_schema} template --check cannot know the schemas: it
// says so and lists the privileges other schemas need.
func TestEvaluateRoutedSchemas(t *testing.T) {
	c := loadConfig()
	c.DefaultTargetSchema = "{stream_schema}"
	a := Access{User: "LOADER", Schema: "LOADER", SchemaExists: true, Privileges: []string{"CREATE SESSION", "CREATE TABLE"}, UserTablespace: "USERS", UserQuotas: []Quota{{"USERS", 10, -1}}}
	r := Evaluate(c, facts(server19, ""), a)
	var found string
	for _, it := range r.Items {
		if strings.Contains(it.Detail, "{stream_schema}") {
			found = it.Detail
		}
	}
	if !strings.Contains(found, "known only from the input") || !strings.Contains(found, "other than LOADER need CREATE ANY TABLE, SELECT ANY TABLE") {
		t.Errorf("routed schema item = %q", found)
	}
	if !r.OK() {
		t.Errorf("a template alone must not fail the check: %+v", r.Items)
	}
}

func TestEvaluate(t *testing.T) {
	upsertOnly := "append-only"
	tests := []struct {
		name    string
		edit    func(*config.Config)
		facts   Facts
		access  Access
		ok      bool
		missing []string
		fixes   []string
		warn    string // substring of a Warn item
	}{
		{
			name:   "own schema with CREATE TABLE and a quota",
			facts:  facts(server19, ""),
			access: Access{User: "LOADER", Schema: "LOADER", SchemaExists: true, Privileges: []string{"CREATE SESSION", "CREATE TABLE"}, UserTablespace: "USERS", UserQuotas: []Quota{{"USERS", 10, -1}}},
			ok:     true,
		},
		{
			name:    "own schema without CREATE TABLE or quota",
			facts:   facts(server19, ""),
			access:  Access{User: "LOADER", Schema: "LOADER", SchemaExists: true, Privileges: []string{"CREATE SESSION"}, UserTablespace: "USERS"},
			missing: []string{"CREATE TABLE"},
			fixes:   []string{"GRANT CREATE TABLE TO LOADER", "ALTER USER LOADER QUOTA UNLIMITED ON USERS"},
		},
		{
			name:   "CREATE ANY TABLE implies CREATE TABLE; UNLIMITED TABLESPACE needs no quota",
			facts:  facts(server23, ""),
			access: Access{User: "APP", Schema: "APP", SchemaExists: true, Privileges: []string{"CREATE ANY TABLE", "UNLIMITED TABLESPACE"}, UserTablespace: "USERS"},
			ok:     true,
		},
		{
			name:   "quota used up",
			facts:  facts(server19, ""),
			access: Access{User: "LOADER", Schema: "LOADER", SchemaExists: true, Privileges: []string{"CREATE TABLE"}, UserTablespace: "USERS", UserQuotas: []Quota{{"USERS", 1 << 20, 1 << 20}}},
			fixes:  []string{"ALTER USER LOADER QUOTA UNLIMITED ON USERS"},
		},
		{
			name:  "configured tablespaces: each needs a quota",
			edit:  func(c *config.Config) { c.Tablespace, c.IndexTablespace, c.LOBTablespace = "data", "idx", "DATA" },
			facts: facts(server19, ""),
			access: Access{User: "LOADER", Schema: "LOADER", SchemaExists: true, Privileges: []string{"CREATE TABLE"}, UserTablespace: "USERS",
				UserQuotas: []Quota{{"DATA", 0, 1 << 30}}},
			fixes: []string{"ALTER USER LOADER QUOTA UNLIMITED ON IDX"},
		},
		{
			name:    "another schema with default settings, quotas unreadable",
			facts:   facts(server19, "STAGE"),
			access:  Access{User: "LOADER", Schema: "STAGE", SchemaExists: true, Privileges: []string{"CREATE ANY TABLE", "SELECT ANY TABLE"}},
			missing: []string{"INSERT ANY TABLE", "ALTER ANY TABLE", "UPDATE ANY TABLE", "COMMENT ANY TABLE"},
			fixes:   []string{"GRANT INSERT ANY TABLE, ALTER ANY TABLE, UPDATE ANY TABLE, COMMENT ANY TABLE TO LOADER"},
			warn:    "cannot read the quota of STAGE on <its default tablespace>",
		},
		{
			name: "another schema: the privileges follow the settings",
			edit: func(c *config.Config) {
				c.LoadMethod, c.SchemaEvolution, c.ColumnComments, c.ProcessActivateVersionMessages = "append-only", "fail", false, false
				c.TruncateBeforeLoad, c.GrantSelectTo = true, []string{"REPORTING"}
				c.CustomIndexes = map[string][]config.CustomIndex{"s": {{Columns: []string{"a"}}}}
				c.StreamOverrides = []config.StreamOverride{{Pattern: "x*", LoadMethod: &upsertOnly}}
			},
			facts:   facts(server19, "STAGE"),
			access:  Access{User: "LOADER", Schema: "STAGE", SchemaExists: true, OwnerKnown: true, OwnerTablespace: "USERS", OwnerUnlimited: true},
			missing: []string{"CREATE ANY TABLE", "SELECT ANY TABLE", "INSERT ANY TABLE", "DROP ANY TABLE", "CREATE ANY INDEX", "GRANT ANY OBJECT PRIVILEGE"},
			fixes:   []string{"GRANT CREATE ANY TABLE, SELECT ANY TABLE, INSERT ANY TABLE, DROP ANY TABLE, CREATE ANY INDEX, GRANT ANY OBJECT PRIVILEGE TO LOADER"},
		},
		{
			name:  "another schema: hard deletes and overwrite need DELETE ANY TABLE; owner quota checked",
			edit:  func(c *config.Config) { c.HardDelete, c.ColumnComments = true, false },
			facts: facts(server19, "STAGE"),
			access: Access{User: "LOADER", Schema: "STAGE", SchemaExists: true, OwnerKnown: true, OwnerTablespace: "DATA",
				Privileges: []string{"CREATE ANY TABLE", "SELECT ANY TABLE", "INSERT ANY TABLE", "ALTER ANY TABLE", "UPDATE ANY TABLE"}},
			missing: []string{"DELETE ANY TABLE"},
			fixes:   []string{"GRANT DELETE ANY TABLE TO LOADER", "ALTER USER STAGE QUOTA UNLIMITED ON DATA"},
		},
		{
			name:   "missing schema",
			edit:   func(c *config.Config) { c.ColumnComments = false },
			facts:  facts(server19, "STAGE"),
			access: Access{User: "LOADER", Schema: "STAGE", Privileges: []string{"CREATE ANY TABLE", "SELECT ANY TABLE", "INSERT ANY TABLE", "ALTER ANY TABLE", "UPDATE ANY TABLE"}, UserTablespace: "USERS"},
			fixes:  []string{"CREATE USER STAGE NO AUTHENTICATION", "ALTER USER STAGE QUOTA UNLIMITED ON USERS"},
		},
		{
			name:    "names that need quotes",
			facts:   facts(server19, "app-user"),
			access:  Access{User: "app-user", Schema: "app-user", SchemaExists: true, UserTablespace: "USERS"},
			missing: []string{"CREATE TABLE"},
			fixes:   []string{`GRANT CREATE TABLE TO "app-user"`, `ALTER USER "app-user" QUOTA UNLIMITED ON USERS`},
		},
		{
			name: "a setting the server cannot honour fails the check",
			edit: func(c *config.Config) { c.BooleanType = "boolean" },
			facts: func() Facts {
				c := autoConfig()
				c.BooleanType = "boolean"
				return server19.Resolve(c)
			}(),
			access: Access{User: "LOADER", Schema: "LOADER", SchemaExists: true, Privileges: []string{"CREATE TABLE", "UNLIMITED TABLESPACE"}},
		},
		{
			name:   "unreadable server facts are warnings, not failures",
			facts:  facts(ServerInfo{Version: "23.0.0.0.0", Major: 23, IdentifierMaxBytes: 128, Warnings: []string{"V$PARAMETER is not readable"}, SessionUser: "APP", CurrentSchema: "APP"}, ""),
			access: Access{User: "APP", Schema: "APP", SchemaExists: true, Privileges: []string{"CREATE TABLE", "UNLIMITED TABLESPACE"}},
			ok:     true,
			warn:   "V$PARAMETER is not readable",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := loadConfig()
			if tt.edit != nil {
				tt.edit(cfg)
			}
			r := Evaluate(cfg, tt.facts, tt.access)
			if r.OK() != tt.ok {
				t.Errorf("OK() = %v, items:\n%s", r.OK(), dump(r))
			}
			if !reflect.DeepEqual(r.Missing, tt.missing) {
				t.Errorf("Missing = %q, want %q", r.Missing, tt.missing)
			}
			if strings.Join(r.Fixes, "\n") != strings.Join(tt.fixes, "\n") {
				t.Errorf("Fixes =\n%s\nwant\n%s", strings.Join(r.Fixes, "\n"), strings.Join(tt.fixes, "\n"))
			}
			if tt.warn != "" && !hasItem(r, Warn, tt.warn) {
				t.Errorf("no warning with %q:\n%s", tt.warn, dump(r))
			}
		})
	}
}

func hasItem(r Report, s Status, substr string) bool {
	for _, it := range r.Items {
		if it.Status == s && strings.Contains(it.Detail, substr) {
			return true
		}
	}
	return false
}

func dump(r Report) string {
	var b bytes.Buffer
	r.Write(&b)
	return b.String()
}

// TestCheck runs the catalog reads against the fake server and compares
// the printed report with a golden file.
func TestCheck(t *testing.T) {
	s := &fakeServer{rules: []rule{
		rows("FROM SESSION_PRIVS", 1, "CREATE SESSION", "CREATE ANY TABLE", "INSERT ANY TABLE", "SELECT ANY TABLE"),
		on("FROM USER_USERS", row("USERS")),
		rows("FROM USER_TS_QUOTAS", 3, "USERS", int64(0), float64(1.048576e6)),
		rows("FROM ALL_USERS", 1, "STAGE"),
		on("FROM DBA_USERS", row("DATA")),
		rows("FROM DBA_TS_QUOTAS", 3, "DATA", float64(2.097152e6), float64(2.097152e6)),
		rows("FROM DBA_SYS_PRIVS", 1),
	}}
	cfg := loadConfig()
	cfg.DefaultTargetSchema = "stage"
	f := server19.Resolve(cfg)
	r, err := Check(context.Background(), s.db(t), cfg, f)
	if err != nil {
		t.Fatal(err)
	}
	wantAccess := Access{User: "LOADER", Schema: "STAGE", SchemaExists: true,
		Privileges:     []string{"CREATE SESSION", "CREATE ANY TABLE", "INSERT ANY TABLE", "SELECT ANY TABLE"},
		UserTablespace: "USERS", UserQuotas: []Quota{{"USERS", 0, 1048576}},
		OwnerKnown: true, OwnerTablespace: "DATA", OwnerQuotas: []Quota{{"DATA", 2097152, 2097152}}}
	if !reflect.DeepEqual(r.Access, wantAccess) {
		t.Errorf("Access\n got %+v\nwant %+v", r.Access, wantAccess)
	}
	if r.OK() {
		t.Error("OK() with missing privileges and a full quota")
	}
	golden(t, "testdata/check_report.golden", dump(r))
}

// Without the DBA_ views the owner's quota is unknown: a warning.
func TestCheckOwnerQuotaUnreadable(t *testing.T) {
	s := &fakeServer{rules: []rule{
		rows("FROM SESSION_PRIVS", 1, "CREATE ANY TABLE", "INSERT ANY TABLE", "SELECT ANY TABLE", "ALTER ANY TABLE", "UPDATE ANY TABLE", "COMMENT ANY TABLE"),
		on("FROM USER_USERS", row("USERS")),
		rows("FROM USER_TS_QUOTAS", 3),
		rows("FROM ALL_USERS", 1, "STAGE"),
	}}
	cfg := loadConfig()
	cfg.DefaultTargetSchema = "STAGE"
	r, err := Check(context.Background(), s.db(t), cfg, server19.Resolve(cfg))
	if err != nil {
		t.Fatal(err)
	}
	if r.Access.OwnerKnown || !r.OK() || !hasItem(r, Warn, "cannot read the quota of STAGE") {
		t.Errorf("OwnerKnown %v OK %v\n%s", r.Access.OwnerKnown, r.OK(), dump(r))
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n%s", path, got)
	}
}

// An Autonomous Database is recognised from SYS_CONTEXT('USERENV',
// 'CLOUD_SERVICE'); --check reports it, says that parallel DML is turned
// off, and advises the _tp or _low service when the session uses _high or
// _medium. A database without CLOUD_SERVICE (ORA-02003 before 18c) is not
// one.
func TestCheckReportsAutonomousDatabase(t *testing.T) {
	base := []rule{
		on(qServer, row("ADMIN", "ADMIN", "19.0.0.0.0", "AL32UTF8", "AL16UTF16")),
		on(qProduct, row("Oracle Database 19c Enterprise Edition", "19.24.0.1.0")),
		rows(qParams, 2, "compatible", "19.0.0", "max_string_size", "EXTENDED"),
		on(qBind, row("4001")), // the driver binds 4001 bytes as VARCHAR
	}
	tests := []struct {
		name, cloud, service string
		err                  error
		info, warn           string // substrings; "" = none expected
	}{
		{name: "ATP on _high", cloud: "OLTP", service: "g1234_mydb_high.adb.oraclecloud.com",
			info: "Autonomous Database (workload OLTP), service g1234_mydb_high.adb.oraclecloud.com; every session runs ALTER SESSION DISABLE PARALLEL DML",
			warn: "for frequent loads connect to the _tp (Transaction Processing) or _low service"},
		{name: "ADW on _medium", cloud: "DWCS", service: "g1234_dw_medium.adb.oraclecloud.com", info: "workload DWCS", warn: "_medium service"},
		{name: "ATP on _tp", cloud: "OLTP", service: "g1234_mydb_tp.adb.oraclecloud.com", info: "Autonomous Database"},
		{name: "on-premises", service: "FREEPDB1"},
		{name: "12.2 has no CLOUD_SERVICE", err: ora(2003, "ORA-02003: invalid USERENV parameter")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cloud := on("'CLOUD_SERVICE'", row(nullable(tt.cloud), tt.service))
			if tt.err != nil {
				cloud = fails("'CLOUD_SERVICE'", tt.err)
			}
			s := &fakeServer{rules: append([]rule{cloud}, base...)}
			info, err := Probe(context.Background(), s.conn(t))
			if err != nil {
				t.Fatal(err)
			}
			if info.Autonomous() != (tt.cloud != "") || len(info.Warnings) > 0 {
				t.Errorf("Autonomous() = %v, warnings %q", info.Autonomous(), info.Warnings)
			}
			cfg := loadConfig()
			r := Evaluate(cfg, info.Resolve(cfg), Access{User: "ADMIN", Schema: "ADMIN", SchemaExists: true,
				Privileges: []string{"CREATE TABLE", "UNLIMITED TABLESPACE"}})
			report := dump(r)
			if (tt.info == "") == strings.Contains(report, "Autonomous Database") {
				t.Errorf("Autonomous Database line wrong:\n%s", report)
			}
			if tt.info != "" && !hasItem(r, Info, tt.info) {
				t.Errorf("no info line with %q:\n%s", tt.info, report)
			}
			if tt.warn != "" && !hasItem(r, Warn, tt.warn) {
				t.Errorf("no warning with %q:\n%s", tt.warn, report)
			}
			if tt.warn == "" && hasItem(r, Warn, "service") {
				t.Errorf("unexpected service warning:\n%s", report)
			}
			if !r.OK() {
				t.Errorf("an Autonomous Database service is advice, not a failure:\n%s", report)
			}
		})
	}
}

// nullable is a NULL column value for "".
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// --check states what partitioning and compression need, and fails on
// Standard Edition, which has neither option.
func TestEvaluateOptions(t *testing.T) {
	a := Access{User: "LOADER", Schema: "LOADER", SchemaExists: true, Privileges: []string{"CREATE SESSION", "CREATE TABLE", "UNLIMITED TABLESPACE"}, UserTablespace: "USERS"}
	for _, edition := range []string{"Enterprise Edition", "Standard Edition 2"} {
		c := loadConfig()
		c.Partitioning = config.Partitioning{Column: "_sdc_received_at", Interval: "day"}
		hcc := "archive_high"
		c.StreamOverrides = []config.StreamOverride{{Pattern: "x", Compression: &hcc}}
		s := server19
		s.Edition = edition
		r := Evaluate(c, facts(s, ""), a)
		var got []string
		for _, it := range r.Items {
			if it.Topic == "options" {
				got = append(got, it.Status.String()+": "+it.Detail)
			}
		}
		want := map[string]string{"Enterprise Edition": "warn", "Standard Edition 2": "FAIL"}[edition]
		if len(got) != 2 || !strings.HasPrefix(got[0], want+": partitioning") || !strings.Contains(got[0], "Partitioning option") ||
			!strings.HasPrefix(got[1], "warn: compression archive_high: Hybrid Columnar Compression") {
			t.Errorf("%s: options items %q", edition, got)
		}
	}
}
