package streammap

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"

	"go.starlark.net/syntax"
)

// redactedText replaces a stream_map_config value in error text.
const redactedText = "[redacted]"

// minSecretLen is the shortest value redacted: shorter ones ("US", "1",
// "abc") would turn every error into noise and are no secret anyway.
const minSecretLen = 4

// redactor removes stream_map_config values from error text.
// stream_map_config holds secrets (hash salts, keys) and only its keys may
// be logged, but an expression that fails on a value echoes it: int()
// and float() quote the literal, a dict lookup quotes the missing key,
// fail() prints its argument. A nil redactor redacts nothing.
type redactor struct {
	r *strings.Replacer
}

// newRedactor collects every string and number in the stream_map_config
// value v (nested in objects and lists; keys are not secret) in each form
// an error may print it: raw, and escaped as inside a Starlark or Go
// quoted string. It returns nil when there is nothing to redact.
func newRedactor(v any) *redactor {
	set := map[string]bool{}
	collectSecrets(v, set)
	forms := make([]string, 0, len(set))
	for s := range set {
		if len(s) >= minSecretLen {
			forms = append(forms, s)
		}
	}
	if len(forms) == 0 {
		return nil
	}
	// Longest first: where one value contains another, the whole of the
	// longer one is replaced rather than leaving its remainder.
	slices.SortFunc(forms, func(a, b string) int {
		if d := len(b) - len(a); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	args := make([]string, 0, 2*len(forms))
	for _, s := range forms {
		args = append(args, s, redactedText)
	}
	return &redactor{r: strings.NewReplacer(args...)}
}

func collectSecrets(v any, set map[string]bool) {
	switch v := v.(type) {
	case string:
		set[v] = true
		set[unquote(syntax.Quote(v, false))] = true
		set[unquote(strconv.Quote(v))] = true
	case json.Number:
		set[v.String()] = true
		if x, err := fromGo(v); err == nil {
			set[x.String()] = true // 1e3 prints as 1000.0
		}
	case float64, int, int64, int32, uint, uint64, uint32:
		if x, err := fromGo(v); err == nil {
			set[x.String()] = true
		}
	case []any:
		for _, e := range v {
			collectSecrets(e, set)
		}
	case map[string]any:
		for _, e := range v {
			collectSecrets(e, set)
		}
	}
	// bool and null print as True, False, None: not secrets.
}

// unquote strips the quotes Quote added, leaving the escaped text.
func unquote(q string) string { return q[1 : len(q)-1] }

// error returns err with every stream_map_config value in its text
// replaced. Every error the package returns passes through here (Compile,
// Mapper.Schema, StreamMap.Apply). *ConfigError and *EvalError keep their
// type and fields, so callers can still read the property; only the
// wrapped cause is redacted, as stream names, property names and
// expressions come from the tap and stream_maps, not stream_map_config. A
// redacted cause no longer unwraps to the original error, which holds the
// secret.
func (x *redactor) error(err error) error {
	if x == nil || err == nil {
		return err
	}
	switch e := err.(type) {
	case *ConfigError:
		if cause := x.cause(e.Err); cause != e.Err {
			c := *e
			c.Err = cause
			return &c
		}
		return err
	case *EvalError:
		if cause := x.cause(e.Err); cause != e.Err {
			c := *e
			c.Err = cause
			return &c
		}
		return err
	}
	return x.cause(err)
}

// cause redacts one error's whole text, or returns it unchanged when it
// holds no secret.
func (x *redactor) cause(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if red := x.r.Replace(msg); red != msg {
		return errors.New(red)
	}
	return err
}
