// Package streammap implements the Singer SDK's stream maps (stream_maps,
// stream_map_config): aliasing, filtering, splitting and removing streams,
// and adding, replacing and removing record properties with expressions.
//
// The SDK evaluates Python expressions with simpleeval; this package runs
// them as Starlark (go.starlark.net), a Python dialect, so the common forms
// are written the same way. Expressions are parsed and checked once by
// Compile, compiled once per SCHEMA by Mapper.Schema, and only run per
// record. Record values an expression does not read are never decoded:
// they pass from input to output byte for byte, so numbers stay exact.
// docs/stream-maps.md lists the forms, the helpers and the differences
// from the SDK.
package streammap

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"go.starlark.net/starlark"
)

const (
	optElse   = "__else__"
	optFilter = "__filter__"
	optSource = "__source__"
	optAlias  = "__alias__"
	optKeys   = "__key_properties__"
	nullValue = "__NULL__"
)

// ConfigError is an invalid stream_maps setting: the stream map (its key
// in stream_maps) and, when one is at fault, the property and expression.
type ConfigError struct {
	Stream   string // key in stream_maps ("" for the top level)
	Property string // property or option (__filter__ ...), if any
	Expr     string // the expression, if any
	Err      error
}

func (e *ConfigError) Error() string {
	if e.Stream == "" && e.Property != "" {
		return "stream_maps, " + e.Detail()
	}
	return "stream_maps: " + e.Detail()
}

// Detail is the error without its "stream_maps" prefix, for a caller
// that names the setting itself (config.Error's Key).
func (e *ConfigError) Detail() string {
	var b strings.Builder
	if e.Stream != "" {
		fmt.Fprintf(&b, "stream %q", e.Stream)
	}
	if e.Property != "" {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "property %q", e.Property)
	}
	if e.Expr != "" {
		if b.Len() > 0 {
			b.WriteString(": ")
		}
		fmt.Fprintf(&b, "expression %q", e.Expr)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%v", e.Err)
	return b.String()
}

func (e *ConfigError) Unwrap() error { return e.Err }

// Mapper is the compiled stream_maps setting. It is immutable and safe for
// concurrent use; the StreamMaps it returns are not.
type Mapper struct {
	entries      []*entry            // sorted by key
	dropUnmapped bool                // top-level __else__: null
	helpers      starlark.StringDict // md5, sha256, json, datetime, config
	now          clock               // read by datetime.datetime.now()
	redact       *redactor           // stream_map_config values, kept out of errors
	stop         *stopper            // Cancel (cancel.go)
}

// entry is one stream_maps member.
type entry struct {
	key     string
	pattern *regexp.Regexp // the key (or __source__) as an fnmatch pattern; nil when literal
	remove  bool           // null / "__NULL__": the stream is not loaded
	alias   string         // __alias__
	source  string         // __source__: this entry is an extra stream split from source
	filter  *expr
	keys    []string // __key_properties__ when keysSet
	keysSet bool
	only    bool   // __else__: null: only the listed (and key) properties
	props   []prop // sorted by name
}

// prop is one property of a stream map: removed, or computed by an
// expression.
type prop struct {
	name string
	expr *expr // nil: remove the property
}

// Compile validates the stream_maps setting once at start: every
// expression parses, with advice when it is Python that Starlark cannot
// run. Errors are *ConfigError. No error the package returns contains a
// stream_map_config value (see redactor).
func Compile(maps map[string]any, mapConfig map[string]any) (*Mapper, error) {
	x := newRedactor(mapConfig)
	m, err := compileMaps(maps, mapConfig, x)
	if err != nil {
		return nil, x.error(err)
	}
	return m, nil
}

func compileMaps(maps map[string]any, mapConfig map[string]any, x *redactor) (*Mapper, error) {
	cfg, err := fromGo(mapConfig) // a nil map is an empty dict
	if err != nil {
		return nil, &ConfigError{Err: fmt.Errorf("stream_map_config: %w", err)}
	}
	m := &Mapper{now: time.Now, redact: x, stop: &stopper{}}
	m.helpers = helpers(cfg, func() time.Time { return m.now() })
	for _, key := range sortedKeys(maps) {
		if key == optElse {
			if !isNull(maps[key]) {
				return nil, &ConfigError{Property: optElse, Err: fmt.Errorf("only null (or %q) is supported", nullValue)}
			}
			m.dropUnmapped = true
			continue
		}
		if strings.HasPrefix(key, "__") {
			return nil, &ConfigError{Property: key, Err: fmt.Errorf("unknown option (the top level takes stream names and %s)", optElse)}
		}
		e, err := compileEntry(key, maps[key])
		if err != nil {
			return nil, err
		}
		m.entries = append(m.entries, e)
	}
	return m, nil
}

// Empty reports whether no stream maps are configured: every stream passes
// unchanged and the caller may skip mapping altogether.
func (m *Mapper) Empty() bool { return m == nil || len(m.entries) == 0 && !m.dropUnmapped }

// Aliased lists, per output stream, the input streams the configuration
// itself aliases into it (__alias__ on a stream named literally), where
// two or more are: outputs that share their table with inputs that need
// not come in the same run (shared-table guards, SPEC §4). Inputs that
// only a pattern reaches are not known before they come, and are left
// out.
func (m *Mapper) Aliased() map[string][]string {
	if m == nil {
		return nil
	}
	byOutput := map[string][]string{}
	for _, e := range m.entries { // sorted by key: inputs come in name order
		if e.remove || e.source != "" || e.alias == "" || e.pattern != nil {
			continue
		}
		byOutput[e.alias] = append(byOutput[e.alias], e.key)
	}
	for o, in := range byOutput {
		if len(in) < 2 {
			delete(byOutput, o)
		}
	}
	return byOutput
}

func isNull(v any) bool { return v == nil || v == nullValue }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func compileEntry(key string, v any) (*entry, error) {
	e := &entry{key: key}
	fail := func(prop, src string, err error) error {
		return &ConfigError{Stream: key, Property: prop, Expr: src, Err: err}
	}
	if isNull(v) {
		e.remove = true
		e.pattern = fnmatch(key)
		return e, nil
	}
	def, ok := v.(map[string]any)
	if !ok {
		return nil, fail("", "", fmt.Errorf("want an object or null, got %s", describe(v)))
	}
	for _, name := range sortedKeys(def) {
		if err := e.option(name, def[name]); err != nil {
			var ce *ConfigError
			if asConfigError(err, &ce) {
				ce.Stream = key
				return nil, ce
			}
			return nil, fail(name, "", err)
		}
	}
	if e.source != "" && e.alias != "" {
		return nil, fail(optAlias, "", fmt.Errorf("a %s stream is named by its key; drop %s", optSource, optAlias))
	}
	if e.source != "" {
		e.pattern = fnmatch(e.source)
	} else {
		e.pattern = fnmatch(key)
	}
	if e.keysSet {
		for _, p := range e.props {
			if p.expr == nil && slices.Contains(e.keys, p.name) {
				return nil, fail(p.name, "", fmt.Errorf("a key property cannot be removed; change %s", optKeys))
			}
		}
	}
	return e, nil
}

func asConfigError(err error, target **ConfigError) bool {
	ce, ok := err.(*ConfigError)
	if ok {
		*target = ce
	}
	return ok
}

// option applies one member of a stream's map.
func (e *entry) option(name string, v any) error {
	switch name {
	case optAlias, optSource:
		s, ok := v.(string)
		if !ok || s == "" {
			return fmt.Errorf("want a stream name, got %s", describe(v))
		}
		if name == optAlias {
			e.alias = s
		} else {
			e.source = s
		}
	case optFilter:
		if v == nil {
			return nil
		}
		src, ok := v.(string)
		if !ok {
			return fmt.Errorf("want an expression string, got %s", describe(v))
		}
		x, err := parseExpr(src)
		if err != nil {
			return &ConfigError{Property: name, Expr: src, Err: err}
		}
		e.filter = x
	case optKeys:
		keys, err := keyList(v)
		if err != nil {
			return err
		}
		e.keys, e.keysSet = keys, true
	case optElse:
		if !isNull(v) {
			return fmt.Errorf("only null (or %q) is supported", nullValue)
		}
		e.only = true
	default:
		if strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__") {
			return fmt.Errorf("unknown option (options are %s, %s, %s, %s, %s)", optAlias, optSource, optFilter, optKeys, optElse)
		}
		return e.property(name, v)
	}
	return nil
}

func (e *entry) property(name string, v any) error {
	if isNull(v) {
		e.props = append(e.props, prop{name: name})
		return nil
	}
	src, ok := v.(string)
	if !ok {
		return fmt.Errorf("want an expression string or null, got %s (quote a constant: \"'text'\" or \"42\")", describe(v))
	}
	x, err := parseExpr(src)
	if err != nil {
		return &ConfigError{Property: name, Expr: src, Err: err}
	}
	e.props = append(e.props, prop{name: name, expr: x})
	return nil
}

func keyList(v any) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list of property names or null, got %s", describe(v))
	}
	keys := make([]string, 0, len(list))
	for _, k := range list {
		s, ok := k.(string)
		if !ok || s == "" {
			return nil, fmt.Errorf("want a list of property names, got an element %s", describe(k))
		}
		keys = append(keys, s)
	}
	return keys, nil
}

func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("string %q", v)
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	}
	return fmt.Sprintf("%v", v)
}

// fnmatch compiles a stream-name pattern as Python's fnmatch does (*, ?,
// [seq], [!seq]); nil when the name has no wildcard.
func fnmatch(p string) *regexp.Regexp {
	if !strings.ContainsAny(p, "*?[") {
		return nil
	}
	var b strings.Builder
	b.WriteString(`(?s)\A`)
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			j := i + 1
			if j < len(p) && p[j] == '!' {
				j++
			}
			if j < len(p) && p[j] == ']' {
				j++
			}
			k := strings.IndexByte(p[j:], ']')
			if k < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := p[i+1 : j+k]
			neg := strings.HasPrefix(class, "!")
			if neg {
				class = class[1:]
			}
			class = strings.NewReplacer(`\`, `\\`, `[`, `\[`, `^`, `\^`).Replace(class)
			if neg {
				class = "^" + class
			}
			b.WriteString("[" + class + "]")
			i = j + k
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`\z`)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return regexp.MustCompile(`\A` + regexp.QuoteMeta(p) + `\z`)
	}
	return re
}

// matches reports whether the entry's stream (key, or __source__) names
// stream, and whether it did so literally.
func (e *entry) matches(stream string) (ok, exact bool) {
	name := e.key
	if e.source != "" {
		name = e.source
	}
	if name == stream {
		return true, true
	}
	return e.pattern != nil && e.pattern.MatchString(stream), false
}

// Schema maps one input SCHEMA to the output streams it feeds: normally
// one; none when the stream is removed (stream: null, or unmapped under a
// top-level __else__: null); more with __source__ splits (the stream's own
// map first, then the splits by name). Expressions are compiled here, once
// per SCHEMA. A map that does not fit the schema (a key property it lacks,
// an expression naming an unknown property) is a *ConfigError; a schema
// that is not a JSON object is a plain error.
func (m *Mapper) Schema(stream string, schema []byte, keys []string) ([]*StreamMap, error) {
	out, err := m.schema(stream, schema, keys)
	if err != nil {
		return nil, m.redact.error(err)
	}
	return out, nil
}

func (m *Mapper) schema(stream string, schema []byte, keys []string) ([]*StreamMap, error) {
	var primary *entry
	var splits []*entry
	for _, e := range m.entries {
		ok, exact := e.matches(stream)
		switch {
		case !ok:
		case e.source != "":
			splits = append(splits, e)
		case exact:
			primary = e
		case primary == nil || primary.key != stream && len(e.key) > len(primary.key):
			// Without config order (the SDK lets the last match win), the
			// exact name wins, then the longest pattern.
			primary = e
		}
	}
	var out []*StreamMap
	switch {
	case primary == nil && !m.dropUnmapped:
		out = append(out, identity(stream, schema, keys))
	case primary != nil && !primary.remove:
		alias := primary.alias
		if alias == "" {
			alias = stream
		}
		sm, err := m.build(primary, stream, alias, schema, keys)
		if err != nil {
			return nil, err
		}
		out = append(out, sm)
	}
	for _, e := range splits {
		sm, err := m.build(e, stream, e.key, schema, keys)
		if err != nil {
			return nil, err
		}
		out = append(out, sm)
	}
	return out, nil
}
