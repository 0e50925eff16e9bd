package schema

import "fmt"

// maxExpanded bounds the size of a schema with every $ref replaced by its
// target, counted over all keywords that hold subschemas (if/then/else,
// not, anyOf, … as well as properties). A few kilobytes of $refs can
// otherwise describe a tree of 2^40 nodes that the validator walks for
// every record (if and then both referring to the next level); the
// property tree's own limit (maxNodes) does not see keywords that add no
// properties. A recursive schema ($ref to an ancestor) counts once per
// cycle: the validator follows it only as deep as the data goes.
const maxExpanded = 250_000

// checkExpanded returns an error when doc expands past maxExpanded nodes.
// It runs in time linear in the document (each object's size is memoized).
func checkExpanded(doc any) error {
	e := expander{r: &resolver{root: doc}, memo: map[*object]int{}, active: map[*object]bool{}}
	if n := e.size(doc, 0); n > maxExpanded {
		return fmt.Errorf("schema expands to more than %d subschemas once its $refs are followed", maxExpanded)
	}
	return nil
}

type expander struct {
	r      *resolver
	memo   map[*object]int
	active map[*object]bool
}

// size is the expanded node count of the subschema v, saturated just past
// maxExpanded.
func (e *expander) size(v any, depth int) int {
	o, ok := v.(*object)
	if !ok || depth > maxPlanDepth {
		return 1
	}
	if n, ok := e.memo[o]; ok {
		return n
	}
	if e.active[o] {
		return 1 // a cycle: followed lazily, as deep as the data
	}
	e.active[o] = true
	defer delete(e.active, o)
	n := 1
	add := func(m int) { n = min(n+m, maxExpanded+1) }
	if ref, ok := o.vals["$ref"].(string); ok {
		if t, err := e.r.lookupRef(ref); err == nil {
			add(e.size(t, depth+1))
		}
	}
	for _, k := range o.keys {
		switch keywordShape(k) {
		case schemaVal, schemaList:
			add(e.list(o.vals[k], depth))
		case schemaMap:
			if m, ok := o.vals[k].(*object); ok {
				for _, name := range m.keys {
					add(e.size(m.vals[name], depth+1))
				}
			}
		}
	}
	e.memo[o] = n
	return n
}

// list sizes a subschema or a list of them (draft 4–7 tuple items).
func (e *expander) list(v any, depth int) int {
	arr, ok := v.([]any)
	if !ok {
		return e.size(v, depth+1)
	}
	n := 0
	for _, s := range arr {
		n = min(n+e.size(s, depth+1), maxExpanded+1)
	}
	return n
}
