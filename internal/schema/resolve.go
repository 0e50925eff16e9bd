package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/target-oracle/target-oracle/internal/value"
)

const (
	// MaxDepth is the deepest nesting of object properties and array items a
	// schema may have. Deeper schemas are refused at compile time rather
	// than risking the stack or producing absurd column paths.
	MaxDepth = 256 // 200 levels of nesting must load (SPEC limits), with room for tap wrappers
	// maxNodes bounds the size of the resolved property tree: $ref lets a
	// small schema expand exponentially ("billion laughs").
	maxNodes = 100_000
)

// resolver builds the Property tree of a decoded schema.
type resolver struct {
	root any
	// active holds the $ref targets being expanded on the current path; a
	// $ref back to one of them is a cycle and is cut there.
	active map[*object]bool
	nodes  int
}

func newAny(name string, path []string) *Property {
	return &Property{Name: name, Path: path, Types: Any, MaxLength: -1, MinItems: -1, MaxItems: -1}
}

// childPath returns path+name without sharing path's backing array.
func childPath(path []string, name string) []string {
	return append(path[:len(path):len(path)], name)
}

func where(path []string) string {
	if len(path) == 0 {
		return "the root"
	}
	return strconv.Quote(strings.Join(path, "."))
}

// build resolves the schema v of the property at path (depth levels down).
func (r *resolver) build(v any, name string, path []string, depth int) (*Property, error) {
	if depth > MaxDepth {
		return nil, fmt.Errorf("schema nested deeper than %d levels at property %s", MaxDepth, where(path))
	}
	if r.nodes++; r.nodes > maxNodes {
		return nil, fmt.Errorf("schema expands to more than %d properties (at %s)", maxNodes, where(path))
	}
	o, ok := v.(*object)
	if !ok {
		if _, isBool := v.(bool); isBool {
			return newAny(name, path), nil
		}
		return nil, fmt.Errorf("schema of %s: expected an object or a boolean", where(path))
	}
	if ref, ok := o.get("$ref"); ok {
		return r.buildRef(o, ref, name, path, depth)
	}
	p := newAny(name, path)
	if err := r.applyOwn(p, o, depth); err != nil {
		return nil, err
	}
	if all, ok := o.get("allOf"); ok {
		list, err := r.buildList(all, "allOf", name, path, depth)
		if err != nil {
			return nil, err
		}
		for _, m := range list {
			intersect(p, m)
		}
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if alts, ok := o.get(kw); ok {
			list, err := r.buildList(alts, kw, name, path, depth)
			if err != nil {
				return nil, err
			}
			intersect(p, union(list, name, path))
		}
	}
	return p, nil
}

// buildRef resolves a $ref. As in drafts 4–7, keywords beside $ref are
// ignored, except "description" which is kept for the column comment. A
// $ref back to a schema being expanded on this path (a self-referencing
// tree) is cut: that property is untyped, with no properties, while the
// validator still follows the recursion on real records.
func (r *resolver) buildRef(o *object, ref any, name string, path []string, depth int) (*Property, error) {
	s, ok := ref.(string)
	if !ok {
		return nil, fmt.Errorf("schema of %s: $ref must be a string", where(path))
	}
	target, err := r.lookupRef(s)
	if err != nil {
		return nil, fmt.Errorf("schema of %s: $ref %q: %w", where(path), s, err)
	}
	var p *Property
	if t, ok := target.(*object); ok && r.active[t] {
		p = newAny(name, path)
	} else {
		if ok {
			r.active[t] = true
			defer delete(r.active, t)
		}
		if p, err = r.build(target, name, path, depth); err != nil {
			return nil, err
		}
	}
	if d, ok := o.vals["description"].(string); ok {
		p.Description = d
	}
	return p, nil
}

// lookupRef resolves a local reference: "#", or "#" followed by a JSON
// pointer such as "#/definitions/address" or "#/$defs/node".
func (r *resolver) lookupRef(ref string) (any, error) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, fmt.Errorf("only local references (#/definitions/…) are supported")
	}
	// RFC 6901 §6, as the validator library does it: the fragment is
	// percent-decoded first, so "%2F" separates tokens like "/".
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return nil, err
	}
	if frag == "" {
		return r.root, nil
	}
	if frag[0] != '/' {
		return nil, fmt.Errorf("only JSON pointer references (#/…) are supported")
	}
	cur := r.root
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case *object:
			if cur, ok = c.vals[tok]; !ok {
				return nil, fmt.Errorf("%q not found", tok)
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("index %q not found", tok)
			}
			cur = c[i]
		default:
			return nil, fmt.Errorf("%q not found", tok)
		}
	}
	return cur, nil
}

func (r *resolver) buildList(v any, kw, name string, path []string, depth int) ([]*Property, error) {
	arr, ok := v.([]any)
	if !ok || len(arr) == 0 {
		return nil, fmt.Errorf("schema of %s: %s must be a non-empty array", where(path), kw)
	}
	out := make([]*Property, len(arr))
	for i, m := range arr {
		p, err := r.build(m, name, path, depth)
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// applyOwn sets p from the schema's own keywords (not allOf/anyOf/oneOf).
func (r *resolver) applyOwn(p *Property, o *object, depth int) error {
	if t, ok := o.get("type"); ok {
		ts, err := parseTypes(t)
		if err != nil {
			return fmt.Errorf("schema of %s: %w", where(p.Path), err)
		}
		p.Types = ts
	}
	p.Format, _ = o.vals["format"].(string)
	p.Description, _ = o.vals["description"].(string)
	if err := applyNumbers(p, o); err != nil {
		return fmt.Errorf("schema of %s: %w", where(p.Path), err)
	}
	if err := applyAnnotations(p, o); err != nil {
		return fmt.Errorf("schema of %s: %w", where(p.Path), err)
	}
	if props, ok := o.get("properties"); ok {
		po, ok := props.(*object)
		if !ok {
			return fmt.Errorf("schema of %s: properties must be an object", where(p.Path))
		}
		p.HasProperties = true
		p.Properties = make([]*Property, 0, len(po.keys))
		for _, k := range po.keys {
			c, err := r.build(po.vals[k], k, childPath(p.Path, k), depth+1)
			if err != nil {
				return err
			}
			p.Properties = append(p.Properties, c)
		}
	}
	markRequired(p, o)
	if items, ok := o.get("items"); ok {
		ipath := childPath(p.Path, "[]")
		if _, tuple := items.([]any); tuple {
			// Draft 4–7 tuple validation: positions differ, so the
			// items are untyped as far as the table is concerned.
			p.Items = newAny("", ipath)
			return nil
		}
		it, err := r.build(items, "", ipath, depth+1)
		if err != nil {
			return err
		}
		p.Items = it
	}
	return nil
}

// applyNumbers reads maxLength, multipleOf and the x-singer.decimal
// precision and scale.
func applyNumbers(p *Property, o *object) error {
	if v, ok := o.get("maxLength"); ok {
		n, err := nonNegInt(v, "maxLength")
		if err != nil {
			return err
		}
		p.MaxLength = n
	}
	if v, ok := o.get("multipleOf"); ok {
		num, ok := v.(json.Number)
		if !ok {
			return fmt.Errorf("multipleOf must be a number")
		}
		canon, err := multipleOf(num)
		if err != nil {
			return err
		}
		p.MultipleOf = canon
	}
	if v, ok := o.get("precision"); ok {
		n, err := nonNegInt(v, "precision")
		if err != nil {
			return err
		}
		p.Precision = n
	}
	if v, ok := o.get("scale"); ok {
		num, ok := v.(json.Number)
		n, err := strconv.Atoi(string(num))
		if !ok || err != nil {
			return fmt.Errorf("scale %v: an integer expected", v)
		}
		p.Scale, p.HasScale = n, true
	}
	return nil
}

// multipleOf is the canonical text of a multipleOf value, or its text as
// written when it is outside Oracle NUMBER's range or digits (1e-200, 39
// significant digits, 1e200). Such a divisor is a valid schema all the
// same: the validator library checks records against it exactly (math/big;
// the fast plan leaves such a schema to it), and a record's number that a
// NUMBER cannot hold is a record-level error of its own. A divisor whose
// exponent the library could not compute with (1e-99999) never gets here:
// dropUncheckable left it out, with a note.
func multipleOf(num json.Number) (string, error) {
	canon, _, err := value.CanonicalNumber(string(num))
	var ve *value.Error
	switch {
	case errors.As(err, &ve) && !strings.HasPrefix(string(num), "-"):
		// Zero is never out of range: this is a positive number.
		return string(num), nil
	case err != nil || canon == "0" || canon[0] == '-':
		return "", fmt.Errorf("multipleOf %s: a positive number expected", num)
	}
	return canon, nil
}

// nonNegInt reads a non-negative integer keyword value ("36" or "36.0");
// values beyond int32 are clamped, as no column is that large anyway.
func nonNegInt(v any, kw string) (int, error) {
	num, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("%s must be a number", kw)
	}
	canon, info, err := value.CanonicalNumber(string(num))
	if err != nil || !info.Integer || canon[0] == '-' {
		return 0, fmt.Errorf("%s %s: a non-negative integer expected", kw, num)
	}
	n, err := strconv.Atoi(canon)
	if err != nil || n > math.MaxInt32 {
		n = math.MaxInt32
	}
	return n, nil
}

func parseTypes(v any) (TypeSet, error) {
	var names []any
	switch t := v.(type) {
	case string:
		names = []any{t}
	case []any:
		names = t
	default:
		return 0, fmt.Errorf("type must be a string or an array of strings")
	}
	var ts TypeSet
	for _, n := range names {
		s, _ := n.(string)
		t := typeNamed(s)
		if t == 0 {
			return 0, fmt.Errorf("unknown type %v", n)
		}
		ts |= t
	}
	return normalise(ts), nil
}

func typeNamed(s string) TypeSet {
	switch s {
	case "null":
		return Null
	case "string":
		return String
	case "integer":
		return Integer
	case "number":
		return Number
	case "boolean":
		return Boolean
	case "object":
		return Object
	case "array":
		return Array
	}
	return 0
}

// normalise drops Integer where Number is present (every integer is a
// number), so ["integer","number"] is just Number; Any stays Any.
func normalise(t TypeSet) TypeSet {
	if t != Any && t.Has(Number) {
		return t &^ Integer
	}
	return t
}

// intersect narrows p by m, both applying to the same value (allOf, or a
// node's own keywords with its anyOf/oneOf). p is modified.
func intersect(p, m *Property) {
	p.Required = p.Required || m.Required
	ep, em := p.Types, m.Types
	if ep.Has(Number) {
		ep |= Integer
	}
	if em.Has(Number) {
		em |= Integer
	}
	p.Types = normalise(ep & em)
	if p.Format == "" {
		p.Format = m.Format
	}
	if p.Precision == 0 && !p.HasScale {
		p.Precision, p.Scale, p.HasScale = m.Precision, m.Scale, m.HasScale
	}
	if m.MaxLength >= 0 && (p.MaxLength < 0 || m.MaxLength < p.MaxLength) {
		p.MaxLength = m.MaxLength
	}
	if p.MultipleOf == "" {
		p.MultipleOf = m.MultipleOf
	}
	intersectAnnotations(p, m)
	if p.Description == "" {
		p.Description = m.Description
	}
	if m.HasProperties {
		p.HasProperties = true
		p.Properties = mergeProperties(p.Properties, m.Properties, func(a, b *Property) *Property {
			intersect(a, b)
			return a
		})
	}
	switch {
	case p.Items == nil:
		p.Items = m.Items
	case m.Items != nil:
		intersect(p.Items, m.Items)
	}
}

// union is the property of a value that matches any of the alternatives
// (anyOf/oneOf). Format, maxLength, multipleOf and decimal precision are
// kept only when every alternative that admits strings (or numbers) agrees,
// so [{"type":"string","format":"date-time"},{"type":"null"}] is a nullable
// date-time while a string-or-date-time is just a string.
func union(alts []*Property, name string, path []string) *Property {
	p := newAny(name, path)
	p.Types = 0
	var strs, nums, objs, arrs []*Property
	for _, a := range alts {
		p.Types |= a.Types
		if a.Types&String != 0 {
			strs = append(strs, a)
		}
		if a.Types&(Number|Integer) != 0 {
			nums = append(nums, a)
		}
		if a.Types.Has(Object) {
			objs = append(objs, a)
		}
		if a.Types.Has(Array) {
			arrs = append(arrs, a)
		}
		if p.Description == "" {
			p.Description = a.Description
		}
	}
	p.Types = normalise(p.Types)
	unionStrings(p, strs)
	unionAnnotations(p, strs, arrs)
	if len(nums) > 0 && allSame(nums, func(a *Property) string { return a.MultipleOf }) {
		p.MultipleOf = nums[0].MultipleOf
	}
	if len(objs) > 0 && allHave(objs, func(a *Property) bool { return a.HasProperties }) {
		p.HasProperties = true
		for _, o := range objs {
			p.Properties = mergeProperties(p.Properties, o.Properties, func(a, b *Property) *Property {
				u := union([]*Property{a, b}, a.Name, a.Path)
				u.Required = a.Required && b.Required // required only if every alternative requires it
				return u
			})
		}
	}
	if len(arrs) > 0 && allHave(arrs, func(a *Property) bool { return a.Items != nil }) {
		items := make([]*Property, len(arrs))
		for i, a := range arrs {
			items[i] = a.Items
		}
		p.Items = union(items, "", items[0].Path)
	}
	return p
}

func unionStrings(p *Property, strs []*Property) {
	if len(strs) == 0 {
		return
	}
	decimal := func(a *Property) string {
		return fmt.Sprint(a.Format, a.Precision, a.Scale, a.HasScale)
	}
	if allSame(strs, decimal) {
		s := strs[0]
		p.Format, p.Precision, p.Scale, p.HasScale = s.Format, s.Precision, s.Scale, s.HasScale
	}
	if allHave(strs, func(a *Property) bool { return a.MaxLength >= 0 }) {
		for _, s := range strs {
			p.MaxLength = max(p.MaxLength, s.MaxLength)
		}
	}
}

func allSame(ps []*Property, key func(*Property) string) bool {
	for _, p := range ps[1:] {
		if key(p) != key(ps[0]) {
			return false
		}
	}
	return true
}

func allHave(ps []*Property, has func(*Property) bool) bool {
	for _, p := range ps {
		if !has(p) {
			return false
		}
	}
	return true
}

// mergeProperties returns a's properties followed by those of b not in a,
// combining the ones both have with both.
// markRequired sets Required on the properties o's "required" lists.
func markRequired(p *Property, o *object) {
	req, ok := o.get("required")
	if !ok {
		return
	}
	names, _ := req.([]any)
	for _, n := range names {
		if name, ok := n.(string); ok {
			if c := p.Lookup(name); c != nil {
				c.Required = true
			}
		}
	}
}

func mergeProperties(a, b []*Property, both func(x, y *Property) *Property) []*Property {
	index := make(map[string]int, len(a))
	for i, pa := range a {
		index[pa.Name] = i
	}
	for _, pb := range b {
		if i, ok := index[pb.Name]; ok {
			a[i] = both(a[i], pb)
			continue
		}
		index[pb.Name] = len(a)
		a = append(a, pb)
	}
	return a
}
