package tablemap

import (
	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/table"
)

// p builds a property; children get their Name and Path set by tree.
func p(name string, types schema.TypeSet, mods ...func(*schema.Property)) *schema.Property {
	pr := &schema.Property{Name: name, Types: types, MaxLength: -1}
	for _, m := range mods {
		m(pr)
	}
	return pr
}

func format(f string) func(*schema.Property) { return func(p *schema.Property) { p.Format = f } }
func maxLen(n int) func(*schema.Property)    { return func(p *schema.Property) { p.MaxLength = n } }
func desc(d string) func(*schema.Property)   { return func(p *schema.Property) { p.Description = d } }
func decimal(prec, scale int) func(*schema.Property) {
	return func(p *schema.Property) {
		p.Format, p.Precision, p.Scale, p.HasScale = "x-singer.decimal", prec, scale, true
	}
}
func props(children ...*schema.Property) func(*schema.Property) {
	return func(p *schema.Property) { p.Properties, p.HasProperties = children, true }
}
func items(it *schema.Property) func(*schema.Property) {
	return func(p *schema.Property) { p.Items = it }
}

// tree returns a root object holding children, with every Path filled in.
func tree(children ...*schema.Property) *schema.Property {
	root := &schema.Property{Types: schema.Object, MaxLength: -1, Properties: children, HasProperties: true}
	setPaths(root, nil)
	return root
}

func setPaths(pr *schema.Property, path []string) {
	pr.Path = path
	for _, c := range pr.Properties {
		setPaths(c, append(append([]string(nil), path...), c.Name))
	}
	if pr.Items != nil {
		setPaths(pr.Items, path)
	}
}

const (
	str = schema.String
	num = schema.Number
	in  = schema.Integer
	bl  = schema.Boolean
	ob  = schema.Object
	ar  = schema.Array
	nl  = schema.Null
)
const anyType = schema.Any

// Column types the tests compare with.
var (
	tDec102 = table.Type{Kind: table.KindNumber, Precision: 10, Scale: 2}
	tTSTZ6  = table.Type{Kind: table.KindTimestamp, Frac: 6, TZ: true}
	tV30b   = table.Type{Kind: table.KindVarchar, Length: 30}
	tV4000b = table.Type{Kind: table.KindVarchar, Length: 4000}
	tClob   = table.Type{Kind: table.KindClob}
)
