package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestNullIsNotSetAtEveryLevel: JSON null means "not set" wherever a
// setting or a part of one is given — the top level, a TargetOracle
// block, an alias, sdc_mode, an entry of a mapping, a per-stream
// override, an index's optional member — so the config loads exactly as
// it does without the null keys (the defaults apply).
func TestNullIsNotSetAtEveryLevel(t *testing.T) {
	cases := []struct{ withNulls, without string }{
		{`{"TargetOracle": null}`, `{}`},
		{`{"host": null, "port": null, "ssh_tunnel": null, "partitioning": null, "stream_maps": null}`, `{}`},
		{`{"oracle_host": null, "use_ssl": null, "sdc_mode": null, "batch_size": null}`, `{}`},
		{`{"TargetOracle": {"host": null, "oracle_port": null}}`, `{"TargetOracle": {}}`},
		{`{"stream_overrides": {"a": null, "b": {"load_method": null, "batch_size_rows": 5, "partitioning": null}}}`,
			`{"stream_overrides": {"b": {"batch_size_rows": 5}}}`},
		{`{"stream_overrides": {"b": "{\"load_method\": null, \"hard_delete\": true}"}}`, `{"stream_overrides": {"b": {"hard_delete": true}}}`},
		{`{"table_name_mappings": {"a": null, "b": "T"}}`, `{"table_name_mappings": {"b": "T"}}`},
		{`{"column_mappings": {"a": null, "b": {"x": null, "y": "Y"}}}`, `{"column_mappings": {"b": {"y": "Y"}}}`},
		{`{"ignored_columns": {"a": null, "b": ["x"]}}`, `{"ignored_columns": {"b": ["x"]}}`},
		{`{"schema_mapping": {"a": null}}`, `{}`},
		{`{"custom_indexes": {"a": null, "b": [{"name": null, "columns": ["x"], "unique": null}]}}`,
			`{"custom_indexes": {"b": [{"columns": ["x"]}]}}`},
		{`{"custom_indexes": "{\"b\": [{\"name\": null, \"columns\": [\"x\"]}]}"}`, `{"custom_indexes": {"b": [{"columns": ["x"]}]}}`},
		{`{"ssh_tunnel": {"enable": null, "port": null}}`, `{}`},
	}
	for _, tc := range cases {
		got, _, err := loadJSON(t, nil, tc.withNulls)
		if err != nil {
			t.Errorf("%s: %v", tc.withNulls, err)
			continue
		}
		want := mustLoadOne(t, tc.without)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s loads as\n%+v\nwant (as %s)\n%+v", tc.withNulls, got, tc.without, want)
		}
	}
}

func mustLoadOne(t *testing.T, doc string) *Config {
	t.Helper()
	c, _ := mustLoad(t, nil, doc)
	return c
}

// TestStreamMapNullsStay: in stream_maps a null is the SDK's "remove this
// property", and in stream_map_config a value expressions read: kept.
func TestStreamMapNullsStay(t *testing.T) {
	c := mustLoadOne(t, `{"stream_maps": {"s": {"email": null, "__else__": null}}, "stream_map_config": {"k": null}}`)
	if m, ok := c.StreamMaps["s"].(map[string]any); !ok || len(m) != 2 {
		t.Errorf("stream_maps = %#v, want the two null mappings kept", c.StreamMaps)
	}
	if v, ok := c.StreamMapConfig["k"]; !ok || v != nil {
		t.Errorf("stream_map_config = %#v, want k: null kept", c.StreamMapConfig)
	}
}

// TestEmptyEnvValueIsNotSet: TARGET_ORACLE_X= (docker-compose's "X=", a
// .env line "KEY=") is not set, for every kind of setting: it overrides
// no file value and fails no non-empty setting.
func TestEmptyEnvValueIsNotSet(t *testing.T) {
	file := `{"host": "db.example", "default_target_schema": "S", "flattening_separator": "_", "port": 1600}`
	env := []string{"TARGET_ORACLE_HOST=", "TARGET_ORACLE_DEFAULT_TARGET_SCHEMA=", "TARGET_ORACLE_FLATTENING_SEPARATOR=",
		"TARGET_ORACLE_PORT=", "TARGET_ORACLE_JSON_COLUMN_NAME=", "TARGET_ORACLE_REJECT_PATH=", "TARGET_ORACLE_SSH_TUNNEL_HOST=",
		"TARGET_ORACLE_ORACLE_USER=", "TARGET_ORACLE_SDC_MODE="}
	c, r := mustLoad(t, env, file)
	want := mustLoadOne(t, file)
	if !reflect.DeepEqual(c, want) {
		t.Errorf("with empty variables\n%+v\nwant as without them\n%+v", c, want)
	}
	if len(r.Warnings) != 0 {
		t.Errorf("warnings %q", r.Warnings)
	}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(strings.Join(env, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "c.json")
	if err := os.WriteFile(p, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	c, _, err := Load(Sources{ConfigArgs: []string{p, "ENV"}, WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf(".env with empty values\n%+v\nwant as without them\n%+v", c, want)
	}
}
