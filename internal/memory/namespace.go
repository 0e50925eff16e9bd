package memory

import "github.com/target-oracle/target-oracle/internal/table"

// namespace indexes the names each schema's tables and indexes take
// (tables and indexes share a schema's namespace on Oracle, ORA-00955), so
// that creating a table or an index checks its names in time independent
// of how many tables there are: a run of 10,000 streams creates 10,000
// tables, and a scan over all of them per creation made the dry run
// quadratic. Engine.setNames keeps it in step with e.tables: every place
// that stores a table or changes its definition calls it.
type namespace struct {
	owners map[nameKey][]nameOwner
	held   map[string][]nameKey // qualified table -> the names it takes
}

type nameKey struct{ schema, name string }

type nameKind uint8

// The kinds in the order nameFree reports them when one table takes a
// name twice.
const (
	nameTable nameKind = iota
	nameIndex
	namePrimaryKey
)

type nameOwner struct {
	table string // qualified
	kind  nameKind
}

// set records the names def takes under its qualified name q, replacing
// what q took before.
func (n *namespace) set(q string, def *table.Table) {
	if n.owners == nil {
		n.owners, n.held = map[nameKey][]nameOwner{}, map[string][]nameKey{}
	}
	n.remove(q)
	keys := make([]nameKey, 0, 2+len(def.Indexes))
	add := func(name string, kind nameKind) {
		k := nameKey{def.Schema, name}
		n.owners[k] = append(n.owners[k], nameOwner{q, kind})
		keys = append(keys, k)
	}
	add(def.Name, nameTable)
	for _, ix := range def.Indexes {
		add(ix.Name, nameIndex)
	}
	if len(def.PrimaryKey) > 0 {
		add(primaryKeyName(def), namePrimaryKey)
	}
	n.held[q] = keys
}

// remove forgets the names q takes.
func (n *namespace) remove(q string) {
	for _, k := range n.held[q] {
		os := n.owners[k]
		kept := os[:0]
		for _, o := range os {
			if o.table != q {
				kept = append(kept, o)
			}
		}
		if len(kept) == 0 {
			delete(n.owners, k)
		} else {
			n.owners[k] = kept
		}
	}
	delete(n.held, q)
}

// taken returns a table other than q that takes name in schema, and how
// (the first by qualified name, then kind, so the answer does not depend
// on the order tables were made in).
func (n *namespace) taken(q, schema, name string) (nameOwner, bool) {
	var best nameOwner
	found := false
	for _, o := range n.owners[nameKey{schema, name}] {
		if o.table == q {
			continue
		}
		if !found || o.table < best.table || (o.table == best.table && o.kind < best.kind) {
			best, found = o, true
		}
	}
	return best, found
}
