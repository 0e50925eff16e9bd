package config

import (
	"fmt"
	"strings"
)

// checkIdentifier rejects a name given verbatim in the settings that cannot
// sit between the double quotes of an Oracle identifier: a '"' would end
// the quoted name early and let the rest run as SQL, and control
// characters (NUL, newline, …) break statements and the SQL*Plus script a
// dry run writes. Every setting whose value reaches SQL as a quoted
// identifier goes through it. It is table.Quotable's rule, checked where
// the settings are read (config sits below the table model).
func checkIdentifier(name string) error {
	for _, r := range name {
		switch {
		case r == '"':
			return fmt.Errorf("%q contains a double quote, which an Oracle identifier cannot hold", name)
		case r < 0x20 || r == 0x7f:
			return fmt.Errorf("%q contains the control character %U, which an Oracle identifier cannot hold", name, r)
		}
	}
	return nil
}

// convIdentifier checks a string setting used as an identifier (tablespaces).
func convIdentifier(_ []setting, v any) (any, error) {
	name := v.(string)
	if err := checkIdentifier(name); err != nil {
		return nil, err
	}
	return name, nil
}

// convIdentifiers checks a list of identifiers (grant_select_to).
func convIdentifiers(_ []setting, v any) (any, error) {
	names := v.([]string)
	for i, name := range names {
		if err := checkIdentifier(name); err != nil {
			return nil, fmt.Errorf("entry %d: %w", i, err)
		}
	}
	return names, nil
}

// convTableNames reads table_name_mappings: stream -> table name.
func convTableNames(_ []setting, v any) (any, error) {
	obj := v.(*object)
	out := make(map[string]string, len(obj.members))
	for _, m := range obj.members {
		name, ok := m.val.(string)
		if !ok || name == "" {
			return nil, fmt.Errorf("stream %q: expected a non-empty table name", m.key)
		}
		if err := checkIdentifier(name); err != nil {
			return nil, fmt.Errorf("stream %q: %w", m.key, err)
		}
		if err := checkNotScratch(name); err != nil {
			return nil, fmt.Errorf("stream %q: %w", m.key, err)
		}
		out[m.key] = name
	}
	return out, nil
}

// convSchemaMapping reads schema_mapping: source schema -> target schema.
// Both sides are conformed later like default_target_schema; here only
// what could never be a schema is refused.
func convSchemaMapping(_ []setting, v any) (any, error) {
	obj := v.(*object)
	out := make(map[string]string, len(obj.members))
	for _, m := range obj.members {
		name, ok := m.val.(string)
		if m.key == "" {
			return nil, fmt.Errorf("empty source schema")
		}
		if !ok || name == "" {
			return nil, fmt.Errorf("source schema %q: expected a non-empty target schema name", m.key)
		}
		if err := checkIdentifier(name); err != nil {
			return nil, fmt.Errorf("source schema %q: %w", m.key, err)
		}
		out[m.key] = name
	}
	return out, nil
}

// convColumnMappings reads column_mappings: stream -> {property path -> column}.
func convColumnMappings(_ []setting, v any) (any, error) {
	obj := v.(*object)
	out := make(map[string]map[string]string, len(obj.members))
	for _, m := range obj.members {
		cols, ok := asObject(m.val)
		if !ok {
			return nil, fmt.Errorf("stream %q: expected an object property path -> column name", m.key)
		}
		inner := make(map[string]string, len(cols.members))
		for _, c := range cols.members {
			name, ok := c.val.(string)
			if !ok || name == "" {
				return nil, fmt.Errorf("stream %q, property %q: expected a non-empty column name", m.key, c.key)
			}
			if err := checkIdentifier(name); err != nil {
				return nil, fmt.Errorf("stream %q, property %q: %w", m.key, c.key, err)
			}
			inner[c.key] = name
		}
		out[m.key] = inner
	}
	return out, nil
}

// AllStreams is the IgnoredColumns key of paths ignored in every stream.
const AllStreams = "*"

// convIgnored reads ignored_columns: an array applies to every stream (key
// AllStreams), an object maps stream -> array.
func convIgnored(_ []setting, v any) (any, error) {
	out := map[string][]string{}
	if list, ok := v.([]string); ok {
		if len(list) > 0 {
			out[AllStreams] = list
		}
		return out, nil
	}
	for _, m := range v.(*object).members {
		list, ok := stringList(m.val)
		if !ok {
			return nil, fmt.Errorf("stream %q: expected an array of property paths", m.key)
		}
		out[m.key] = append(out[m.key], list...)
	}
	return out, nil
}

// convIndexes reads custom_indexes: stream -> [{name?, columns, unique?}].
// flext's index_name is accepted for name.
func convIndexes(_ []setting, v any) (any, error) {
	obj := v.(*object)
	out := make(map[string][]CustomIndex, len(obj.members))
	for _, m := range obj.members {
		arr, ok := m.val.([]any)
		if !ok {
			return nil, fmt.Errorf("stream %q: expected an array of indexes", m.key)
		}
		for i, e := range arr {
			ix, err := convIndex(e)
			if err != nil {
				return nil, fmt.Errorf("stream %q, index %d: %w", m.key, i, err)
			}
			out[m.key] = append(out[m.key], ix)
		}
	}
	return out, nil
}

func convIndex(v any) (CustomIndex, error) {
	var ix CustomIndex
	obj, ok := v.(*object)
	if !ok {
		return ix, fmt.Errorf("expected an object {name?, columns, unique?}")
	}
	for _, m := range obj.members {
		var ok bool
		switch m.key {
		case "name", "index_name":
			ix.Name, ok = m.val.(string)
		case "columns":
			ix.Columns, ok = stringList(m.val)
			ok = ok && len(ix.Columns) > 0
		case "unique":
			var err error
			ix.Unique, err = checkBool(m.val)
			ok = err == nil
		default:
			return ix, fmt.Errorf("unknown key %q (expected name, columns, unique)", m.key)
		}
		if !ok {
			return ix, fmt.Errorf("%s: wrong type", m.key)
		}
	}
	if err := checkIdentifier(ix.Name); err != nil {
		return ix, fmt.Errorf("name: %w", err)
	}
	if len(ix.Columns) == 0 {
		return ix, fmt.Errorf("columns: expected a non-empty array of column names")
	}
	for _, c := range ix.Columns {
		if strings.TrimSpace(c) == "" {
			return ix, fmt.Errorf("columns: empty column name")
		}
	}
	return ix, nil
}
