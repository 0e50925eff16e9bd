package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withMaxFileBytes lowers the config and .env size cap for one test.
func withMaxFileBytes(t *testing.T, n int64) {
	t.Helper()
	old := maxFileBytes
	maxFileBytes = n
	t.Cleanup(func() { maxFileBytes = old })
}

func TestConfigFileSizeCap(t *testing.T) {
	withMaxFileBytes(t, 64)
	dir := t.TempDir()
	atCap := `{"host":"h"` + strings.Repeat(" ", 64-len(`{"host":"h"}`)) + `}`
	overCap := atCap + " "
	cases := []struct {
		name, doc string
		ok        bool
	}{
		{"at the cap", atCap, true},
		{"one byte over", overCap, false},
		{"far over", `{"host":"` + strings.Repeat("x", 10_000) + `"}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".json")
			if err := os.WriteFile(p, []byte(tc.doc), 0o600); err != nil {
				t.Fatal(err)
			}
			_, _, err := Load(Sources{ConfigArgs: []string{p}})
			if tc.ok {
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				return
			}
			if msg := configError(t, err, p); !strings.Contains(msg, "larger than the limit of 64 bytes") {
				t.Errorf("error %q does not name the limit", msg)
			}
		})
	}
}

func TestDotEnvSizeCap(t *testing.T) {
	withMaxFileBytes(t, 64)
	dir := t.TempDir()
	env := "TARGET_ORACLE_HOST=" + strings.Repeat("h", 100) + "\n"
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(env), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err := Load(Sources{ConfigArgs: []string{"ENV"}, WorkDir: dir})
	if msg := configError(t, err, ".env"); !strings.Contains(msg, "larger than the limit") {
		t.Errorf("error %q does not name the limit", msg)
	}
}

func TestDefaultCapIs16MiB(t *testing.T) {
	if maxFileBytes != 16<<20 || sizeText(maxFileBytes) != "16 MiB" {
		t.Errorf("maxFileBytes = %d (%s)", maxFileBytes, sizeText(maxFileBytes))
	}
}

// A device or directory is refused before it is read: /dev/zero would
// otherwise be read until memory runs out.
func TestConfigFileNotRegular(t *testing.T) {
	cases := []struct{ path, what string }{
		{t.TempDir(), "a directory"},
		{"/dev/zero", "a device"},
		{"/dev/urandom", "a device"},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			if _, err := os.Stat(tc.path); err != nil {
				t.Skip(err)
			}
			_, _, err := Load(Sources{ConfigArgs: []string{tc.path}})
			if msg := configError(t, err, tc.path); !strings.Contains(msg, "not a regular file (it is "+tc.what+")") {
				t.Errorf("error %q does not say what the file is", msg)
			}
		})
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".env"), 0o700); err != nil {
		t.Fatal(err)
	}
	_, _, err := Load(Sources{ConfigArgs: []string{"ENV"}, WorkDir: dir})
	configError(t, err, "not a regular file")
}

// Names used verbatim in SQL must not end their quoted identifier early
// or hold control characters (a "\n/\n" ends a statement of the SQL*Plus
// script a dry run writes).
func TestIdentifierSettingsRejectHostileValues(t *testing.T) {
	cases := []struct {
		name, doc string
		env       []string
		key       string // a substring the error must hold, naming the setting
	}{
		{"tablespace quote", `{"tablespace":"USERS\" NOLOGGING; --"}`, nil, "tablespace"},
		{"tablespace newline", `{"tablespace":"USERS\n/\nDROP TABLE X"}`, nil, "tablespace"},
		{"index_tablespace quote", `{"index_tablespace":"IDX\" --"}`, nil, "index_tablespace"},
		{"lob_tablespace NUL", `{"lob_tablespace":"LOB\u0000"}`, nil, "lob_tablespace"},
		{"lob_tablespace DEL", `{"lob_tablespace":"LOB\u007f"}`, nil, "lob_tablespace"},
		{"grant_select_to quote", `{"grant_select_to":["ok","bob\" WITH GRANT OPTION; --"]}`, nil, "grant_select_to"},
		{"grant_select_to alias tab", `{"default_target_schema_select_permissions":["a\tb"]}`, nil, "default_target_schema_select_permissions"},
		{"grant_select_to env", `{}`, []string{`TARGET_ORACLE_GRANT_SELECT_TO=r1,bob" WITH GRANT OPTION`}, "TARGET_ORACLE_GRANT_SELECT_TO"},
		{"tablespace env", `{}`, []string{"TARGET_ORACLE_TABLESPACE=USERS\r"}, "TARGET_ORACLE_TABLESPACE"},
		{"table_name_mappings quote", `{"table_name_mappings":{"s":"T\" --"}}`, nil, "table_name_mappings"},
		{"table_name_mappings newline", `{"table_name_mappings":{"s":"T\n/\n"}}`, nil, "table_name_mappings"},
		{"column_mappings newline", `{"column_mappings":{"s":{"a":"COL\n/\nDROP"}}}`, nil, "column_mappings"},
		{"column_mappings quote", `{"column_mappings":{"s":{"a":"C\"x"}}}`, nil, "column_mappings"},
		{"column_mappings as text", `{"column_mappings":"{\"s\":{\"a\":\"C\\u0001\"}}"}`, nil, "column_mappings"},
		{"custom index name", `{"custom_indexes":{"s":[{"name":"IX\n/\n","columns":["a"]}]}}`, nil, "custom_indexes"},
		{"flext index_name", `{"custom_indexes":{"s":[{"index_name":"IX\"","columns":["a"]}]}}`, nil, "custom_indexes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := loadJSON(t, tc.env, tc.doc)
			if err == nil {
				t.Fatal("no error")
			}
			msg := configError(t, err, tc.key)
			if !strings.Contains(msg, "which an Oracle identifier cannot hold") {
				t.Errorf("error %q does not say why", msg)
			}
			if strings.ContainsAny(msg, "\n\r\x00\x7f") {
				t.Errorf("error %q holds a raw control character", msg)
			}
		})
	}
}

func TestIdentifierSettingsAcceptOrdinaryValues(t *testing.T) {
	c, _ := mustLoad(t, nil, `{"tablespace":"users","index_tablespace":"Idx Space","lob_tablespace":"LOB$1",
		"grant_select_to":["REPORTING","bi-role"],"table_name_mappings":{"s":"Straße"},
		"column_mappings":{"s":{"a":"My Col"}},"custom_indexes":{"s":[{"name":"IX_A","columns":["a"]},{"columns":["b"]}]}}`)
	if c.Tablespace != "users" || c.IndexTablespace != "Idx Space" || c.LOBTablespace != "LOB$1" ||
		len(c.GrantSelectTo) != 2 || c.TableNameMappings["s"] != "Straße" || c.ColumnMappings["s"]["a"] != "My Col" ||
		c.CustomIndexes["s"][0].Name != "IX_A" {
		t.Errorf("values changed: %+v", c)
	}
}

// The SQL*Plus forms of dsn that docs/oracle.md shows fill user and
// password, so that a connecting run does not stop at "missing user".
func TestSQLPlusDSN(t *testing.T) {
	cases := []struct {
		doc        string
		user, pass string
	}{
		{`{"dsn":"loader/secret@db:1521/FREEPDB1"}`, "loader", "secret"},
		{`{"dsn":"loader/\"p@ss/word\"@mydb_high"}`, "loader", "p@ss/word"},
		{`{"dsn":"loader/pw@mydb_high"}`, "loader", "pw"},
		{`{"dsn":"loader/pw@//db.example.com:1522/svc"}`, "loader", "pw"},
		{`{"dsn":"loader/pw@tcps://db:2484/svc"}`, "loader", "pw"},
		{`{"dsn":"loader/p@ss/w@rd@db/svc"}`, "loader", "p@ss/w@rd"},
		{`{"dsn":" loader/pw@db/svc "}`, "loader", "pw"},
		{`{"dsn":"loader/pw@(DESCRIPTION=(ADDRESS=(HOST=h)(PORT=1))(CONNECT_DATA=(SERVICE_NAME=s)))"}`, "loader", "pw"},
		{`{"dsn":"loader/\"p(w)@x\"@(DESCRIPTION=(ADDRESS=(HOST=h)(PORT=1))(CONNECT_DATA=(SERVICE_NAME=s)))"}`, "loader", "p(w)@x"},
		{`{"dsn":"loader/pw@db/svc","user":"me","password":"mine"}`, "me", "mine"},
		{`{"dsn":"loader@mydb_high","password":"mine"}`, "loader", "mine"},
	}
	for _, tc := range cases {
		t.Run(tc.doc, func(t *testing.T) {
			c, _ := mustLoad(t, nil, tc.doc)
			if c.User != tc.user || c.Password.Reveal() != tc.pass {
				t.Errorf("user %q password %q, want %q %q", c.User, c.Password.Reveal(), tc.user, tc.pass)
			}
			if err := c.CheckConnection(); err != nil {
				t.Errorf("CheckConnection: %v", err)
			}
		})
	}
}

func TestSplitSQLPlus(t *testing.T) {
	cases := []struct {
		in               string
		user, pass, rest string
		hasPass, ok      bool
	}{
		{"u/p@h:1521/svc", "u", "p", "h:1521/svc", true, true},
		{"u@alias", "u", "", "alias", false, true},
		{"u/@alias", "u", "", "alias", true, true},
		{`u/"a@b/c"@//h/s`, "u", "a@b/c", "//h/s", true, true},
		{"u/a@b/c@//h/s", "u", "a@b/c", "//h/s", true, true},
		{"u/p@(DESCRIPTION=(X=a@b))", "u", "p", "(DESCRIPTION=(X=a@b))", true, true},
		{"h:1521/svc", "", "", "h:1521/svc", false, false},
		{"alias", "", "", "alias", false, false},
		{"@alias", "", "", "@alias", false, false},
		{"(DESCRIPTION=(X=u@h))", "", "", "(DESCRIPTION=(X=u@h))", false, false},
		{"tcp://u:p@h/s", "", "", "tcp://u:p@h/s", false, false},
	}
	for _, tc := range cases {
		user, pass, hasPass, rest, ok := SplitSQLPlus(tc.in)
		if user != tc.user || pass != tc.pass || hasPass != tc.hasPass || rest != tc.rest || ok != tc.ok {
			t.Errorf("SplitSQLPlus(%q) = %q %q %v %q %v, want %q %q %v %q %v", tc.in,
				user, pass, hasPass, rest, ok, tc.user, tc.pass, tc.hasPass, tc.rest, tc.ok)
		}
	}
}

// A malformed oracle:// URL is reported as such, not as a missing user,
// and without its password.
func TestMalformedOracleURL(t *testing.T) {
	const pw = "Sup3rS3cret"
	cases := []struct{ dsn, expect string }{
		{"oracle://loader:" + pw + "/x@db:1521/FREE", "not a port number"},
		{"oracle://loader:" + pw + "#x@db:1521/FREE", "not a port number"},
		{"oracle://loader:" + pw + "%zz@db:1521/FREE", "two hex digits"},
		{"oracle://loader:" + pw + "@d b:1521/FREE", "host name"},
		{"oracle://loader:" + pw + "[@db/FREE", "percent-encoded"},
		{"oracle://loader:9/" + pw + "@db/FREE", "'@' after the host"},
	}
	for _, tc := range cases {
		t.Run(tc.expect, func(t *testing.T) {
			_, _, err := loadJSON(t, nil, `{"dsn":"`+tc.dsn+`"}`)
			if err == nil {
				t.Fatal("no error")
			}
			msg := configError(t, err, "dsn")
			if !strings.Contains(msg, "not a valid oracle:// URL") || !strings.Contains(msg, tc.expect) {
				t.Errorf("error %q does not say %q", msg, tc.expect)
			}
			if strings.Contains(msg, pw[:6]) || strings.Contains(msg, "missing") {
				t.Errorf("error %q leaks the password or blames a missing user", msg)
			}
		})
	}
}
