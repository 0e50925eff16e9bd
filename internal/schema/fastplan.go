package schema

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/target-oracle/target-oracle/internal/jsonscan"
	"github.com/target-oracle/target-oracle/internal/value"
)

// kinds is a set of JSON value kinds as the validator library sees them,
// with numbers split by whether their value is an integer (1.0 and 1e2 are).
type kinds uint8

const (
	kNull kinds = 1 << iota
	kBool
	kString
	kInt  // a number whose value is an integer
	kFrac // a number with a fractional part
	kObject
	kArray

	kNumber = kInt | kFrac
	kAll    = kNull | kBool | kString | kNumber | kObject | kArray
)

// formatCheck is a format the validator asserts (SPEC §4); every other
// format is an annotation.
type formatCheck uint8

const (
	fmtNone formatCheck = iota
	fmtDateTime
	fmtDate
	fmtTime
	fmtDecimal // x-singer.decimal: a string holding a valid number
)

// scalar is one enum or const value.
type scalar struct {
	kind kinds // kNull, kBool, kString, kInt or kFrac
	s    string
	b    bool
	d    decimal
}

// bound is a minimum, maximum or exclusive bound.
type bound struct {
	d  decimal
	op int8 // the results of cmpDecimal(value, d) that fail: see failsBound
}

const (
	opMin  int8 = iota // fails when value < d
	opMax              // fails when value > d
	opXMin             // fails when value <= d
	opXMax             // fails when value >= d
)

// fprop is a property of an object node, or a required name that is not
// among the properties (node nil, viaAddl set).
type fprop struct {
	name    string
	node    *fnode // nil: anything
	viaAddl bool   // the value is checked by additionalProperties
	plain   bool   // name is valid UTF-8 without '"', '\\' or control characters
	bit     uint64 // the required bit, 0 when not required
}

// fnode is one compiled subschema. A nil *fnode where a subschema may be
// (additionalProperties, items, a property) accepts anything.
type fnode struct {
	always int8  // +1: accepts every value (true, {}), -1: none (false)
	types  kinds // kinds "type", enum and const allow; kAll without them

	// Which kind-specific checks exist, so that values of a kind without
	// any are only scanned.
	str, num, obj, arr bool

	hasEnum  bool
	enum     []scalar
	hasConst bool
	cnst     scalar

	minLen, maxLen int // -1 when absent
	format         formatCheck
	pattern        *regexp.Regexp

	mult   *divisor
	bounds []bound

	props   []fprop
	index   map[string]int // props by name, for objects with many properties
	reqMask uint64
	addl    *fnode

	items              *fnode
	minItems, maxItems int // -1 when absent

	all  []*fnode   // allOf, and for draft 2019+ the target of $ref
	alts [][]*fnode // anyOf, and oneOf with kind-disjoint branches: one must pass

	// combOnly: the node has nothing but combinators, so the branches alone
	// walk the value.
	combOnly bool
	// direct: the node has no combinator and is not always or never
	// valid, so a value goes straight to the walk of its kind.
	direct bool
	// possible is every kind a value accepted by this node can have; it lets
	// anyOf skip branches without walking the value.
	possible kinds
}

// indexFrom is the property count above which lookups use a map.
const indexFrom = 8

// planBuilder compiles a decoded schema into fnodes.
type planBuilder struct {
	root   any
	draft  int
	memo   map[*object]*fnode
	active map[*object]bool
}

// draftOf maps a metaschema URI (one knownDraft accepts) to its draft; 0
// for the draft-less "json-schema.org/schema", which is not covered.
func draftOf(s string) int {
	switch {
	case strings.Contains(s, "draft-04"):
		return 4
	case strings.Contains(s, "draft-06"):
		return 6
	case strings.Contains(s, "draft-07"):
		return 7
	case strings.Contains(s, "2019-09"):
		return 2019
	case strings.Contains(s, "2020-12"):
		return 2020
	}
	return 0
}

// unsupportedKeyword reports the keywords the plan does not implement: a
// schema using any of them (in any draft, even one where the library
// ignores it) is not covered.
func unsupportedKeyword(k string) bool {
	switch k {
	case "not", "if", "then", "else",
		"patternProperties", "dependencies", "dependentRequired", "dependentSchemas",
		"propertyNames", "minProperties", "maxProperties",
		"contains", "minContains", "maxContains", "additionalItems", "prefixItems",
		"unevaluatedItems", "unevaluatedProperties",
		"$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary":
		return true
	}
	return false
}

const maxPlanDepth = 2 * MaxDepth

func (b *planBuilder) node(v any, depth int) (*fnode, error) {
	if depth > maxPlanDepth {
		return nil, fmt.Errorf("schema nested deeper than %d levels", maxPlanDepth)
	}
	switch v := v.(type) {
	case bool:
		if v {
			return &fnode{always: 1, possible: kAll}, nil
		}
		return &fnode{always: -1}, nil
	case *object:
		if n, ok := b.memo[v]; ok {
			return n, nil
		}
		if b.active[v] {
			return nil, fmt.Errorf("recursive $ref")
		}
		b.active[v] = true
		defer delete(b.active, v)
		n, err := b.objectNode(v, depth)
		if err != nil {
			return nil, err
		}
		b.memo[v] = n
		return n, nil
	}
	return nil, fmt.Errorf("subschema of type %T", v)
}

func (b *planBuilder) objectNode(o *object, depth int) (*fnode, error) {
	ref, hasRef := o.get("$ref")
	var target *fnode
	if hasRef {
		s, ok := ref.(string)
		if !ok {
			return nil, fmt.Errorf("$ref is not a string")
		}
		t, err := (&resolver{root: b.root}).lookupRef(s)
		if err != nil {
			return nil, fmt.Errorf("$ref %q: %w", s, err)
		}
		if target, err = b.node(t, depth+1); err != nil {
			return nil, err
		}
		if b.draft < 2019 {
			return target, nil // drafts 4–7 ignore every keyword beside $ref
		}
	}
	n := &fnode{types: kAll, minLen: -1, maxLen: -1, minItems: -1, maxItems: -1}
	if target != nil {
		n.all = append(n.all, target)
	}
	var required []string
	var maximum, minimum *decimal
	var xmax, xmin any
	for _, k := range o.keys {
		v := o.vals[k]
		var err error
		switch k {
		case "$ref":
		case "$schema":
			if o != b.root {
				return nil, fmt.Errorf("$schema in a subschema")
			}
		case "id":
			if _, ok := v.(string); ok && b.draft == 4 {
				return nil, fmt.Errorf("keyword \"id\"")
			}
		case "type":
			n.types, err = typeKinds(v)
		case "enum":
			n.hasEnum = true
			n.enum, err = scalarList(v)
		case "const":
			if b.draft >= 6 {
				n.hasConst = true
				n.cnst, err = toScalar(v)
			}
		case "format":
			if f, ok := v.(string); ok {
				n.format = formatNamed(f)
			}
		case "minLength":
			n.minLen, err = planInt(v, k)
		case "maxLength":
			n.maxLen, err = planInt(v, k)
		case "minItems":
			n.minItems, err = planInt(v, k)
		case "maxItems":
			n.maxItems, err = planInt(v, k)
		case "pattern":
			err = n.setPattern(v)
		case "multipleOf":
			err = n.setMultipleOf(v)
		case "minimum":
			minimum, err = planDecimal(v, k)
		case "maximum":
			maximum, err = planDecimal(v, k)
		case "exclusiveMinimum":
			xmin = v
		case "exclusiveMaximum":
			xmax = v
		case "required":
			required, err = stringList(v)
		case "properties":
			err = b.setProperties(n, v, depth)
		case "additionalProperties":
			n.addl, err = b.node(v, depth+1)
		case "items":
			if _, isList := v.([]any); isList {
				return nil, fmt.Errorf("tuple \"items\"")
			}
			n.items, err = b.node(v, depth+1)
		case "uniqueItems":
			if v != false {
				return nil, fmt.Errorf("keyword \"uniqueItems\"")
			}
		case "allOf":
			var list []*fnode
			list, err = b.nodeList(v, depth)
			n.all = append(n.all, list...)
		case "anyOf":
			var list []*fnode
			list, err = b.nodeList(v, depth)
			n.alts = append(n.alts, list)
		case "oneOf":
			var list []*fnode
			if list, err = b.nodeList(v, depth); err == nil {
				err = disjoint(list)
			}
			n.alts = append(n.alts, list)
		default:
			if unsupportedKeyword(k) {
				return nil, fmt.Errorf("keyword %q", k)
			}
			// Annotations (title, description, default, examples,
			// definitions, …) and unknown keywords: ignored, as by the
			// validator library.
		}
		if err != nil {
			return nil, err
		}
	}
	if err := n.setBounds(minimum, maximum, xmin, xmax); err != nil {
		return nil, err
	}
	if err := n.setRequired(required); err != nil {
		return nil, err
	}
	n.finish()
	return n, nil
}

// finish derives the summary fields once every keyword is in.
func (n *fnode) finish() {
	n.str = n.minLen >= 0 || n.maxLen >= 0 || n.format != fmtNone || n.pattern != nil || n.hasEnum || n.hasConst
	n.num = n.mult != nil || len(n.bounds) > 0 || n.hasEnum || n.hasConst
	n.obj = len(n.props) > 0 || n.addl != nil || n.reqMask != 0
	n.arr = n.items != nil || n.minItems >= 0 || n.maxItems >= 0
	// enum and const hold only scalars (objects and arrays are not
	// covered), so they also restrict the kinds.
	if n.hasEnum {
		var e kinds
		for _, s := range n.enum {
			e |= s.kind
		}
		n.types &= e
	}
	if n.hasConst {
		n.types &= n.cnst.kind
	}
	own := n.types != kAll || n.str || n.num || n.obj || n.arr
	combinators := len(n.all) > 0 || len(n.alts) > 0
	n.combOnly = !own && combinators
	if !own && !combinators {
		n.always = 1 // {} or annotations only
	}
	n.direct = n.always == 0 && !combinators

	p := n.types
	for _, a := range n.all {
		p &= a.possible
	}
	for _, list := range n.alts {
		var u kinds
		for _, a := range list {
			u |= a.possible
		}
		p &= u
	}
	n.possible = p
}

func (b *planBuilder) nodeList(v any, depth int) ([]*fnode, error) {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil, fmt.Errorf("combinator that is not a list of schemas")
	}
	out := make([]*fnode, len(list))
	for i, e := range list {
		var err error
		if out[i], err = b.node(e, depth+1); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// disjoint accepts a oneOf only when no value can pass two of its branches,
// so that "exactly one" is "at least one" (the Singer form: null and one
// other type).
func disjoint(list []*fnode) error {
	var seen kinds
	for _, n := range list {
		if n.possible&seen != 0 {
			return fmt.Errorf("oneOf with branches that overlap")
		}
		seen |= n.possible
	}
	return nil
}

func (b *planBuilder) setProperties(n *fnode, v any, depth int) error {
	o, ok := v.(*object)
	if !ok {
		return fmt.Errorf("\"properties\" is not an object")
	}
	for _, name := range o.keys {
		child, err := b.node(o.vals[name], depth+1)
		if err != nil {
			return err
		}
		n.props = append(n.props, fprop{name: name, node: child})
	}
	return nil
}

func (n *fnode) setRequired(names []string) error {
	var bit uint64 = 1
	for _, name := range names {
		i := n.find(name)
		if i < 0 {
			n.props = append(n.props, fprop{name: name, viaAddl: true})
			i = len(n.props) - 1
		}
		if n.props[i].bit != 0 {
			continue // listed twice
		}
		if bit == 0 {
			return fmt.Errorf("more than 64 required properties in one object")
		}
		n.props[i].bit = bit
		n.reqMask |= bit
		bit <<= 1
	}
	for i := range n.props {
		n.props[i].plain = jsonscan.Plain(n.props[i].name)
	}
	if len(n.props) > indexFrom {
		n.index = make(map[string]int, len(n.props))
		for i, p := range n.props {
			n.index[p.name] = i
		}
	}
	return nil
}

func (n *fnode) find(name string) int {
	for i, p := range n.props {
		if p.name == name {
			return i
		}
	}
	return -1
}

// setBounds applies the library's rule for the draft 4 boolean forms: a
// true exclusiveMaximum turns maximum into an exclusive bound.
func (n *fnode) setBounds(minimum, maximum *decimal, xmin, xmax any) error {
	add := func(d *decimal, op int8) {
		if d != nil {
			n.bounds = append(n.bounds, bound{d: *d, op: op})
		}
	}
	for _, side := range []struct {
		plain   *decimal
		x       any
		op, xop int8
		kw      string
	}{{minimum, xmin, opMin, opXMin, "exclusiveMinimum"}, {maximum, xmax, opMax, opXMax, "exclusiveMaximum"}} {
		switch x := side.x.(type) {
		case nil:
			add(side.plain, side.op)
		case bool:
			if x {
				add(side.plain, side.xop)
			} else {
				add(side.plain, side.op)
			}
		default:
			d, err := planDecimal(x, side.kw)
			if err != nil {
				return err
			}
			add(side.plain, side.op)
			add(d, side.xop)
		}
	}
	return nil
}

func (n *fnode) setPattern(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("\"pattern\" is not a string")
	}
	re, err := compilePattern(s)
	if err != nil {
		return fmt.Errorf("pattern %q: %w", s, err)
	}
	n.pattern = re
	return nil
}

func (n *fnode) setMultipleOf(v any) error {
	num, ok := v.(json.Number)
	if !ok {
		return fmt.Errorf("\"multipleOf\" is not a number")
	}
	if n.mult, ok = newDivisor(num); !ok {
		return fmt.Errorf("multipleOf %s out of the covered range", num)
	}
	return nil
}

func typeKinds(v any) (kinds, error) {
	names, ok := v.([]any)
	if !ok {
		names = []any{v}
	}
	var k kinds
	for _, e := range names {
		s, _ := e.(string)
		switch s {
		case "null":
			k |= kNull
		case "boolean":
			k |= kBool
		case "string":
			k |= kString
		case "integer":
			k |= kInt
		case "number":
			k |= kNumber
		case "object":
			k |= kObject
		case "array":
			k |= kArray
		default:
			return 0, fmt.Errorf("type %v", e)
		}
	}
	if len(names) == 0 {
		return kAll, nil // the library treats an empty list as no "type"
	}
	return k, nil
}

func formatNamed(f string) formatCheck {
	switch f {
	case "date-time":
		return fmtDateTime
	case "date":
		return fmtDate
	case "time":
		return fmtTime
	case "x-singer.decimal":
		return fmtDecimal
	}
	return fmtNone
}

func scalarList(v any) ([]scalar, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("\"enum\" is not a list")
	}
	out := make([]scalar, len(list))
	for i, e := range list {
		var err error
		if out[i], err = toScalar(e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func toScalar(v any) (scalar, error) {
	switch v := v.(type) {
	case nil:
		return scalar{kind: kNull}, nil
	case bool:
		return scalar{kind: kBool, b: v}, nil
	case string:
		return scalar{kind: kString, s: v}, nil
	case json.Number:
		d, ok := parseDecimal(string(v))
		if !ok {
			return scalar{}, fmt.Errorf("enum or const number %s out of the covered range", v)
		}
		k := kFrac
		if d.point >= d.n {
			k = kInt
		}
		return scalar{kind: k, d: d}, nil
	}
	return scalar{}, fmt.Errorf("enum or const value that is an object or array")
}

func stringList(v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("\"required\" is not a list")
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("\"required\" holds a non-string")
		}
		out = append(out, s)
	}
	return out, nil
}

// planInt reads a length or count keyword; the library takes any number
// with an integer value.
func planInt(v any, kw string) (int, error) {
	num, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("%q is not a number", kw)
	}
	canon, info, err := value.CanonicalNumber(string(num))
	if err != nil || !info.Integer || len(canon) > 9 || strings.HasPrefix(canon, "-") {
		return 0, fmt.Errorf("%s %s out of the covered range", kw, num)
	}
	n := 0
	for _, c := range canon {
		n = n*10 + int(c-'0')
	}
	return n, nil
}

func planDecimal(v any, kw string) (*decimal, error) {
	num, ok := v.(json.Number)
	if !ok {
		return nil, fmt.Errorf("%q is not a number", kw)
	}
	d, ok := parseDecimal(string(num))
	if !ok {
		return nil, fmt.Errorf("%s %s out of the covered range", kw, num)
	}
	return &d, nil
}
