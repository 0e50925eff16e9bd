package pipeline

import (
	"slices"
	"strings"

	"github.com/target-oracle/target-oracle/internal/table"
)

// The shared-table guards (SPEC §4, §6.2): a table's rows do not record
// their stream, so a stream must not delete or replace rows that other
// streams loaded there. ACTIVATE_VERSION is refused, overwrite and
// truncate_before_load are refused, and delete_missing prunes nothing
// when another stream shares the table. otherSharers is the one list
// they all go by.

// mappedTables lists, per SCHEMA.TABLE, the streams the configuration
// itself puts in that table, in name order: those table_name_mappings
// maps to it, and the input streams stream_maps aliases (__alias__) into
// the output stream loading it (streammap.Mapper.Aliased), each with
// where it comes from. It is made once per run, before any worker
// starts, and only read after.
func (p *pipeline) mappedTables() map[string][]configSharer {
	out := map[string][]configSharer{}
	tableOf := func(stream string) (string, bool) {
		o := p.tableOptions(stream, p.cfg.ForStream(stream))
		name, err := table.TableName(stream, &o)
		if err != nil {
			return "", false // the stream's own SCHEMA reports it
		}
		return o.Schema + "." + name, true
	}
	for _, stream := range sortedKeys(p.cfg.TableNameMappings) {
		if q, ok := tableOf(stream); ok {
			out[q] = append(out[q], configSharer{stream, sharedByMapping})
		}
	}
	aliased := p.maps.Aliased()
	for _, output := range sortedKeys(aliased) {
		q, ok := tableOf(output)
		if !ok {
			continue
		}
		for _, input := range aliased[output] {
			out[q] = append(out[q], configSharer{input, sharedByAlias})
		}
	}
	return out
}

// configSharer is a stream the configuration puts in a table, and how.
type configSharer struct {
	stream string
	why    string // sharedByMapping or sharedByAlias
}

// Where the sharers otherSharers finds come from, for the guards'
// messages.
const (
	sharedByComment = "its comment names them"
	sharedByMapping = "table_name_mappings maps them to it"
	sharedByAlias   = "stream_maps aliases them into the stream loading it"
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
	var whys []string
	note := func(why string) {
		if !slices.Contains(whys, why) {
			whys = append(whys, why)
		}
	}
	for _, r := range recorded {
		if !among(r, besides) {
			others = append(others, r)
			note(sharedByComment)
		}
	}
	for _, s := range p.mapped[qualified] {
		if among(s.stream, besides, thisRun) {
			continue
		}
		note(s.why)
		if !table.StreamsInclude(others, s.stream) {
			others = append(others, s.stream)
		}
	}
	return others, strings.Join(whys, ", or ")
}
