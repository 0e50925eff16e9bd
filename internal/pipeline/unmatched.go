package pipeline

import (
	"slices"
	"strings"

	"github.com/target-oracle/target-oracle/internal/schema"
)

// seenPaths records the property paths of every SCHEMA of the run, per
// stream, so that at the end of input warnUnmatched can name the
// column_mappings and ignored_columns entries that matched nothing.
type seenPaths map[string]*streamPaths

// streamPaths are one stream's property paths ("a.b", as mappings name
// them), and those of free-form objects and arrays, whose insides no
// SCHEMA lists.
type streamPaths struct {
	props, open map[string]bool
}

// schema adds the paths of one SCHEMA of stream.
func (sp *seenPaths) schema(stream string, root *schema.Property) {
	if *sp == nil {
		*sp = seenPaths{}
	}
	s := (*sp)[stream]
	if s == nil {
		s = &streamPaths{props: map[string]bool{}, open: map[string]bool{}}
		(*sp)[stream] = s
	}
	var walk func(p *schema.Property)
	walk = func(p *schema.Property) {
		path := strings.Join(p.Path, ".")
		if len(p.Path) > 0 {
			s.props[path] = true
		}
		if p.Types.Has(schema.Object) && !p.HasProperties || p.Types.Has(schema.Array) {
			s.open[path] = true
		}
		for _, c := range p.Properties {
			walk(c)
		}
	}
	walk(root)
}

// has reports whether path names a property of some SCHEMA of the stream,
// or lies inside a free-form object or an array.
func (s *streamPaths) has(path string) bool {
	if s == nil {
		return false
	}
	if s.props[path] || s.open[""] {
		return true
	}
	for i := range len(path) {
		if path[i] == '.' && s.open[path[:i]] {
			return true
		}
	}
	return false
}

// warnUnmatched warns once for each table_name_mappings,
// column_mappings, ignored_columns, custom_indexes and stream_overrides
// entry that matched
// no stream or property of the whole input. It runs at the end of a
// complete run that saw at least one stream: before then, or after a
// failure, the input's streams are not all known.
func (p *pipeline) warnUnmatched() {
	if len(p.streams) == 0 {
		return
	}
	c := p.cfg
	for _, stream := range sortedKeys(c.TableNameMappings) {
		if p.streams[stream] == nil {
			p.log.Warn("table_name_mappings entry matched no stream of the input", "stream", stream, "table", c.TableNameMappings[stream])
		}
	}
	for _, stream := range sortedKeys(c.ColumnMappings) {
		if p.streams[stream] == nil {
			p.log.Warn("column_mappings entry matched no stream of the input", "stream", stream)
			continue
		}
		for _, path := range sortedKeys(c.ColumnMappings[stream]) {
			if !p.seen[stream].has(path) {
				p.log.Warn("column_mappings entry matched no property of the stream's schemas", "stream", stream, "property", path)
			}
		}
	}
	for _, name := range sortedKeys(c.IgnoredColumns) {
		if name == "*" {
			for _, path := range c.IgnoredColumns[name] {
				if !slices.ContainsFunc(p.order, func(s *stream) bool { return p.seen[s.name].has(path) }) {
					p.log.Warn("ignored_columns entry matched no property of any stream's schemas", "property", path)
				}
			}
			continue
		}
		if p.streams[name] == nil {
			p.log.Warn("ignored_columns entry matched no stream of the input", "stream", name)
			continue
		}
		for _, path := range c.IgnoredColumns[name] {
			if !p.seen[name].has(path) {
				p.log.Warn("ignored_columns entry matched no property of the stream's schemas", "stream", name, "property", path)
			}
		}
	}
	for _, stream := range sortedKeys(c.CustomIndexes) {
		if p.streams[stream] == nil {
			// A misspelt stream name would otherwise leave the table
			// without its index, silently.
			p.log.Warn("custom_indexes entry matched no stream of the input", "stream", stream)
		}
	}
	for _, o := range c.StreamOverrides {
		if !slices.ContainsFunc(p.order, func(s *stream) bool { return o.Matches(s.name) }) {
			p.log.Warn("stream_overrides entry matched no stream of the input", "pattern", o.Pattern)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
