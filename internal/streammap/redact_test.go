package streammap

import (
	"errors"
	"strings"
	"testing"
)

// TestEvalErrorsRedactConfig runs expressions that make Starlark echo a
// stream_map_config value in its error (the probe's shapes): the value
// must not reach the error text, in any of its printed forms.
func TestEvalErrorsRedactConfig(t *testing.T) {
	const config = `{"salt":"S3cr3t-Pa55!@#","odd":"we\"ird\\pa55\u0001","a":{"b":["N3sted-S3cret"]},` +
		`"pin":987654,"f":1e3,"cc":"US","on":true}`
	tests := []struct {
		name, expr string
		leak       []string // must not appear
		want       string   // must appear
	}{
		{"int", `int(config['salt'])`, []string{"S3cr3t"}, "invalid literal with base 10: [redacted]"},
		{"float", `float(config['salt'])`, []string{"S3cr3t"}, "invalid float literal: [redacted]"},
		{"dict key", `{}[config['salt']]`, []string{"S3cr3t"}, `key "[redacted]" not in dict`},
		{"config key", `config[config['salt']]`, []string{"S3cr3t"}, `key "[redacted]" not in dict`},
		{"fail", `fail(config['salt'])`, []string{"S3cr3t"}, "fail: [redacted]"},
		{"quoted form", `config[config['odd']]`, []string{"ird", "pa55"}, `key "[redacted]" not in dict`},
		{"nested", `fail(config['a']['b'][0])`, []string{"N3sted"}, "fail: [redacted]"},
		{"nested repr", `fail(config['a'])`, []string{"N3sted"}, `"[redacted]"`},
		{"int value", `fail(config['pin'])`, []string{"987654"}, "fail: [redacted]"},
		{"float value", `fail(config['f'])`, []string{"1000.0"}, "fail: [redacted]"},
		{"short value kept", `fail(config['cc'])`, nil, "fail: US"},
		{"bool kept", `fail(config['on'])`, nil, "fail: True"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := compile(t, `{"users":{"x":"`+strings.ReplaceAll(tt.expr, `"`, `\"`)+`"}}`, config)
			_, _, err := one(t, m, usersSchema, nil).Apply([]byte(usersRecord))
			if err == nil {
				t.Fatalf("Apply(%s): no error", tt.expr)
			}
			msg := err.Error()
			for _, s := range tt.leak {
				if strings.Contains(msg, s) {
					t.Errorf("error leaks %q: %s", s, msg)
				}
			}
			if !strings.Contains(msg, tt.want) {
				t.Errorf("error = %s, want it to contain %s", msg, tt.want)
			}
			var ee *EvalError
			if !errors.As(err, &ee) || ee.Property != "x" || ee.Expr != tt.expr {
				t.Errorf("error %#v: want an *EvalError for property x, expression %s", err, tt.expr)
			}
		})
	}
}

func TestFilterErrorRedactsConfig(t *testing.T) {
	m := compile(t, `{"users":{"__filter__":"int(config['salt']) > 0"}}`, `{"salt":"S3cr3t-Pa55!@#"}`)
	_, _, err := one(t, m, usersSchema, nil).Apply([]byte(usersRecord))
	if err == nil || strings.Contains(err.Error(), "S3cr3t") {
		t.Errorf("Apply: err = %v, want an error without the salt", err)
	}
}

func TestCompileErrorRedactsConfig(t *testing.T) {
	_, err := Compile(nil, decodeConfig(t, `{"big":1e99999}`))
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("Compile: err = %v, want a *ConfigError", err)
	}
	if strings.Contains(err.Error(), "1e99999") || !strings.Contains(err.Error(), "[redacted]") {
		t.Errorf("Compile: err = %v, want the value redacted", err)
	}
}

func TestNewRedactor(t *testing.T) {
	if x := newRedactor(nil); x != nil {
		t.Errorf("newRedactor(nil) = %v, want nil", x)
	}
	if x := newRedactor(map[string]any{"a": "abc", "b": true, "c": nil}); x != nil {
		t.Errorf("newRedactor(short values only) = %v, want nil", x)
	}
	// The longer value wins where one contains another.
	x := newRedactor(map[string]any{"a": "secret", "b": "secret-plus"})
	if got := x.error(errors.New("got secret-plus and secret")).Error(); got != "got [redacted] and [redacted]" {
		t.Errorf("redacted = %q", got)
	}
	plain := errors.New("nothing here")
	if got := x.error(plain); got != plain {
		t.Errorf("an error without secrets should be returned unchanged, got %v", got)
	}
}
