package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// loadJSON writes each document to its own file in a temp dir and loads
// them in order, with env as the process environment.
func loadJSON(t *testing.T, env []string, docs ...string) (*Config, *Report, error) {
	t.Helper()
	dir := t.TempDir()
	var args []string
	for i, d := range docs {
		p := filepath.Join(dir, "config"+string(rune('0'+i))+".json")
		if err := os.WriteFile(p, []byte(d), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	return Load(Sources{ConfigArgs: args, Environ: env, WorkDir: dir})
}

func mustLoad(t *testing.T, env []string, docs ...string) (*Config, *Report) {
	t.Helper()
	c, r, err := loadJSON(t, env, docs...)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return c, r
}

// configError asserts that err is a *Error about key and returns its text.
func configError(t *testing.T, err error, key string) string {
	t.Helper()
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("error %v (%T) is not a *config.Error", err, err)
	}
	if key != "" && !strings.Contains(err.Error(), key) {
		t.Errorf("error %q does not name %q", err, key)
	}
	return err.Error()
}

func TestDefaults(t *testing.T) {
	c, r := mustLoad(t, nil, `{}`)
	if len(r.Warnings) != 0 || len(r.Effective) != 0 {
		t.Errorf("report = %+v, want empty", r)
	}
	want := Config{
		Host: "localhost", Port: 1521, Protocol: "tcp", SSLVerify: true, NetworkEncryption: "accepted",
		ConnectTimeoutSeconds: 30, SchemaMapping: map[string]string{}, TableNameMappings: map[string]string{},
		ColumnMappings: map[string]map[string]string{}, IgnoredColumns: map[string][]string{},
		IdentifierCase: "upper", IdentifierMaxBytes: "auto", ColumnOrdering: "schema", ColumnComments: true,
		StorageMode: "hybrid", FlatteningMaxDepth: 3, FlatteningSeparator: "__", JSONColumnName: "DATA",
		LoadMethod: "upsert", ProcessActivateVersionMessages: true, AddRecordMetadata: true,
		DeleteMissing: "none", DeleteMissingMaxFraction: 0.5, ValidateRecords: true, OnInvalidRecord: "fail", OnDatabaseError: "fail", RejectPath: "rejected-records.jsonl",
		BatchSizeRows: 10000, BatchSizeBytes: 33554432, MaxBufferedBytes: 134217728,
		BatchWaitLimitSeconds: 60, MaxParallelism: 4, SchemaEvolution: "widen", VarcharMaxBytes: "auto", MaxColumns: "auto",
		BooleanType: "auto", JSONType: "auto", TimestampType: "timestamp_tz", NationalCharacters: "auto",
		Compression: "none", GrantSelectTo: []string{}, CustomIndexes: map[string][]CustomIndex{}, DDLLockTimeoutSeconds: 60,
		StreamMaps: map[string]any{}, StreamMapConfig: map[string]any{}, LogLevel: "info", LogFormat: "text",
		MetricsIntervalSeconds: 60,
	}
	if !reflect.DeepEqual(*c, want) {
		t.Errorf("defaults:\n got %+v\nwant %+v", *c, want)
	}
}

// aliasCases covers every alias of the table and every value map;
// TestEveryAliasTested checks that.
var aliasCases = []struct {
	doc  string
	got  func(*Config) any
	want any
}{
	{`{"oracle_host":"db1"}`, func(c *Config) any { return c.Host }, "db1"},
	{`{"oracle_port":1522}`, func(c *Config) any { return c.Port }, 1522},
	{`{"oracle_service_name":"XEPDB1"}`, func(c *Config) any { return c.ServiceName }, "XEPDB1"},
	{`{"oracle_service":"svc"}`, func(c *Config) any { return c.ServiceName }, "svc"},
	{`{"database":"ORCL"}`, func(c *Config) any { return c.SID }, "ORCL"},
	{`{"username":"scott"}`, func(c *Config) any { return c.User }, "scott"},
	{`{"oracle_user":"scott"}`, func(c *Config) any { return c.User }, "scott"},
	{`{"oracle_password":"tiger"}`, func(c *Config) any { return c.Password.Reveal() }, "tiger"},
	{`{"sqlalchemy_url":"oracle+oracledb://u:p@h:1/ORCL"}`, func(c *Config) any { return c.SID }, "ORCL"},
	{`{"use_ssl":true}`, func(c *Config) any { return c.Protocol }, "tcps"},
	{`{"use_ssl":false}`, func(c *Config) any { return c.Protocol }, "tcp"},
	{`{"use_ssl":"yes"}`, func(c *Config) any { return c.Protocol }, "tcps"},
	// disable_dn_matching turns DN matching off, never chain verification.
	{`{"disable_dn_matching":true}`, tlsChecks, "dn_match=false verify=true"},
	{`{"disable_dn_matching":false}`, tlsChecks, "dn_match=true verify=true"},
	{`{"ssl_wallet_location":"/w"}`, func(c *Config) any { return c.WalletLocation }, "/w"},
	{`{"ssl_wallet_password":"wp"}`, func(c *Config) any { return c.WalletPassword.Reveal() }, "wp"},
	{`{"connection_timeout":5}`, func(c *Config) any { return c.ConnectTimeoutSeconds }, 5},
	{`{"schema":"TAP_X"}`, func(c *Config) any { return c.DefaultTargetSchema }, "TAP_X"},
	{`{"target_schema":"TAP_X"}`, func(c *Config) any { return c.DefaultTargetSchema }, "TAP_X"},
	{`{"max_flattening_depth":1}`, func(c *Config) any { return c.FlatteningMaxDepth }, 1},
	{`{"load_method":"INSERT"}`, func(c *Config) any { return c.LoadMethod }, "append-only"},
	{`{"load_method":"BULK_INSERT"}`, func(c *Config) any { return c.LoadMethod }, "append-only"},
	{`{"load_method":"append"}`, func(c *Config) any { return c.LoadMethod }, "append-only"},
	{`{"load_method":"MERGE"}`, func(c *Config) any { return c.LoadMethod }, "upsert"},
	{`{"load_method":"BULK_MERGE"}`, func(c *Config) any { return c.LoadMethod }, "upsert"},
	{`{"load_method":"merge"}`, func(c *Config) any { return c.LoadMethod }, "upsert"},
	{`{"sdc_mode":"insert"}`, func(c *Config) any { return c.LoadMethod }, "append-only"},
	{`{"sdc_mode":"append"}`, func(c *Config) any { return c.LoadMethod }, "append-only"},
	{`{"sdc_mode":"MERGE"}`, func(c *Config) any { return c.LoadMethod }, "upsert"},
	{`{"activate_version":false}`, func(c *Config) any { return c.ProcessActivateVersionMessages }, false},
	{`{"add_metadata_columns":false}`, func(c *Config) any { return c.AddRecordMetadata }, false},
	{`{"batch_size":500}`, func(c *Config) any { return c.BatchSizeRows }, 500},
	{`{"parallelism":8}`, func(c *Config) any { return c.MaxParallelism }, 8},
	{`{"parallelism":0}`, func(c *Config) any { return c.MaxParallelism }, 4},
	{`{"parallelism":-1}`, func(c *Config) any { return c.MaxParallelism }, 4},
	{`{"allow_alter_table":false}`, func(c *Config) any { return c.SchemaEvolution }, "fail"},
	{`{"allow_alter_table":true}`, func(c *Config) any { return c.SchemaEvolution }, "widen"},
	{`{"freeze_schema":true}`, func(c *Config) any { return c.SchemaEvolution }, "additive"},
	{`{"freeze_schema":false}`, func(c *Config) any { return c.SchemaEvolution }, "widen"},
	{`{"default_target_schema_select_permissions":"r1"}`, func(c *Config) any { return c.GrantSelectTo }, []string{"r1"}},
	{`{"default_target_schema_select_permissions":["a","b"]}`, func(c *Config) any { return c.GrantSelectTo }, []string{"a", "b"}},
	{`{"column_ordering":""}`, func(c *Config) any { return c.ColumnOrdering }, "schema"},
	{`{"log_level":"WARNING"}`, func(c *Config) any { return c.LogLevel }, "warn"},
	{`{"flattening_enabled":true}`, func(c *Config) any { return c.StorageMode }, "flattened"},
}

func TestAliases(t *testing.T) {
	for _, tc := range aliasCases {
		t.Run(tc.doc, func(t *testing.T) {
			c, r := mustLoad(t, nil, tc.doc)
			if got := tc.got(c); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
			if len(r.Effective) == 0 {
				t.Errorf("no effective-value line reported for an alias")
			}
			if w := withoutFlextNotice(r.Warnings); len(w) != 0 {
				t.Errorf("warnings: %q", w)
			}
		})
	}
}

// withoutFlextNotice drops the notice about flext's defaults that an
// oracle_* name draws (TestFlextDefaults).
func withoutFlextNotice(ws []string) []string {
	var out []string
	for _, w := range ws {
		if !strings.HasPrefix(w, flextNotice) {
			out = append(out, w)
		}
	}
	return out
}

func TestEveryAliasTested(t *testing.T) {
	var docs strings.Builder
	for _, tc := range aliasCases {
		docs.WriteString(tc.doc)
	}
	for _, s := range Settings() {
		for _, a := range s.Aliases {
			if !strings.Contains(docs.String(), `"`+a.Name+`"`) {
				t.Errorf("alias %s of %s has no case in aliasCases", a.Name, s.Name)
			}
			all := strings.ToLower(docs.String())
			for _, v := range a.Values {
				from := strings.ToLower(v.From)
				if !strings.Contains(all, `"`+a.Name+`":`+from) && !strings.Contains(all, `"`+a.Name+`":"`+from+`"`) {
					t.Errorf("value map %s: %s untested", a.Name, v.From)
				}
			}
		}
		for _, v := range s.ValueAliases {
			if v.From != "" && !strings.Contains(strings.ToLower(docs.String()), strings.ToLower(`"`+v.From+`"`)) {
				t.Errorf("value alias %q of %s has no case", v.From, s.Name)
			}
		}
	}
}

func TestEffectiveReport(t *testing.T) {
	_, r := mustLoad(t, nil, `{"use_ssl":true,"oracle_password":"pw-123456","host":"h"}`)
	want := []string{
		`protocol = "tcps" (given as use_ssl = true in `,
		`password = **redacted** (given as oracle_password in `,
	}
	for _, w := range want {
		if !slices.ContainsFunc(r.Effective, func(s string) bool { return strings.HasPrefix(s, w) }) {
			t.Errorf("Effective %q lacks %q", r.Effective, w)
		}
	}
	if len(r.Effective) != 2 {
		t.Errorf("Effective has %d lines, want 2 (host is canonical): %q", len(r.Effective), r.Effective)
	}
}

func TestPrecedence(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	f1 := write("a.json", `{"batch_size_rows":1,"port":1001,"host":"a","log_level":"debug","table_prefix":"P1_"}`)
	f2 := write("b.json", `{"batch_size_rows":2,"port":1002,"host":"b"}`)
	write(".env", "TARGET_ORACLE_BATCH_SIZE_ROWS=3\nTARGET_ORACLE_PORT=1003\n")
	env := []string{"TARGET_ORACLE_BATCH_SIZE_ROWS=4", "PATH=/bin"}

	cases := []struct {
		name            string
		args            []string
		batch, port     int
		host, logLevel  string
		wantTablePrefix string
	}{
		{"files env and .env", []string{f1, f2, "ENV"}, 4, 1003, "b", "debug", "P1_"},
		{"ENV position does not matter", []string{"ENV", f1, f2}, 4, 1003, "b", "debug", "P1_"},
		{"no ENV: .env not read, env still applies", []string{f1, f2}, 4, 1002, "b", "debug", "P1_"},
		{"right file wins", []string{f2, f1}, 4, 1001, "a", "debug", "P1_"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, _, err := Load(Sources{ConfigArgs: tc.args, Environ: env, WorkDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			got := []any{c.BatchSizeRows, c.Port, c.Host, c.LogLevel, c.TablePrefix}
			want := []any{tc.batch, tc.port, tc.host, tc.logLevel, tc.wantTablePrefix}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

func TestEnvParsing(t *testing.T) {
	cases := []struct {
		env  string
		got  func(*Config) any
		want any
	}{
		{"TARGET_ORACLE_PORT=1600", func(c *Config) any { return c.Port }, 1600},
		{"TARGET_ORACLE_MAX_BUFFERED_BYTES=1099511627776", func(c *Config) any { return c.MaxBufferedBytes }, int64(1 << 40)},
		{"TARGET_ORACLE_HARD_DELETE=true", func(c *Config) any { return c.HardDelete }, true},
		{"TARGET_ORACLE_DELETE_MISSING=SOFT", func(c *Config) any { return c.DeleteMissing }, "soft"},
		{"TARGET_ORACLE_DELETE_MISSING_MAX_FRACTION=0.25", func(c *Config) any { return c.DeleteMissingMaxFraction }, 0.25},
		{"TARGET_ORACLE_DELETE_MISSING_MAX_FRACTION=1", func(c *Config) any { return c.DeleteMissingMaxFraction }, 1.0},
		{"TARGET_ORACLE_HARD_DELETE=1", func(c *Config) any { return c.HardDelete }, true},
		{"TARGET_ORACLE_HARD_DELETE=yes", func(c *Config) any { return c.HardDelete }, true},
		{"TARGET_ORACLE_HARD_DELETE=ON", func(c *Config) any { return c.HardDelete }, true},
		{"TARGET_ORACLE_VALIDATE_RECORDS=false", func(c *Config) any { return c.ValidateRecords }, false},
		{"TARGET_ORACLE_VALIDATE_RECORDS=0", func(c *Config) any { return c.ValidateRecords }, false},
		{"TARGET_ORACLE_VALIDATE_RECORDS=no", func(c *Config) any { return c.ValidateRecords }, false},
		{"TARGET_ORACLE_VALIDATE_RECORDS=off", func(c *Config) any { return c.ValidateRecords }, false},
		{"TARGET_ORACLE_VALIDATE_RECORDS=", func(c *Config) any { return c.ValidateRecords }, true},
		{`TARGET_ORACLE_GRANT_SELECT_TO=["R1","R2"]`, func(c *Config) any { return c.GrantSelectTo }, []string{"R1", "R2"}},
		{"TARGET_ORACLE_GRANT_SELECT_TO=R1, R2", func(c *Config) any { return c.GrantSelectTo }, []string{"R1", "R2"}},
		{"TARGET_ORACLE_IGNORED_COLUMNS=a.b,c", func(c *Config) any { return c.IgnoredColumns }, map[string][]string{"*": {"a.b", "c"}}},
		{`TARGET_ORACLE_TABLE_NAME_MAPPINGS={"s":"T"}`, func(c *Config) any { return c.TableNameMappings }, map[string]string{"s": "T"}},
		{`TARGET_ORACLE_STREAM_MAP_CONFIG={"k":[1]}`, func(c *Config) any { return len(c.StreamMapConfig["k"].([]any)) }, 1},
		{"TARGET_ORACLE_STORAGE_MODE=JSON", func(c *Config) any { return c.StorageMode }, "json"},
		{"TARGET_ORACLE_PASSWORD=pw", func(c *Config) any { return c.Password.Reveal() }, "pw"},
		{"TARGET_ORACLE_TABLE_PREFIX=", func(c *Config) any { return c.TablePrefix }, ""},
		{"TARGET_ORACLE_USE_SSL=1", func(c *Config) any { return c.Protocol }, "tcps"},
		{"TARGET_ORACLE_SQLALCHEMY_URL=oracle://u:p@h:1521/ORCL", func(c *Config) any { return c.SID }, "ORCL"},
	}
	for _, tc := range cases {
		t.Run(tc.env, func(t *testing.T) {
			c, r := mustLoad(t, []string{tc.env})
			if got := tc.got(c); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
			if len(r.Warnings) != 0 {
				t.Errorf("warnings %q", r.Warnings)
			}
		})
	}
}

func TestEnvErrorsAndWarnings(t *testing.T) {
	_, _, err := loadJSON(t, []string{"TARGET_ORACLE_PORT=abc"})
	msg := configError(t, err, "TARGET_ORACLE_PORT")
	if !strings.Contains(msg, "expected an integer from 1 to 65535") {
		t.Errorf("error %q does not say what was expected", msg)
	}
	_, _, err = loadJSON(t, []string{"TARGET_ORACLE_STREAM_MAPS=[1]"})
	configError(t, err, "TARGET_ORACLE_STREAM_MAPS")

	_, r := mustLoad(t, []string{"TARGET_ORACLE_HOTS=x", "TARGET_ORACLE_COMMIT_INTERVAL=5", "ORACLE_HOME=/x"})
	want := [][]string{
		{"TARGET_ORACLE_COMMIT_INTERVAL", "flext-target-oracle", "does not apply"},
		{`"TARGET_ORACLE_HOTS"`, `closest known setting: "TARGET_ORACLE_HOST"`},
	}
	if len(r.Warnings) != len(want) {
		t.Fatalf("warnings = %q", r.Warnings)
	}
	for i, ws := range want {
		for _, w := range ws {
			if !strings.Contains(r.Warnings[i], w) {
				t.Errorf("warning %q lacks %q", r.Warnings[i], w)
			}
		}
	}
}

func TestDotEnv(t *testing.T) {
	dir := t.TempDir()
	content := "# comment\n\nexport TARGET_ORACLE_HOST=h1 # trailing comment\n" +
		"TARGET_ORACLE_PASSWORD=\"p w\\\"x\" # c\nTARGET_ORACLE_TABLE_PREFIX='a#b'\nOTHER=1\n"
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	c, r, err := Load(Sources{ConfigArgs: []string{"ENV"}, WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	got := []string{c.Host, c.Password.Reveal(), c.TablePrefix}
	want := []string{"h1", `p w"x`, "a#b"}
	if !reflect.DeepEqual(got, want) || len(r.Warnings) != 0 {
		t.Errorf("got %q (warnings %q), want %q", got, r.Warnings, want)
	}

	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("TARGET_ORACLE_PASSWORD=\"s3cretvalue\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err = Load(Sources{ConfigArgs: []string{"ENV"}, WorkDir: dir})
	msg := configError(t, err, "line 1")
	if strings.Contains(msg, "s3cretvalue") {
		t.Errorf("error leaks the value: %q", msg)
	}

	// No .env file is not an error.
	if _, _, err := Load(Sources{ConfigArgs: []string{"ENV"}, WorkDir: t.TempDir()}); err != nil {
		t.Errorf("missing .env: %v", err)
	}
}

// A .env file as Meltano writes it (`meltano config set` of a secret,
// through python-dotenv: KEY='value' with a ' escaped as \') and as
// python-dotenv reads it: a Windows path in double quotes keeps its
// backslashes, a quoted PEM key spans lines, and lines after it are
// counted right in errors; a key alone (another tool's flag) sets
// nothing. Each value is the one python-dotenv reads.
func TestDotEnvAsPythonDotenv(t *testing.T) {
	dir := t.TempDir()
	content := "OTHER_TOOL_FLAG\nexport TARGET_ORACLE_TABLE_SUFFIX # a key alone sets nothing\n" +
		"TARGET_ORACLE_PASSWORD='it\\'s'\n" +
		"TARGET_ORACLE_WALLET_LOCATION=\"C:\\wallets\\db1 x\"\n" +
		"TARGET_ORACLE_SSH_TUNNEL_PRIVATE_KEY='-----BEGIN KEY-----\nabc\n-----END KEY-----'\n" +
		"  export TARGET_ORACLE_HOST = h1\t# c\n" +
		"TARGET_ORACLE_USER='a\\\\b' # c\n" +
		"TARGET_ORACLE_TABLE_PREFIX=\"p\\\"q\\tr\"\r\n"
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	c, r, err := Load(Sources{ConfigArgs: []string{"ENV"}, WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	got := []string{c.Password.Reveal(), c.WalletLocation, c.SSHTunnel.PrivateKey.Reveal(), c.Host, c.User, c.TablePrefix, c.TableSuffix}
	want := []string{"it's", `C:\wallets\db1 x`, "-----BEGIN KEY-----\nabc\n-----END KEY-----", "h1", `a\b`, "p\"q\tr", ""}
	if !reflect.DeepEqual(got, want) || len(r.Warnings) != 0 {
		t.Errorf("got %q (warnings %q), want %q", got, r.Warnings, want)
	}
	bad := "TARGET_ORACLE_SSH_TUNNEL_PRIVATE_KEY='-----BEGIN KEY-----\nabc\n-----END KEY-----'\nTARGET_ORACLE_HOST='h' x\n"
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err = Load(Sources{ConfigArgs: []string{"ENV"}, WorkDir: dir})
	configError(t, err, "line 4: TARGET_ORACLE_HOST: unexpected text after the quoted value")
}

func TestFlextNesting(t *testing.T) {
	doc := `{"TargetOracle": {
		"oracle_host": "h", "oracle_port": 1522, "oracle_service_name": "XEPDB1",
		"oracle_user": "u", "oracle_password": "p", "default_target_schema": "SINGER_DATA",
		"batch_size": 500, "load_method": "BULK_MERGE", "sdc_mode": "merge", "storage_mode": "flattened",
		"column_ordering": "", "ignored_columns": ["x"],
		"column_mappings": "{\"s\": {\"a\": \"COL_A\"}}",
		"custom_indexes": "{\"s\": [{\"index_name\": \"IX_S\", \"columns\": [\"a\", \"b\"], \"unique\": true}, {\"columns\": \"c\"}]}",
		"commit_interval": 100, "use_bulk_operations": true, "column_order_rules": {}
	}}`
	c, r := mustLoad(t, nil, doc)
	got := []any{c.Host, c.Port, c.ServiceName, c.User, c.Password.Reveal(), c.DefaultTargetSchema,
		c.BatchSizeRows, c.LoadMethod, c.StorageMode, c.ColumnOrdering, c.IgnoredColumns, c.ColumnMappings, c.CustomIndexes}
	want := []any{"h", 1522, "XEPDB1", "u", "p", "SINGER_DATA", 500, "upsert", "flattened", "schema",
		map[string][]string{"*": {"x"}},
		map[string]map[string]string{"s": {"a": "COL_A"}},
		map[string][]CustomIndex{"s": {{Name: "IX_S", Columns: []string{"a", "b"}, Unique: true}, {Columns: []string{"c"}}}},
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("field %d: got %#v, want %#v", i, got[i], want[i])
		}
	}
	for _, key := range []string{"commit_interval", "use_bulk_operations", "column_order_rules"} {
		if !slices.ContainsFunc(r.Warnings, func(w string) bool {
			return strings.Contains(w, key) && strings.Contains(w, "does not apply")
		}) {
			t.Errorf("no not-applicable warning for %s in %q", key, r.Warnings)
		}
	}
}

func TestSQLAlchemyURL(t *testing.T) {
	type conn struct {
		Host         string
		Port         int
		SID, Service string
		User, Pass   string
		DSN          string
	}
	cases := []struct {
		doc  string
		want conn
	}{
		{`{"sqlalchemy_url":"oracle+cx_oracle://u:p%40ss@h:1522/ORCL"}`, conn{"h", 1522, "ORCL", "", "u", "p@ss", ""}},
		{`{"sqlalchemy_url":"oracle+oracledb://u:p@h/?service_name=svc.example"}`, conn{"h", 1521, "", "svc.example", "u", "p", ""}},
		{`{"sqlalchemy_url":"oracle://u:p@h:1521/X"}`, conn{"h", 1521, "X", "", "u", "p", ""}},
		{`{"sqlalchemy_url":"oracle+oracledb://u:p@tnsalias"}`, conn{"localhost", 1521, "", "", "u", "p", "tnsalias"}},
		{`{"sqlalchemy_url":"oracle+oracledb://u:p@h:1/S","user":"me","password":"mine"}`, conn{"h", 1, "S", "", "me", "mine", ""}},
		{`{"sqlalchemy_url":"oracle+oracledb://h/S","service_name":"old"}`, conn{"h", 1521, "S", "", "", "", ""}},
		{`{"dsn":"oracle+oracledb://u:p@h/S"}`, conn{"h", 1521, "S", "", "u", "p", ""}},
		{`{"host":"h","database":"ORCL","username":"u","password":"p"}`, conn{"h", 1521, "ORCL", "", "u", "p", ""}},
	}
	for _, tc := range cases {
		t.Run(tc.doc, func(t *testing.T) {
			c, _ := mustLoad(t, nil, tc.doc)
			got := conn{c.Host, c.Port, c.SID, c.ServiceName, c.User, c.Password.Reveal(), c.DSN.Reveal()}
			if got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// A dsn (or sqlalchemy_url) overrides host, port, service_name and sid
// (SPEC §3): given besides it, they are named in a warning, not ignored
// in silence, and so are the parameters of a SQLAlchemy URL that nothing
// reads (python-oracledb's connect arguments), by name only. A dsn alone,
// or a URL with only service_name, draws no warning.
// Configs written for MeltanoLabs target-postgres (the SDK target that
// sets the conventions) and for the PipelineWise targets load: each of
// their settings is honoured or warned about as not applicable, naming
// the peer and what to use instead, never as an "unknown setting" whose
// closest name is a guess (SPEC §3).
func TestPeerTargetConfigs(t *testing.T) {
	for _, doc := range []string{
		`{"host":"db","port":5432,"user":"u","password":"p","database":"ORCL","default_target_schema":"s",
		  "dialect+driver":"postgresql+psycopg","use_copy":true,"sanitize_null_text_characters":false,
		  "ssl_enable":true,"ssl_mode":"verify-full","ssl_certificate_authority":"~/.postgresql/root.crl",
		  "ssl_client_certificate_enable":false,"ssl_client_certificate":"c","ssl_client_private_key":"k",
		  "ssl_storage_directory":".secrets","activate_version":true,"hard_delete":false,
		  "interpret_content_encoding":false,"add_record_metadata":true,"validate_records":true,
		  "batch_size_rows":1000,"load_method":"append-only","stream_maps":{},"stream_map_config":{}}`,
		`{"host":"db","port":1521,"user":"u","password":"p","default_target_schema":"s",
		  "default_target_schema_select_permissions":["r"],"schema_mapping":{},"batch_size_rows":1000,
		  "flush_all_streams":false,"parallelism":0,"parallelism_max":4,"add_metadata_columns":true,
		  "hard_delete":false,"data_flattening_max_level":2,"primary_key_required":true,
		  "validate_records":false,"temp_dir":"/tmp","disable_table_cache":false}`,
	} {
		_, r := mustLoad(t, nil, doc)
		for _, w := range r.Warnings {
			if !strings.Contains(w, "does not apply to target-oracle") {
				t.Errorf("warning %q: want only not-applicable warnings", w)
			}
		}
	}
}

func TestDSNOverridesAreWarned(t *testing.T) {
	for _, tc := range []struct {
		env  []string
		doc  string
		want []string // substrings of one warning each; none: no warning
	}{
		{nil, `{"sqlalchemy_url":"oracle+oracledb://u:p@db:1521/?service_name=X","host":"other","sid":"Z"}`,
			[]string{`sqlalchemy_url overrides host, port, service_name and sid; ignored: host, sid`}},
		{[]string{"TARGET_ORACLE_PORT=1522"}, `{"dsn":"db:1521/X"}`,
			[]string{`dsn overrides host, port, service_name and sid; ignored: TARGET_ORACLE_PORT (in environment)`}},
		{nil, `{"sqlalchemy_url":"oracle+oracledb://u:p@db/?service_name=X&expire_time=5&protocol=tcps&password=s3cret"}`,
			[]string{`URL parameters other than service_name are not used and are ignored: "expire_time", "password", "protocol"`}},
		{nil, `{"sqlalchemy_url":"oracle+oracledb://u:p@db/?service_name=X"}`, nil},
		{nil, `{"dsn":"db:1521/X","user":"u"}`, nil},
	} {
		_, r := mustLoad(t, tc.env, tc.doc)
		if len(r.Warnings) != len(tc.want) {
			t.Errorf("%s: warnings %q, want %d", tc.doc, r.Warnings, len(tc.want))
			continue
		}
		for i, w := range tc.want {
			if !strings.Contains(r.Warnings[i], w) || strings.Contains(r.Warnings[i], "s3cret") {
				t.Errorf("%s: warning %q, want %q (and no secret)", tc.doc, r.Warnings[i], w)
			}
		}
	}
}

func TestSQLAlchemyURLErrors(t *testing.T) {
	const pw = "Sup3rS3cretPw"
	cases := []string{
		`{"sqlalchemy_url":"postgresql://u:` + pw + `@h/db"}`,
		`{"sqlalchemy_url":"oracle+oracledb://u:` + pw + `@h/ORCL?service_name=svc"}`,
		`{"sqlalchemy_url":"oracle+oracledb://u:` + pw + `@h:99999/ORCL"}`,
		`{"sqlalchemy_url":"oracle+oracledb://u:` + pw + `%zz@h/ORCL"}`,
		`{"sqlalchemy_url":"oracle+oracledb://u:` + pw + `@/ORCL"}`,
	}
	for _, doc := range cases {
		_, _, err := loadJSON(t, nil, doc)
		if err == nil {
			t.Errorf("%s: no error", doc)
			continue
		}
		if msg := configError(t, err, "sqlalchemy_url"); strings.Contains(msg, pw) {
			t.Errorf("error leaks the password: %q", msg)
		}
	}
}

func TestDSNWithUser(t *testing.T) {
	c, _ := mustLoad(t, nil, `{"dsn":"oracle://u:pw@db.example:1521/svc"}`)
	if c.User != "u" || c.Password.Reveal() != "pw" || c.DSN.Reveal() != "oracle://u:pw@db.example:1521/svc" {
		t.Errorf("user %q password %q dsn kept %v", c.User, c.Password.Reveal(), c.DSN.Reveal())
	}
	if err := c.CheckConnection(); err != nil {
		t.Errorf("CheckConnection: %v", err)
	}
}

func TestCheckConnection(t *testing.T) {
	cases := []struct {
		doc     string
		missing []string // substrings of the error; nil = no error
	}{
		{`{"user":"u","password":"p","service_name":"s"}`, nil},
		{`{"user":"u","password":"p","sid":"s"}`, nil},
		{`{"user":"u","wallet_location":"/w","dsn":"alias"}`, nil},
		{`{}`, []string{"user", "password", "service_name or sid"}},
		{`{"dsn":"(DESCRIPTION=(ADDRESS=(HOST=h)))","password":"p"}`, []string{"user"}},
		{`{"user":"u","password":"p","host":"","service_name":"s"}`, []string{"host"}},
	}
	for _, tc := range cases {
		c, _ := mustLoad(t, nil, tc.doc)
		err := c.CheckConnection()
		if tc.missing == nil {
			if err != nil {
				t.Errorf("%s: %v", tc.doc, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: no error", tc.doc)
			continue
		}
		for _, m := range tc.missing {
			configError(t, err, m)
		}
	}
}

func TestUnknownKeyWarning(t *testing.T) {
	_, r := mustLoad(t, nil, `{"pasword":"hunter2-secret","batch_size_row":5,"flattening_max_key_length":10}`)
	if len(r.Warnings) != 3 {
		t.Fatalf("warnings = %q", r.Warnings)
	}
	wants := [][]string{
		{`"pasword"`, `"password"`},
		{`"batch_size_row"`, `"batch_size_rows"`},
		{"flattening_max_key_length", "Singer SDK", "does not apply"},
	}
	for i, want := range wants {
		for _, w := range want {
			if !strings.Contains(r.Warnings[i], w) {
				t.Errorf("warning %q lacks %q", r.Warnings[i], w)
			}
		}
		if strings.Contains(r.Warnings[i], "hunter2") {
			t.Errorf("warning leaks a value: %q", r.Warnings[i])
		}
	}
}

func TestWrongValue(t *testing.T) {
	cases := []struct{ doc, key, expect string }{
		{`{"port":"abc"}`, "port", "integer from 1 to 65535"},
		{`{"port":70000}`, "port", "integer from 1 to 65535"},
		{`{"port":15.5}`, "port", "integer"},
		{`{"oracle_port":true}`, "oracle_port", "integer"},
		{`{"batch_size_rows":0}`, "batch_size_rows", "from 1"},
		{`{"max_parallelism":65}`, "max_parallelism", "from 1 to 64"},
		{`{"ssl_verify":"maybe"}`, "ssl_verify", "true or false"},
		{`{"use_ssl":"maybe"}`, "use_ssl", "true or false"},
		{`{"load_method":"sideways"}`, "load_method", `"upsert", "append-only", "overwrite"`},
		{`{"sdc_mode":"sideways"}`, "sdc_mode", `expected one of`},
		{`{"host":["a"]}`, "host", "expected a string"},
		{`{"password":{"x":1}}`, "password", "expected a string"},
		{`{"grant_select_to":5}`, "grant_select_to", "array of strings"},
		{`{"column_mappings":5}`, "column_mappings", "expected an object"},
		{`{"column_mappings":{"s":{"a":1}}}`, "column_mappings", `property "a"`},
		{`{"table_name_mappings":{"s":1}}`, "table_name_mappings", `stream "s"`},
		{`{"ignored_columns":{"s":[1]}}`, "ignored_columns", `stream "s"`},
		{`{"stream_overrides":{"s":{"foo":1}}}`, "stream_overrides", `"foo" cannot be set per stream`},
		{`{"stream_overrides":{"s":{"batch_size_rows":0}}}`, "stream_overrides", `from 1`},
		{`{"custom_indexes":{"s":[{"columns":[]}]}}`, "custom_indexes", "columns"},
		{`{"custom_indexes":{"s":[{"columns":["a"],"where":"x"}]}}`, "custom_indexes", `unknown key "where"`},
		{`{"flattening_separator":""}`, "flattening_separator", "non-empty"},
		{`{"identifier_max_bytes":64}`, "identifier_max_bytes", `"auto", "30", "128"`},
		{`{"TargetOracle":5}`, "TargetOracle", "expected an object"},
		{`[1]`, "", "top level"},
		{`{"host":`, "", "invalid JSON"},
		{"{\n\"host\": \"a\",\n}", "", "line 3"},
		{`{} {}`, "", "after the top-level value"},
	}
	for _, tc := range cases {
		t.Run(tc.doc, func(t *testing.T) {
			_, _, err := loadJSON(t, nil, tc.doc)
			if err == nil {
				t.Fatal("no error")
			}
			if msg := configError(t, err, tc.key); !strings.Contains(msg, tc.expect) {
				t.Errorf("error %q does not say %q", msg, tc.expect)
			}
		})
	}
}

func TestAcceptedValues(t *testing.T) {
	c, _ := mustLoad(t, nil, `{"identifier_max_bytes":30,"varchar_max_bytes":"32767","port":"1600","batch_size_rows":1e3,
		"hard_delete":"true","storage_mode":"JSON","ignored_columns":{"s":["a"],"t":"b,c"}}`)
	got := []any{c.IdentifierMaxBytes, c.VarcharMaxBytes, c.Port, c.BatchSizeRows, c.HardDelete, c.StorageMode, c.IgnoredColumns}
	want := []any{"30", "32767", 1600, 1000, true, "json", map[string][]string{"s": {"a"}, "t": {"b", "c"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestConflicts(t *testing.T) {
	cases := []struct {
		docs   []string
		errKey string // "" = no error
	}{
		{[]string{`{"flattening_enabled":true,"storage_mode":"json"}`}, "storage_mode"},
		{[]string{`{"flattening_enabled":true}`, `{"storage_mode":"json"}`}, "storage_mode"},
		{[]string{`{"sdc_mode":"merge","SDC_MODE":"insert"}`}, "sdc_mode"},
		{[]string{`{"host":"a","oracle_host":"b"}`}, "oracle_host"},
		{[]string{`{"host":"a","host":"b"}`}, "host is given twice"},
		{[]string{`{"host":"a","TargetOracle":{"oracle_host":"b"}}`}, "oracle_host"},
		{[]string{`{"HOST":"a","host":"b"}`}, "HOST and host both set host"},
		{[]string{`{"use_ssl":true,"protocol":"tcp"}`}, "protocol"},
		{[]string{`{"host":"a","oracle_host":"a"}`}, ""},
		{[]string{`{"load_method":"MERGE","sdc_mode":"merge"}`}, ""},
		{[]string{`{"host":"a"}`, `{"oracle_host":"b"}`}, ""},
		{[]string{`{"flattening_enabled":true,"storage_mode":"flattened"}`}, ""},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.docs, " "), func(t *testing.T) {
			_, _, err := loadJSON(t, nil, tc.docs...)
			if tc.errKey == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			configError(t, err, tc.errKey)
		})
	}
	_, _, err := loadJSON(t, []string{"TARGET_ORACLE_HOST=a", "TARGET_ORACLE_ORACLE_HOST=b"})
	configError(t, err, "TARGET_ORACLE_ORACLE_HOST")
}

func TestSeveralErrorsJoined(t *testing.T) {
	_, _, err := loadJSON(t, nil, `{"port":"x","max_parallelism":0}`)
	msg := configError(t, err, "port")
	if !strings.Contains(msg, "max_parallelism") {
		t.Errorf("second error missing: %q", msg)
	}
}

func TestMissingFile(t *testing.T) {
	_, _, err := Load(Sources{ConfigArgs: []string{filepath.Join(t.TempDir(), "nope.json")}})
	configError(t, err, "nope.json")
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("error %v does not wrap os.ErrNotExist", err)
	}
}

func TestTNSAdminDefault(t *testing.T) {
	c, _ := mustLoad(t, []string{"TNS_ADMIN=/etc/tns"}, `{"wallet_location":"/w"}`)
	if c.TNSAdmin != "/etc/tns" {
		t.Errorf("TNSAdmin = %q, want $TNS_ADMIN", c.TNSAdmin)
	}
	c, _ = mustLoad(t, nil, `{"wallet_location":"/w"}`)
	if c.TNSAdmin != "/w" {
		t.Errorf("TNSAdmin = %q, want wallet_location", c.TNSAdmin)
	}
	c, _ = mustLoad(t, []string{"TNS_ADMIN=/etc/tns"}, `{"tns_admin":"/t"}`)
	if c.TNSAdmin != "/t" {
		t.Errorf("TNSAdmin = %q, want the setting", c.TNSAdmin)
	}
}

func TestTestVariablesAreNotSettings(t *testing.T) {
	_, rep, err := Load(Sources{Environ: []string{"TARGET_ORACLE_TEST_DSN=oracle://u:p@h:1521/s", "TARGET_ORACLE_TEST_NOW=2025-01-01T00:00:00Z"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Warnings) != 0 {
		t.Fatalf("warnings for reserved test variables: %q", rep.Warnings)
	}
}

// ssl_server_dn_match given or not: absent, the descriptor's choice applies.
func TestTLSSettings(t *testing.T) {
	for doc, want := range map[string]string{
		`{}`:                             "dn_match=unset verify=true",
		`{"ssl_server_dn_match":false}`:  "dn_match=false verify=true",
		`{"ssl_server_dn_match":"true"}`: "dn_match=true verify=true",
		`{"ssl_verify":false}`:           "dn_match=unset verify=false",
	} {
		c, _ := mustLoad(t, nil, doc)
		if got := tlsChecks(c); got != want {
			t.Errorf("%s: %s, want %s", doc, got, want)
		}
	}
	c, _ := mustLoad(t, nil, `{"ssl_server_cert_dn":"CN=db, O=Example"}`)
	if c.SSLServerCertDN != "CN=db, O=Example" {
		t.Errorf("ssl_server_cert_dn = %q", c.SSLServerCertDN)
	}
}

// tlsChecks shows ssl_server_dn_match ("unset" when not given) and ssl_verify.
func tlsChecks(c *Config) any {
	m := "unset"
	if c.SSLServerDNMatch != nil {
		m = fmt.Sprint(*c.SSLServerDNMatch)
	}
	return fmt.Sprintf("dn_match=%s verify=%v", m, c.SSLVerify)
}

// JSON null is "not set" (the SDK targets declare optional settings
// ["<type>", "null"]; generated configs write "ssh_tunnel": null): the
// default applies, and a later source still sets the value.
func TestNullMeansNotSet(t *testing.T) {
	c, _ := mustLoad(t, nil, `{"host":"db","service_name":"x","user":"u","password":null,`+
		`"default_target_schema":null,"batch_size_rows":null,"ssh_tunnel":null,"ssh_tunnel.host":null,`+
		`"stream_maps":null,"validate_records":null}`)
	if c.BatchSizeRows != 10000 || c.DefaultTargetSchema != "" || !c.ValidateRecords || c.SSHTunnel.Enable {
		t.Fatalf("null settings did not take their defaults: batch_size_rows %d, default_target_schema %q, validate_records %v, ssh_tunnel %+v",
			c.BatchSizeRows, c.DefaultTargetSchema, c.ValidateRecords, c.SSHTunnel)
	}
	c, _ = mustLoad(t, []string{"TARGET_ORACLE_BATCH_SIZE_ROWS=7"}, `{"batch_size_rows":null}`)
	if c.BatchSizeRows != 7 {
		t.Fatalf("batch_size_rows = %d, want 7 from the environment over a null in the file", c.BatchSizeRows)
	}
	c, _ = mustLoad(t, nil, `{"batch_size_rows":null}`, `{"batch_size_rows":5}`)
	if c.BatchSizeRows != 5 {
		t.Fatalf("batch_size_rows = %d, want 5 from the second file", c.BatchSizeRows)
	}
}
