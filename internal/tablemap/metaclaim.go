package tablemap

import (
	"fmt"
	"slices"
	"strings"

	"github.com/target-oracle/target-oracle/internal/table"
)

// checkMetaNames refuses a metadata column a setting needs (SPEC §5.4,
// §6.2 history, §6.4 delete_missing) whose name an existing column holds
// for a property: one loaded while the setting was off, when the name was
// free (a metadata name is kept from generated names only while its
// setting is on). The names are fixed, so nothing can part the two:
// sharing the column took the property's values for metadata (or refused
// valid records as bad date-times), and renaming it would move the user's
// column under their queries. The refusal (a configuration error, at the
// SCHEMA, before any DDL or row) names the property, the column and the
// setting. A column holds a property when a property candidate matched it
// or its comment names a property (matchExisting).
func (b *builder) checkMetaNames(all []*cand, existing *table.Table) error {
	if existing == nil {
		return nil
	}
	for _, m := range b.meta {
		if m.optional {
			continue
		}
		i := m.existing
		if i < 0 {
			i = slices.IndexFunc(existing.Columns, func(c table.Column) bool { return c.Name == m.name })
		}
		if i < 0 {
			continue
		}
		prop := ""
		for _, c := range all {
			if c.existing == i && c.role == table.RoleProperty {
				prop = c.path
			}
		}
		if prop == "" {
			col := existing.Columns[i]
			role, src := col.Role, col.Source
			if src == nil {
				role, src, _, _ = table.ParseComment(col.Comment)
			}
			if src == nil || role != table.RoleProperty {
				continue // the metadata column itself, or one adopted by name
			}
			prop = strings.Join(src, ".")
		}
		key, setting := b.metaSetting(m.meta)
		return &table.ConfigError{Setting: key, Msg: fmt.Sprintf(
			"stream %q: column %s of table %s holds property %q, and %s needs a metadata column of that name: "+
				"load the stream into a new table (table_name_mappings), rename the column in the database, or leave %s off for this stream",
			b.stream, existing.Columns[i].Name, existing.QualifiedName(), prop, setting, setting)}
	}
	return nil
}

// metaSetting names what makes metadata column m needed (collect): the
// setting's key and how the message words it.
func (b *builder) metaSetting(m string) (key, words string) {
	o := b.opts
	hist := table.HistoryColumns()
	switch {
	case slices.Contains(hist[:], m):
		return "load_method", "load_method history"
	case m == table.MetaRunID, m == table.MetaDeletedAt && o.UsesRunID && !o.AddRecordMetadata:
		return "delete_missing", "delete_missing"
	case o.AddRecordMetadata:
		return "add_record_metadata", "add_record_metadata"
	case m == table.MetaReceivedAt:
		return "partitioning", "partitioning"
	}
	return "add_record_metadata", "the stream's versions or _sdc_deleted_at (with add_record_metadata false)"
}
