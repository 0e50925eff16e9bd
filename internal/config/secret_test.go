package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const knownPassword = "K9-unique-Passw0rd"

func TestSecretPrinting(t *testing.T) {
	s := Secret(knownPassword)
	for _, verb := range []string{"%v", "%s", "%+v", "%#v", "%x", "%X", "%10s", "%d"} {
		if got := fmt.Sprintf(verb, s); got != redacted {
			t.Errorf("Sprintf(%s) = %q, want %q", verb, got, redacted)
		}
	}
	if got := fmt.Sprintf("%q", s); got != `"**redacted**"` {
		t.Errorf("%%q = %s", got)
	}
	if got := fmt.Sprint(s) + s.String() + s.GoString(); got != redacted+redacted+redacted {
		t.Errorf("Sprint/String/GoString = %q", got)
	}
	if b, _ := json.Marshal(s); string(b) != `"**redacted**"` {
		t.Errorf("json = %s", b)
	}
	if v := s.LogValue(); v.String() != redacted {
		t.Errorf("LogValue = %v", v)
	}
	if s.Reveal() != knownPassword {
		t.Errorf("Reveal = %q", s.Reveal())
	}
	var empty Secret
	if got := fmt.Sprintf("%v|%s|%q", empty, empty, empty); got != `||""` {
		t.Errorf("empty secret prints %q", got)
	}
	if b, _ := json.Marshal(empty); string(b) != `""` {
		t.Errorf("empty json = %s", b)
	}
}

// TestSecretsNeverPrinted loads a config full of one known password and
// checks every output path: fmt, JSON, slog, the report and errors.
func TestSecretsNeverPrinted(t *testing.T) {
	doc := `{"password":"` + knownPassword + `","wallet_password":"` + knownPassword + `",
		"dsn":"oracle://u:` + knownPassword + `@h:1521/svc","host":"h","oracle_port":1521,
		"pasword":"x","commit_interval":1,"load_method":"MERGE"}`
	c, r := mustLoad(t, []string{"TARGET_ORACLE_WALLET_PASSWORD=" + knownPassword}, doc)
	if c.Password.Reveal() != knownPassword {
		t.Fatalf("password not loaded")
	}
	var outputs []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x"} {
		outputs = append(outputs, fmt.Sprintf(verb, c), fmt.Sprintf(verb, *c))
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	outputs = append(outputs, string(b))
	for _, h := range []func(*bytes.Buffer) slog.Handler{
		func(w *bytes.Buffer) slog.Handler { return slog.NewTextHandler(w, nil) },
		func(w *bytes.Buffer) slog.Handler { return slog.NewJSONHandler(w, nil) },
	} {
		var buf bytes.Buffer
		slog.New(h(&buf)).Info("start", "config", c, "password", c.Password)
		if !strings.Contains(buf.String(), "max_parallelism") || !strings.Contains(buf.String(), redacted) {
			t.Errorf("log lacks settings: %s", buf.String())
		}
		outputs = append(outputs, buf.String())
	}
	outputs = append(outputs, r.Warnings...)
	outputs = append(outputs, r.Effective...)
	outputs = append(outputs, loadErrors(t)...)
	for _, out := range outputs {
		if strings.Contains(out, knownPassword) {
			t.Errorf("output leaks the password: %s", out)
		}
	}
}

// loadErrors returns the text of errors provoked around secrets.
func loadErrors(t *testing.T) []string {
	docs := [][]string{
		{`{"password":"` + knownPassword + `","oracle_password":"other"}`},
		{`{"password":"` + knownPassword + `","TargetOracle":{"oracle_password":"x"}}`},
		{`{"sqlalchemy_url":"mysql://u:` + knownPassword + `@h/db"}`},
		{`{"sqlalchemy_url":"oracle://u:` + knownPassword + `@h:0/db"}`},
		{`{"dsn":"oracle://u:` + knownPassword + `@h/db","sqlalchemy_url":"oracle://u:x@h/db"}`},
		{`{"password":["` + knownPassword + `"]}`},
		{`{"password":"` + knownPassword + `", "port": "x"`},
	}
	var out []string
	for _, d := range docs {
		_, _, err := loadJSON(t, nil, d...)
		if err == nil {
			t.Errorf("%s: no error", d)
			continue
		}
		out = append(out, err.Error())
	}
	dir := t.TempDir()
	env := "TARGET_ORACLE_PASSWORD='" + knownPassword + "\n"
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(env), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Load(Sources{ConfigArgs: []string{"ENV"}, WorkDir: dir}); err != nil {
		out = append(out, err.Error())
	} else {
		t.Errorf("bad .env: no error")
	}
	if _, _, err := Load(Sources{Environ: []string{
		"TARGET_ORACLE_PASSWORD=" + knownPassword, "TARGET_ORACLE_ORACLE_PASSWORD=x"}}); err != nil {
		out = append(out, err.Error())
	} else {
		t.Errorf("env conflict: no error")
	}
	return out
}
