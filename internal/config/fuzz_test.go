package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const fuzzPassword = "Zq7-fuzz-Secret-Xw3"

// FuzzLoad loads a fixed file holding a known password and then a fuzzed
// config file. Load must not panic, and no error, warning, effective-value
// line or printed Config may contain the known password, nor a long secret
// value given in the fuzzed file.
func FuzzLoad(f *testing.F) {
	seeds := []string{
		`{}`,
		`{"host":"h","port":1521,"service_name":"s","user":"u","password":"p"}`,
		`{"TargetOracle":{"oracle_host":"h","oracle_password":"secret-value-1234","load_method":"BULK_MERGE","column_mappings":"{\"s\":{\"a\":\"B\"}}"}}`,
		`{"sqlalchemy_url":"oracle+cx_oracle://u:secret-value-1234@h:1521/ORCL"}`,
		`{"sqlalchemy_url":"oracle+oracledb://u:secret-value-1234@h/?service_name=svc","user":"x"}`,
		`{"sqlalchemy_url":"postgresql://u:secret-value-1234@h/db"}`,
		`{"dsn":"oracle://u:secret-value-1234@h:1521/svc","password":"secret-value-5678"}`,
		`{"password":"secret-value-1234","oracle_password":"secret-value-5678"}`,
		`{"stream_overrides":{"a*":{"load_method":"MERGE","batch_size_rows":5},"*":{"storage_mode":"json"}}}`,
		`{"custom_indexes":{"s":[{"name":"i","columns":["a"],"unique":true}]},"ignored_columns":{"s":["a.b"]}}`,
		`{"flattening_enabled":true,"storage_mode":"json","sdc_mode":"merge","load_method":"append-only"}`,
		`{"use_ssl":true,"disable_dn_matching":"yes","allow_alter_table":false,"parallelism":-1}`,
		`{"port":"x","batch_size_rows":0,"pasword":"y","commit_interval":3}`,
		`{"stream_maps":{"s":{"x":"__NULL__"}},"stream_map_config":{"k":[1,{"a":null}]}}`,
		`[1,2]`, `{"a":`, `"str"`, `{"TargetOracle":"{\"oracle_port\":\"1\"}"}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	// One directory per worker process: inputs run one at a time in it.
	dir := f.TempDir()
	fixed := filepath.Join(dir, "fixed.json")
	fuzzed := filepath.Join(dir, "fuzzed.json")
	fixedDoc := `{"password":"` + fuzzPassword + `","wallet_password":"` + fuzzPassword + `"}`
	if err := os.WriteFile(fixed, []byte(fixedDoc), 0o600); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.Contains(data, []byte(fuzzPassword)) {
			return
		}
		out := loadOutput(t, data, fixed, fuzzed, dir)
		if strings.Contains(out, fuzzPassword) {
			t.Fatalf("output contains the fixed file's password:\n%s", out)
		}
		for _, secret := range fuzzSecrets(data) {
			if !strings.Contains(out, secret) {
				continue
			}
			// The secret may be part of the message's own text ("oracle+oracl"
			// is in "expected … oracle+oracledb://"): it leaks only if masking
			// it in the input takes it out of the output.
			masked := bytes.ReplaceAll(data, []byte(secret), bytes.Repeat([]byte("Z"), len(secret)))
			if strings.Contains(loadOutput(t, masked, fixed, fuzzed, dir), secret) {
				continue
			}
			t.Fatalf("output contains secret %q:\n%s", secret, out)
		}
	})
}

// loadOutput loads data as the second config file and returns everything a
// user could see of the result: warnings, the effective settings, the error,
// or the config as printed and logged.
func loadOutput(t *testing.T, data []byte, fixed, fuzzed, dir string) string {
	t.Helper()
	if err := os.WriteFile(fuzzed, data, 0o600); err != nil {
		t.Fatal(err)
	}
	c, r, err := Load(Sources{ConfigArgs: []string{fixed, fuzzed}, WorkDir: dir})
	if r == nil {
		t.Fatal("nil report")
	}
	out := strings.Join(r.Warnings, "\n") + strings.Join(r.Effective, "\n")
	if err != nil {
		return out + err.Error()
	}
	_ = c.ForStream("stream")
	_ = c.CheckConnection()
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("x", "config", c)
	return out + fmt.Sprintf("%v %+v", c, *c) + buf.String()
}

// fuzzSecrets returns the long values given to secret settings in data that
// appear nowhere else in it (so any copy in the output is a leak).
func fuzzSecrets(data []byte) []string {
	var doc map[string]any
	if json.Unmarshal(data, &doc) != nil {
		return nil
	}
	var out []string
	add := func(s string) {
		if len(s) >= 12 && bytes.Count(data, []byte(s)) == 1 {
			out = append(out, s)
		}
	}
	groups := []map[string]any{doc}
	if g, ok := doc[flextGroup].(map[string]any); ok {
		groups = append(groups, g)
	}
	for _, g := range groups {
		for _, key := range []string{"password", "oracle_password", "wallet_password", "ssl_wallet_password", "dsn", "sqlalchemy_url"} {
			s, ok := g[key].(string)
			if !ok {
				continue
			}
			add(s)
			if u, err := url.Parse(s); err == nil && u.User != nil {
				if pw, ok := u.User.Password(); ok {
					add(pw)
				}
			}
		}
	}
	return out
}
