package config

import (
	"os"
	"strings"
	"testing"
)

// A key repeated inside an object setting with another value is refused as
// a repeated top-level setting is, naming its path; the same value twice
// is accepted, as at the top level. Before, stream_overrides took the
// first and table_name_mappings the last, silently (found by the h-atk2
// attack).
func TestRepeatedKeyInsideASettingIsRefused(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{"stream_overrides":{"s":{"load_method":"overwrite"},"s":{"load_method":"append-only"}}}`, "stream_overrides.s: the key is given twice with different values"},
		{`{"table_name_mappings":{"s":"TA","s":"TB"}}`, "table_name_mappings.s: the key is given twice with different values"},
		{`{"stream_overrides":{"s":{"load_method":"upsert","load_method":"overwrite"}}}`, "stream_overrides.s.load_method: the key is given twice with different values"},
		{`{"table_name_mappings":{"s":"TA","s":"TA"}}`, ""},
	} {
		p := t.TempDir() + "/c.json"
		if err := os.WriteFile(p, []byte(c.text), 0o600); err != nil {
			t.Fatal(err)
		}
		_, _, err := Load(Sources{ConfigArgs: []string{p}})
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.text, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.text, err, c.want)
		}
	}
}
