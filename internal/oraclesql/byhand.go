package oraclesql

import (
	"fmt"
	"slices"
	"strings"

	"github.com/target-oracle/target-oracle/internal/table"
)

// Statements for a DBA to run by hand, quoted in the errors that refuse a
// change the target does not make on its own (SPEC §4, §6.2). They are
// text for people: the engine never runs them, and each ends with ';'.

// KeyChangeByHand replaces the primary key of cur, a table with rows, by
// the columns key (none: the key is only dropped). maxBytes is the
// identifier limit the constraint is named by (table.PrimaryKeyName).
func KeyChangeByHand(cur *table.Table, key []string, maxBytes int) []string {
	name := byHandName(cur)
	var steps []string
	if len(cur.PrimaryKey) > 0 {
		steps = append(steps, "ALTER TABLE "+name+" DROP PRIMARY KEY;")
	}
	if len(key) > 0 {
		steps = append(steps, fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s PRIMARY KEY (%s);", name,
			table.Quote(table.PrimaryKeyName(cur.Name, maxBytes)), quoteList(key)))
	}
	return steps
}

// HistoryByHand turns cur, a table no history load made, into one that
// keeps versions as want, the stream's history table, does: the history
// columns it lacks added, every row made a current version from the
// epoch, and the primary key extended by the valid-from.
func HistoryByHand(cur, want *table.Table) []string {
	name := byHandName(cur)
	var add []string
	for _, m := range table.HistoryColumns() {
		if cur.Column(m) == nil {
			add = append(add, table.Quote(m)+" "+want.Column(m).Type.String())
		}
	}
	keys := slices.DeleteFunc(slices.Clone(want.PrimaryKey), func(k string) bool { return k == table.MetaValidFrom })
	var steps []string
	if len(add) > 0 {
		steps = append(steps, fmt.Sprintf("ALTER TABLE %s ADD (%s);", name, strings.Join(add, ", ")))
	}
	epoch := "TIMESTAMP '1970-01-01 00:00:00'" // a UTC wall clock for TIMESTAMP(9)
	vf := cur.Column(table.MetaValidFrom)
	if vf == nil {
		vf = want.Column(table.MetaValidFrom)
	}
	if vf != nil && vf.Type.TZ {
		epoch = "TIMESTAMP '1970-01-01 00:00:00 +00:00'"
	}
	steps = append(steps,
		fmt.Sprintf("UPDATE %s SET %s = %s, %s = 1; COMMIT;", name, table.Quote(table.MetaValidFrom), epoch, table.Quote(table.MetaIsCurrent)))
	if len(cur.PrimaryKey) > 0 {
		steps = append(steps, fmt.Sprintf("ALTER TABLE %s DROP PRIMARY KEY;", name))
	}
	return append(steps, fmt.Sprintf("ALTER TABLE %s ADD PRIMARY KEY (%s);", name, quoteList(append(keys, table.MetaValidFrom))))
}

// byHandName is "SCHEMA"."NAME", as the refusals quote it.
func byHandName(t *table.Table) string { return table.Quote(t.Schema) + "." + table.Quote(t.Name) }
