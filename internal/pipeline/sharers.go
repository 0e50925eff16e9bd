package pipeline

import (
	"slices"

	"github.com/target-oracle/target-oracle/internal/table"
)

// The shared-table guards (SPEC §4, §6.2): a table's rows do not record
// their stream, so a stream must not delete or replace rows that other
// streams loaded there. ACTIVATE_VERSION is refused, overwrite and
// truncate_before_load are refused, and delete_missing prunes nothing
// when another stream shares the table. otherSharers is the one list
// they all go by.

// mappedTables lists, per SCHEMA.TABLE, the streams table_name_mappings
// maps to that table, in name order: the configuration's static mapping
// of streams to tables. It is made once per run, before any worker
// starts, and only read after.
func (p *pipeline) mappedTables() map[string][]string {
	out := map[string][]string{}
	for _, stream := range sortedKeys(p.cfg.TableNameMappings) {
		o := p.tableOptions(stream, p.cfg.ForStream(stream))
		name, err := table.TableName(stream, &o)
		if err != nil {
			continue // the stream's own SCHEMA reports it
		}
		q := o.Schema + "." + name
		out[q] = append(out[q], stream)
	}
	return out
}

// Where the sharers otherSharers finds come from, for the guards'
// messages.
const (
	sharedByComment = "its comment names them"
	sharedByConfig  = "table_name_mappings maps them to it"
	sharedByBoth    = "its comment names them, or table_name_mappings maps them to it"
)

// otherSharers lists the streams besides besides (the stream asking, and
// whoever else the guard lets pass) that share table qualified
// (SCHEMA.TABLE): those its comment records (recorded, names or digests
// of long names: table.StreamsInclude) and those the configuration maps
// to it (table_name_mappings) besides thisRun too (streams loading the
// table in this run, where the guard lets those pass), whether or not
// the comment records them (a table made by hand, or whose comment a DBA
// replaced, records none) and whether or not they appear in this run.
// why says where they come from (sharedByComment, sharedByConfig,
// sharedByBoth), "" when none.
func (p *pipeline) otherSharers(qualified string, recorded, besides, thisRun []string) (others []string, why string) {
	among := func(name string, lists ...[]string) bool {
		for _, l := range lists {
			if slices.ContainsFunc(l, func(l string) bool { return table.StreamsInclude([]string{name}, l) }) {
				return true
			}
		}
		return false
	}
	byComment, byConfig := false, false
	for _, r := range recorded {
		if !among(r, besides) {
			others, byComment = append(others, r), true
		}
	}
	for _, s := range p.mapped[qualified] {
		if among(s, besides, thisRun) {
			continue
		}
		byConfig = true
		if !table.StreamsInclude(others, s) {
			others = append(others, s)
		}
	}
	switch {
	case byComment && byConfig:
		why = sharedByBoth
	case byComment:
		why = sharedByComment
	case byConfig:
		why = sharedByConfig
	}
	return others, why
}
