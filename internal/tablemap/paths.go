package tablemap

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/table"
)

// maxPathNodes bounds the schema walk of checkPaths.
const maxPathNodes = 1 << 16

// checkPaths refuses a column_mappings or ignored_columns path that names
// two properties: paths join property names with "." (SPEC §3: "a.b"
// names a nested property), so a top-level key "a.b" and the nested a→b
// are one path. Before, column_mappings then mapped both onto one column
// (`properties "a.b" and "a.b" are both mapped …`) and ignored_columns
// silently dropped the nested one only. There is no escape for a "." in
// a key: the error says how to rename one property with a stream map.
// Array items ("[]" in a Path) are passed through, as ignored paths are
// inside JSON values.
func checkPaths(stream string, root *schema.Property, opts *table.Options) error {
	if len(opts.ColumnMappings) == 0 && len(opts.IgnoredColumns) == 0 {
		return nil
	}
	wanted := make(map[string]string, len(opts.ColumnMappings)+len(opts.IgnoredColumns))
	for _, p := range opts.IgnoredColumns {
		wanted[p] = "ignored_columns"
	}
	for p := range opts.ColumnMappings {
		wanted[p] = "column_mappings" // a path in both: the mapping is named
	}
	found := make(map[string][][]string)
	nodes := 0
	var walk func(p *schema.Property, names []string)
	walk = func(p *schema.Property, names []string) {
		for _, c := range p.Properties {
			if nodes++; nodes > maxPathNodes {
				return
			}
			path := append(names[:len(names):len(names)], c.Name)
			if joined := strings.Join(path, "."); wanted[joined] != "" {
				found[joined] = append(found[joined], path)
			}
			walk(c, path)
			for it := c.Items; it != nil; it = it.Items {
				walk(it, path)
			}
		}
	}
	walk(root, nil)
	paths := make([]string, 0, len(found))
	for p, props := range found {
		if len(props) > 1 {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	sort.Strings(paths)
	p := paths[0]
	var named []string
	for _, prop := range found[p] {
		b, _ := json.Marshal(prop)
		named = append(named, string(b))
	}
	return &table.ConfigError{Setting: wanted[p], Msg: fmt.Sprintf(
		"stream %q: path %q names two properties, %s: a path joins property names with \".\", so a name holding \".\" cannot be told from nesting; "+
			"rename one with a stream map (stream_maps {%q: {\"a_b\": \"record['a.b']\", \"a.b\": null}} renames a key \"a.b\") and use the new name",
		stream, p, strings.Join(named, " and "), stream)}
}
