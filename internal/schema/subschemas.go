package schema

// eachSubschema calls fn for every object in a schema position below v
// (properties, items, allOf, definitions, …), depth counting from v's
// children at 1. It stops, returning true, as soon as fn returns true;
// nesting deeper than maxPlanDepth stops it too, returning tooDeep.
func eachSubschema(v any, depth int, tooDeep bool, fn func(*object) bool) bool {
	if depth > maxPlanDepth {
		return tooDeep
	}
	switch v := v.(type) {
	case []any: // a list of subschemas, or draft 4–7 tuple items
		for _, e := range v {
			if eachSubschema(e, depth+1, tooDeep, fn) {
				return true
			}
		}
	case *object:
		if depth > 0 && fn(v) {
			return true
		}
		for _, k := range v.keys {
			switch keywordShape(k) {
			case schemaVal, schemaList:
				if eachSubschema(v.vals[k], depth+1, tooDeep, fn) {
					return true
				}
			case schemaMap:
				if m, ok := v.vals[k].(*object); ok {
					for _, name := range m.keys {
						if eachSubschema(m.vals[name], depth+1, tooDeep, fn) {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// draft04 is the $schema a schema without one is read as when it uses
// draft 4's boolean exclusiveMinimum/exclusiveMaximum.
const draft04 = "http://json-schema.org/draft-04/schema#"

// usesDraft4Bounds reports whether a schema (or one of its subschemas)
// writes exclusiveMinimum or exclusiveMaximum as a boolean: draft 4's form,
// which later drafts refuse (they take a number). PipelineWise and Stitch
// taps (tap-postgres, tap-mysql) write it for numeric columns without
// naming a $schema.
func usesDraft4Bounds(doc any) bool {
	isBound := func(o *object) bool {
		_, xmin := o.vals["exclusiveMinimum"].(bool)
		_, xmax := o.vals["exclusiveMaximum"].(bool)
		return xmin || xmax
	}
	if root, ok := doc.(*object); ok && isBound(root) {
		return true
	}
	return eachSubschema(doc, 0, false, isBound)
}
