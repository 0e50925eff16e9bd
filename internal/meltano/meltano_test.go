package meltano

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/target-oracle/target-oracle/internal/config"
)

var update = flag.Bool("update", false, "rewrite meltano/target-oracle.yml from the settings table")

const definitionPath = "../../meltano/target-oracle.yml"

func TestPluginDefinitionUpToDate(t *testing.T) {
	got, err := PluginDefinition(DefaultVersion)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(definitionPath, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(definitionPath)
	if err != nil {
		t.Fatalf("%v (create it with: go test ./internal/meltano -run TestPluginDefinitionUpToDate -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date with the settings table; regenerate with:\n"+
			"  go test ./internal/meltano -run TestPluginDefinitionUpToDate -update", definitionPath)
	}
}

// settingBlocks splits the rendered settings list into one block of lines
// per setting, keyed by name.
func settingBlocks(t *testing.T, def []byte) map[string][]string {
	t.Helper()
	_, list, ok := strings.Cut(string(def), "\nsettings:\n")
	if !ok {
		t.Fatal("no settings: section")
	}
	blocks := map[string][]string{}
	var cur string
	for _, line := range strings.Split(strings.TrimSuffix(list, "\n"), "\n") {
		if name, ok := strings.CutPrefix(line, "- name: "); ok {
			if _, dup := blocks[name]; dup {
				t.Errorf("setting %s listed twice", name)
			}
			cur = name
			blocks[cur] = nil
			continue
		}
		if cur == "" || !strings.HasPrefix(line, "  ") {
			t.Fatalf("unexpected line in settings: %q", line)
		}
		blocks[cur] = append(blocks[cur], line)
	}
	return blocks
}

func TestPluginDefinitionSettings(t *testing.T) {
	def, err := PluginDefinition(DefaultVersion)
	if err != nil {
		t.Fatal(err)
	}
	blocks := settingBlocks(t, def)
	settings := Flat(config.Settings())
	if len(blocks) != len(settings) {
		t.Errorf("definition has %d settings, the table %d", len(blocks), len(settings))
	}
	secrets := 0
	for _, s := range settings {
		b, ok := blocks[s.Name]
		if !ok {
			t.Errorf("setting %s missing from the definition", s.Name)
			continue
		}
		kind, err := Kind(s)
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
		if !slices.Contains(b, "  kind: "+kind) {
			t.Errorf("%s: no line `kind: %s` in %q", s.Name, kind, b)
		}
		if got := slices.Contains(b, "  sensitive: true"); got != s.Secret {
			t.Errorf("%s: sensitive: true present = %v, secret = %v", s.Name, got, s.Secret)
		}
		if s.Secret {
			secrets++
			if kind != "string" {
				t.Errorf("%s: secret of kind %s, want string (password is deprecated)", s.Name, kind)
			}
		}
		for _, e := range s.Enum {
			if !slices.Contains(b, "    value: "+scalar(e)) {
				t.Errorf("%s: option %q missing", s.Name, e)
			}
		}
		for _, line := range b {
			// Defaults must not be values: Meltano would export them as
			// TARGET_ORACLE_* variables that shadow peer aliases.
			if strings.HasPrefix(line, "  value:") {
				t.Errorf("%s: has a setting-level value: %q", s.Name, line)
			}
		}
	}
	if secrets == 0 {
		t.Error("no secret settings found; the sensitive check tested nothing")
	}
}

func TestPluginDefinitionHeader(t *testing.T) {
	def, err := PluginDefinition("1.2.3rc1")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\nname: target-oracle\n",
		"\nnamespace: target_oracle\n",
		"\nexecutable: target-oracle\n",
		"\npip_url: target-oracle-go==1.2.3rc1\n",
		"\ncapabilities:\n- about\n- schema-flattening\n- validate-records\n- activate-version\n- target-schema\n- hard-delete\n- soft-delete\n- batch\n- stream-maps\nsettings:\n",
	} {
		if !bytes.Contains(def, []byte(want)) {
			t.Errorf("definition lacks %q", want)
		}
	}
}

func TestPipURLRejectsNonPEP440(t *testing.T) {
	for _, v := range []string{"", "v0.1.0", "0.1.0-rc.1", "0.1.0 x", "0.1.0\nfoo: bar", "01.0", "0.1.0-next"} {
		if _, err := PluginDefinition(v); err == nil {
			t.Errorf("PluginDefinition(%q): no error", v)
		}
	}
	for _, v := range []string{"0", "0.1.0", "1.2.3a1", "1.2.3.post2", "0.1.0.dev0", "2024.10.1rc2.dev3"} {
		if _, err := PipURL(v); err != nil {
			t.Errorf("PipURL(%q): %v", v, err)
		}
	}
}

func TestLabel(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"host", "Host"},
		{"connect_timeout_seconds", "Connect Timeout Seconds"},
		{"tns_admin", "TNS Admin"},
		{"dsn", "DSN"},
		{"json_column_name", "JSON Column Name"},
		{"http_listen_address", "HTTP Listen Address"},
	} {
		if got := Label(tc.name); got != tc.want {
			t.Errorf("Label(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestScalar(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"target-oracle", "target-oracle"},
		{"$MELTANO_EXTRACT__LOAD_SCHEMA", "$MELTANO_EXTRACT__LOAD_SCHEMA"},
		{"", `""`},
		{"30", `"30"`},
		{"yes", `"yes"`},
		{"Off", `"Off"`},
		{"null", `"null"`},
		{"a: b", `"a: b"`},
		{"x # y", `"x # y"`},
		{"-x", `"-x"`},
		{"line\nbreak", `"line\nbreak"`},
		{`q"uote\`, `"q\"uote\\"`},
		{"<&>", `"<&>"`},
	} {
		if got := scalar(tc.in); got != tc.want {
			t.Errorf("scalar(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// FuzzScalar checks that every scalar reads back as the string it was made
// from: plain ones only from the safe alphabet, quoted ones as JSON strings
// (YAML's double-quoted style is a superset of JSON's).
func FuzzScalar(f *testing.F) {
	for _, s := range []string{"", "target-oracle", "no", "1e3", "a: b", "\u2028", "x\x00y", "é", "~"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			t.Skip("settings text is UTF-8")
		}
		q := scalar(s)
		if !strings.HasPrefix(q, `"`) {
			if q != s || !plainSafe.MatchString(s) || special(s) {
				t.Fatalf("scalar(%q) = %q: plain but not safe", s, q)
			}
			return
		}
		if strings.ContainsAny(q, "\n\r") {
			t.Fatalf("scalar(%q) = %q spans lines", s, q)
		}
		var back string
		if err := json.Unmarshal([]byte(q), &back); err != nil || back != s {
			t.Fatalf("scalar(%q) = %q reads back as %q (%v)", s, q, back, err)
		}
	})
}

func TestKindOfEveryType(t *testing.T) {
	for _, tc := range []struct {
		s    config.Setting
		want string
	}{
		{config.Setting{Type: "string", Secret: true}, "string"},
		{config.Setting{Type: "string", Enum: []string{"a"}}, "options"},
		{config.Setting{Type: "integer"}, "integer"},
		{config.Setting{Type: "boolean"}, "boolean"},
		{config.Setting{Type: "array"}, "array"},
		{config.Setting{Type: "object"}, "object"},
		{config.Setting{Type: "array|object"}, "array"},
		{config.Setting{Type: "number"}, "decimal"},
	} {
		if got, err := Kind(tc.s); err != nil || got != tc.want {
			t.Errorf("Kind(%+v) = %q, %v; want %q", tc.s, got, err, tc.want)
		}
	}
	if _, err := Kind(config.Setting{Name: "x", Type: "date"}); err == nil {
		t.Error("Kind of an unknown type: no error")
	}
}

// The ssh_tunnel object is listed as its members, as Meltano Hub's
// MeltanoLabs target-postgres lists it, so that Meltano knows its secrets.
func TestPluginDefinitionSSHTunnelMembers(t *testing.T) {
	def, err := PluginDefinition(DefaultVersion)
	if err != nil {
		t.Fatal(err)
	}
	blocks := settingBlocks(t, def)
	if _, ok := blocks["ssh_tunnel"]; ok {
		t.Error("ssh_tunnel listed as an object: Meltano cannot tell its secret members")
	}
	for _, tc := range []struct {
		name, kind string
		sensitive  bool
	}{
		{"ssh_tunnel.enable", "boolean", false},
		{"ssh_tunnel.host", "string", false},
		{"ssh_tunnel.port", "integer", false},
		{"ssh_tunnel.username", "string", false},
		{"ssh_tunnel.private_key", "string", true},
		{"ssh_tunnel.private_key_password", "string", true},
		{"ssh_tunnel.password", "string", true},
		{"ssh_tunnel.host_key", "string", false},
		{"ssh_tunnel.known_hosts", "string", false},
	} {
		b, ok := blocks[tc.name]
		if !ok {
			t.Errorf("%s missing from the definition", tc.name)
			continue
		}
		if !slices.Contains(b, "  kind: "+tc.kind) {
			t.Errorf("%s: want kind %s in %q", tc.name, tc.kind, b)
		}
		if got := slices.Contains(b, "  sensitive: true"); got != tc.sensitive {
			t.Errorf("%s: sensitive = %v, want %v", tc.name, got, tc.sensitive)
		}
	}
	if b := blocks["ssh_tunnel.host"]; !slices.Contains(b, "  label: \"SSH Tunnel Host\"") {
		t.Errorf("ssh_tunnel.host label: %q", b)
	}
}
