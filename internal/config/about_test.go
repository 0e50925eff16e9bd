package config

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// specRows is SPEC.md §3's settings table: name, type, default (JSON, ""
// = none), aliases. The settings table must match it; this copy exists
// only to catch drift.
var specRows = []struct{ name, typ, def, aliases string }{
	{"host", "string", `"localhost"`, "oracle_host"},
	{"port", "integer", `1521`, "oracle_port"},
	{"service_name", "string", ``, "oracle_service_name,oracle_service"},
	{"sid", "string", ``, "database"},
	{"user", "string", ``, "username,oracle_user"},
	{"password", "secret", ``, "oracle_password"},
	{"proxy_user", "string", ``, ""},
	{"dsn", "secret", ``, "sqlalchemy_url"},
	{"tns_admin", "string", ``, ""},
	{"protocol", "tcp|tcps", `"tcp"`, "use_ssl"},
	{"ssl_verify", "boolean", `true`, ""},
	{"ssl_server_dn_match", "boolean", ``, "disable_dn_matching"},
	{"ssl_server_cert_dn", "string", ``, ""},
	{"wallet_location", "string", ``, "ssl_wallet_location"},
	{"wallet_password", "secret", ``, "ssl_wallet_password"},
	{"network_encryption", "accepted|requested|required|rejected", `"accepted"`, ""},
	{"ssh_tunnel", "object", "", ""},
	{"connect_timeout_seconds", "integer", `30`, "connection_timeout"},
	{"default_target_schema", "string", ``, "schema,target_schema"},
	{"table_prefix", "string", `""`, ""},
	{"table_suffix", "string", `""`, ""},
	{"schema_mapping", "object", `{}`, ""},
	{"table_name_mappings", "object", `{}`, ""},
	{"column_mappings", "object", `{}`, ""},
	{"ignored_columns", "array|object", `[]`, ""},
	{"identifier_case", "upper|preserve", `"upper"`, ""},
	{"identifier_max_bytes", "auto|30|128", `"auto"`, ""},
	{"column_ordering", "schema|alphabetical", `"schema"`, ""},
	{"column_comments", "boolean", `true`, ""},
	{"storage_mode", "hybrid|flattened|json", `"hybrid"`, ""},
	{"flattening_enabled", "boolean", `false`, ""},
	{"flattening_max_depth", "integer", `3`, "max_flattening_depth"},
	{"flattening_separator", "string", `"__"`, ""},
	{"json_column_name", "string", `"DATA"`, ""},
	{"stream_overrides", "object", `{}`, ""},
	{"load_method", "upsert|append-only|overwrite|history", `"upsert"`, "sdc_mode"},
	{"truncate_before_load", "boolean", `false`, ""},
	{"hard_delete", "boolean", `false`, ""},
	{"delete_missing", "none|soft|hard", `"none"`, ""},
	{"delete_missing_max_fraction", "number", `0.5`, ""},
	{"process_activate_version_messages", "boolean", `true`, "activate_version"},
	{"add_record_metadata", "boolean", `true`, "add_metadata_columns"},
	{"primary_key_required", "boolean", `false`, ""},
	{"validate_records", "boolean", `true`, ""},
	{"on_invalid_record", "fail|skip|reject", `"fail"`, ""},
	{"on_database_error", "fail|reject", `"fail"`, ""},
	{"history_valid_from", "string", ``, ""},
	{"reject_path", "string", `"rejected-records.jsonl"`, ""},
	{"batch_size_rows", "integer", `10000`, "batch_size"},
	{"batch_size_bytes", "integer", `33554432`, ""},
	{"max_buffered_bytes", "integer", `134217728`, ""},
	{"batch_wait_limit_seconds", "integer", `60`, ""},
	{"flush_all_streams", "boolean", `false`, ""},
	{"max_parallelism", "integer", `4`, "parallelism"},
	{"schema_evolution", "widen|additive|fail", `"widen"`, "allow_alter_table,freeze_schema"}, // + radbrt's freeze_schema
	{"varchar_max_bytes", "auto|4000|32767", `"auto"`, ""},
	{"max_columns", "auto|1000|4096", `"auto"`, ""},
	{"interpret_content_encoding", "boolean", `false`, ""},
	{"boolean_type", "auto|number|boolean", `"auto"`, ""},
	{"json_type", "auto|json|clob", `"auto"`, ""},
	{"timestamp_type", "timestamp_tz|timestamp", `"timestamp_tz"`, ""},
	{"national_characters", "auto|always|never", `"auto"`, ""},
	{"tablespace", "string", ``, ""},
	{"index_tablespace", "string", ``, ""},
	{"lob_tablespace", "string", ``, ""},
	{"grant_select_to", "array", `[]`, "default_target_schema_select_permissions"},
	{"custom_indexes", "object", `{}`, ""},
	{"partitioning", "object|none", `"none"`, ""},
	{"compression", "none|advanced|query_low|query_high|archive_low|archive_high", `"none"`, ""},
	{"ddl_lock_timeout_seconds", "integer", `60`, ""},
	{"statement_timeout_seconds", "integer", `0`, ""},
	{"shutdown_timeout_seconds", "integer", `0`, ""},
	{"stream_maps", "object", `{}`, ""},
	{"stream_map_config", "object", `{}`, ""},
	{"log_level", "debug|info|warn|error", `"info"`, ""},
	{"log_format", "text|json", `"text"`, ""},
	{"metrics_interval_seconds", "integer", `60`, ""},
	{"summary_path", "string", ``, ""},
	{"http_listen_address", "string", ``, ""},
}

func TestSettingsMatchSpec(t *testing.T) {
	got := Settings()
	if len(got) != len(specRows) {
		t.Errorf("%d settings, SPEC has %d", len(got), len(specRows))
	}
	for i, row := range specRows {
		if i >= len(got) {
			break
		}
		s := got[i]
		typ := s.Type
		switch {
		case s.Secret:
			typ = "secret"
		case s.Enum != nil:
			typ = strings.Join(s.Enum, "|")
		}
		def := ""
		if s.Default != nil {
			b, _ := json.Marshal(s.Default)
			def = string(b)
		}
		var aliases []string
		for _, a := range s.Aliases {
			aliases = append(aliases, a.Name)
		}
		gotRow := []string{s.Name, typ, def, strings.Join(aliases, ",")}
		want := []string{row.name, row.typ, row.def, row.aliases}
		if !reflect.DeepEqual(gotRow, want) {
			t.Errorf("setting %d:\n got %q\nwant %q", i, gotRow, want)
		}
		if s.EnvVar != "TARGET_ORACLE_"+strings.ToUpper(row.name) {
			t.Errorf("%s: env var %s", s.Name, s.EnvVar)
		}
		if s.Description == "" {
			t.Errorf("%s: no description", s.Name)
		}
	}
}

func TestTableInvariants(t *testing.T) {
	seen := map[string]string{}
	tbl := table()
	for i := range tbl {
		s := &tbl[i]
		for _, n := range append([]string{s.name}, aliasNames(s)...) {
			if prev, dup := seen[n]; dup {
				t.Errorf("name %q used by %s and %s", n, prev, s.name)
			}
			seen[n] = s.name
			if _, peer := lookupPeer(n); peer {
				t.Errorf("%q is both a setting and a not-applicable peer setting", n)
			}
		}
		if s.kind == kindInteger && (s.min > s.max || s.max == 0) {
			t.Errorf("%s: bad range %d..%d", s.name, s.min, s.max)
		}
		if (s.kind == kindEnum) != (s.enum != nil) {
			t.Errorf("%s: enum values and kind disagree", s.name)
		}
		// Every field can be stored and read back.
		c := &Config{}
		if s.def != nil {
			if err := (&loader{t: tbl}).storeDefault(c, s); err != nil {
				t.Errorf("%s: default: %v", s.name, err)
			}
		}
		if s.logValue(c).String() == "" && s.def != nil && s.def != "" {
			t.Errorf("%s: default not visible in LogValue", s.name)
		}
	}
}

func aliasNames(s *setting) []string {
	var out []string
	for _, a := range s.aliases {
		out = append(out, a.name)
	}
	return out
}

func TestAboutSchema(t *testing.T) {
	schema := AboutSchema()
	b, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Type       string                    `json:"type"`
		Required   []string                  `json:"required"`
		Properties map[string]map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Type != "object" || !slices.Equal(doc.Required, []string{"user"}) {
		t.Errorf("type %q required %q", doc.Type, doc.Required)
	}
	if len(doc.Properties) != len(specRows) {
		t.Errorf("%d properties, want %d", len(doc.Properties), len(specRows))
	}
	for _, name := range []string{"password", "dsn", "wallet_password"} {
		p := doc.Properties[name]
		if p["secret"] != true || p["default"] != nil || p["type"] != "string" {
			t.Errorf("%s: %v", name, p)
		}
	}
	checks := []struct {
		name, key string
		want      any
	}{
		{"port", "type", "integer"},
		{"port", "default", 1521.0},
		{"port", "maximum", 65535.0},
		{"host", "default", "localhost"},
		{"ssl_verify", "type", "boolean"},
		{"load_method", "enum", []any{"upsert", "append-only", "overwrite", "history"}},
		{"grant_select_to", "items", map[string]any{"type": "string"}},
		{"ignored_columns", "type", []any{"array", "object"}},
		{"stream_maps", "type", "object"},
	}
	for _, c := range checks {
		if got := doc.Properties[c.name][c.key]; !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s.%s = %#v, want %#v", c.name, c.key, got, c.want)
		}
	}
	for name, p := range doc.Properties {
		if p["description"] == "" || p["type"] == nil {
			t.Errorf("%s: %v", name, p)
		}
	}
}

func TestMarkdownReference(t *testing.T) {
	md := MarkdownReference()
	for _, want := range []string{
		"| Setting | Type | Default | Env var | Aliases | Description |",
		"| `password` | string, **secret** | — | `TARGET_ORACLE_PASSWORD` | `oracle_password` |",
		"`use_ssl` (`true` ⇒ `tcps`; `false` ⇒ `tcp`)",
		"`INSERT`, `BULK_INSERT`, `append` ⇒ `append-only`",
		"| `user` | string | required |",
		"| `commit_interval` | flext-target-oracle |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "| `") && strings.Count(line, " | ")+strings.Count(line, " |  | ") < 2 {
			t.Errorf("malformed row %q", line)
		}
	}
}
