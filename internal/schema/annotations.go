package schema

import (
	"fmt"
	"strings"
)

// applyAnnotations reads the keywords that select Oracle-native types:
// contentEncoding (binary strings), x-sql-datatype with its
// x-sql-datatype-properties (vectors, MeltanoLabs target-postgres's
// convention) and an array's minItems/maxItems (a vector's dimension when
// they agree).
func applyAnnotations(p *Property, o *object) error {
	if v, ok := o.vals["contentEncoding"].(string); ok {
		p.ContentEncoding = strings.ToLower(v)
	}
	if v, ok := o.vals["x-sql-datatype"].(string); ok {
		p.SQLDatatype = strings.ToLower(v)
	}
	for _, kw := range []string{"minItems", "maxItems"} {
		v, ok := o.get(kw)
		if !ok {
			continue
		}
		n, err := nonNegInt(v, kw)
		if err != nil {
			return err
		}
		if kw == "minItems" {
			p.MinItems = n
		} else {
			p.MaxItems = n
		}
	}
	props, ok := o.get("x-sql-datatype-properties")
	if !ok {
		return nil
	}
	po, ok := props.(*object)
	if !ok {
		return fmt.Errorf("x-sql-datatype-properties must be an object")
	}
	for _, kw := range []string{"dimensions", "dim"} {
		if v, ok := po.get(kw); ok && p.VectorDim == 0 {
			n, err := nonNegInt(v, "x-sql-datatype-properties."+kw)
			if err != nil {
				return err
			}
			p.VectorDim = n
		}
	}
	if v, ok := po.get("format"); ok {
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("x-sql-datatype-properties.format must be a string")
		}
		p.VectorFormat = strings.ToLower(s)
	}
	return nil
}

// intersectAnnotations narrows p's annotations by m's (allOf, or a node's
// own keywords with its anyOf/oneOf): a keyword either one sets applies.
func intersectAnnotations(p, m *Property) {
	if p.ContentEncoding == "" {
		p.ContentEncoding = m.ContentEncoding
	}
	if p.SQLDatatype == "" {
		p.SQLDatatype, p.VectorDim, p.VectorFormat = m.SQLDatatype, m.VectorDim, m.VectorFormat
	}
	if m.MinItems > p.MinItems {
		p.MinItems = m.MinItems
	}
	if m.MaxItems >= 0 && (p.MaxItems < 0 || m.MaxItems < p.MaxItems) {
		p.MaxItems = m.MaxItems
	}
}

// unionAnnotations keeps an annotation of the alternatives (anyOf/oneOf)
// only when every alternative that admits strings (contentEncoding) or
// arrays (the vector keywords) agrees, as for formats.
func unionAnnotations(p *Property, strs, arrs []*Property) {
	if len(strs) > 0 && allSame(strs, func(a *Property) string { return a.ContentEncoding }) {
		p.ContentEncoding = strs[0].ContentEncoding
	}
	if len(arrs) == 0 {
		return
	}
	vec := func(a *Property) string {
		return fmt.Sprint(a.SQLDatatype, a.VectorDim, a.VectorFormat, a.MinItems, a.MaxItems)
	}
	if allSame(arrs, vec) {
		a := arrs[0]
		p.SQLDatatype, p.VectorDim, p.VectorFormat, p.MinItems, p.MaxItems = a.SQLDatatype, a.VectorDim, a.VectorFormat, a.MinItems, a.MaxItems
	}
}
