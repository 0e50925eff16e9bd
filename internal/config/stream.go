package config

import (
	"fmt"
	"strings"
)

// StreamSettings are the settings that stream_overrides can change for one
// stream, resolved against the global values.
type StreamSettings struct {
	StorageMode        string
	LoadMethod         string
	HardDelete         bool
	BatchSizeRows      int
	FlatteningMaxDepth int
	// DefaultTargetSchema is the stream's default_target_schema, as given
	// (a literal schema or a {stream_schema} template; "" = the user's).
	DefaultTargetSchema string
	Partitioning        Partitioning // applies to tables the target creates
	Compression         string       // applies to tables the target creates
	// DeleteMissing is none, soft or hard; DeleteMissingByName says that an
	// override naming the stream exactly set it (a keyless or non-upsert
	// stream is then a configuration error, not a warning).
	DeleteMissing       string
	DeleteMissingByName bool
}

// ForStream returns the effective settings of stream. Each field comes
// from the first of these that sets it: an override whose pattern is the
// stream's exact name; the override patterns with "*" that match, in
// config order; the global setting. Call it once per stream (at its
// SCHEMA), not per record.
func (c *Config) ForStream(stream string) StreamSettings {
	s := StreamSettings{
		StorageMode:         c.StorageMode,
		LoadMethod:          c.LoadMethod,
		HardDelete:          c.HardDelete,
		DeleteMissing:       c.DeleteMissing,
		BatchSizeRows:       c.BatchSizeRows,
		FlatteningMaxDepth:  c.FlatteningMaxDepth,
		DefaultTargetSchema: c.DefaultTargetSchema,
		Partitioning:        c.Partitioning,
		Compression:         c.Compression,
	}
	// Apply lowest priority first so that higher priority writes last.
	for i := len(c.StreamOverrides) - 1; i >= 0; i-- {
		o := &c.StreamOverrides[i]
		if strings.Contains(o.Pattern, "*") && globMatch(o.Pattern, stream) {
			o.apply(&s)
		}
	}
	for i := len(c.StreamOverrides) - 1; i >= 0; i-- {
		if o := &c.StreamOverrides[i]; o.Pattern == stream {
			o.apply(&s)
			s.DeleteMissingByName = s.DeleteMissingByName || o.DeleteMissing != nil
		}
	}
	return s
}

// Matches reports whether the override applies to stream: its pattern is
// the stream's name, or a "*" pattern that matches it.
func (o *StreamOverride) Matches(stream string) bool {
	return o.Pattern == stream || strings.Contains(o.Pattern, "*") && globMatch(o.Pattern, stream)
}

func (o *StreamOverride) apply(s *StreamSettings) {
	if o.StorageMode != nil {
		s.StorageMode = *o.StorageMode
	}
	if o.LoadMethod != nil {
		s.LoadMethod = *o.LoadMethod
	}
	if o.HardDelete != nil {
		s.HardDelete = *o.HardDelete
	}
	if o.DeleteMissing != nil {
		s.DeleteMissing = *o.DeleteMissing
	}
	if o.BatchSizeRows != nil {
		s.BatchSizeRows = *o.BatchSizeRows
	}
	if o.FlatteningMaxDepth != nil {
		s.FlatteningMaxDepth = *o.FlatteningMaxDepth
	}
	if o.DefaultTargetSchema != nil {
		s.DefaultTargetSchema = *o.DefaultTargetSchema
	}
	if o.Partitioning != nil {
		s.Partitioning = *o.Partitioning
	}
	if o.Compression != nil {
		s.Compression = *o.Compression
	}
}

// globMatch reports whether name matches pattern, where "*" matches any
// run of characters (including none) and every other byte matches itself.
func globMatch(pattern, name string) bool {
	p, n := 0, 0
	star, mark := -1, 0
	for n < len(name) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, n
			p++
		case p < len(pattern) && pattern[p] == name[n]:
			p++
			n++
		case star >= 0:
			p = star + 1
			mark++
			n = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// overridable returns the settings stream_overrides may set.
func overridable() []string {
	return []string{"storage_mode", "load_method", "hard_delete", "delete_missing", "batch_size_rows", "flattening_max_depth", "default_target_schema", "partitioning", "compression"}
}

// convOverrides reads stream_overrides, keeping config order. Each value is
// checked by the global setting's own rules, aliases of values included
// (load_method "MERGE" works here too).
func convOverrides(t []setting, v any) (any, error) {
	var out []StreamOverride
	for _, m := range v.(*object).members {
		if m.key == "" {
			return nil, fmt.Errorf("empty stream pattern")
		}
		o, err := convOverride(t, m.key, m.val)
		if err != nil {
			return nil, fmt.Errorf("stream %q: %w", m.key, err)
		}
		out = append(out, o)
	}
	return out, nil
}

func convOverride(t []setting, pattern string, v any) (StreamOverride, error) {
	o := StreamOverride{Pattern: pattern}
	obj, ok := asObject(v)
	if !ok {
		return o, fmt.Errorf("expected an object of settings")
	}
	obj = withoutNulls(obj).(*object) // a JSON string's nulls too
	for _, m := range obj.members {
		s, a := lookup(t, m.key)
		if s == nil || !isOverridable(s.name) {
			return o, fmt.Errorf("%q cannot be set per stream (expected one of %s)", m.key, quoteList(overridable()))
		}
		val, err := s.checkAlias(t, a, m.val)
		if err != nil {
			return o, fmt.Errorf("%s: %w", m.key, err)
		}
		o.set(s.name, val)
	}
	return o, nil
}

func isOverridable(name string) bool {
	for _, n := range overridable() {
		if n == name {
			return true
		}
	}
	return false
}

func (o *StreamOverride) set(name string, v any) {
	switch name {
	case "storage_mode":
		s := v.(string)
		o.StorageMode = &s
	case "load_method":
		s := v.(string)
		o.LoadMethod = &s
	case "hard_delete":
		b := v.(bool)
		o.HardDelete = &b
	case "delete_missing":
		s := v.(string)
		o.DeleteMissing = &s
	case "batch_size_rows":
		n := int(v.(int64))
		o.BatchSizeRows = &n
	case "flattening_max_depth":
		n := int(v.(int64))
		o.FlatteningMaxDepth = &n
	case "default_target_schema":
		s := v.(string)
		o.DefaultTargetSchema = &s
	case "partitioning":
		p := v.(Partitioning)
		o.Partitioning = &p
	case "compression":
		s := v.(string)
		o.Compression = &s
	}
}
