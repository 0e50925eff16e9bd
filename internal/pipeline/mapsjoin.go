package pipeline

import (
	"bytes"
	"encoding/json"
	"slices"
)

// Input streams aliased into one output stream (__alias__) share its
// table, which gets the join of their schemas (SPEC §4). The output stream
// has one schema at a time, so without a join each SCHEMA replaced the one
// before: the other input's records then lost the properties only it
// has ("not in the schema"). joinedSchema gives the output stream the
// join of every feeding input's latest output schema instead.
//
// The join is of the top-level "properties" (and "definitions"/"$defs",
// which they may refer to): every property of every feed, in the order
// first seen; a property defined differently by two feeds gets the anyOf
// of their definitions (joinMember), and its column is joined with the
// existing one as always (§5.5). "required" keeps the names every feed
// requires. Everything else is the handled SCHEMA's. Switching between
// feeds whose schemas join to the same text is then an identical repeat
// (SPEC §4: not a change). A schema that is not a plain object with an
// object "properties" is passed as it is.
func (p *pipeline) joinedSchema(output, input string, schema []byte) []byte {
	fs := p.feeds[output]
	if len(fs) < 2 {
		return schema
	}
	all := make([]orderedObject, len(fs)) // in feed order
	cur := -1
	for i, f := range fs {
		b := f.schema
		if f.input == input {
			b, cur = schema, i
		}
		o, ok := parseObject(b)
		if !ok {
			return schema
		}
		all[i] = o
	}
	if cur < 0 {
		return schema
	}
	out := all[cur].clone()
	for _, member := range []string{"properties", "definitions", "$defs"} {
		if !joinMember(&out, all, member) {
			return schema
		}
	}
	joinRequired(&out, all)
	b, err := out.marshal()
	if err != nil {
		return schema
	}
	return b
}

// joinMember joins the object member name of every schema into out, in
// feed order; it reports false when one of them is not an object. A
// member the feeds define alike keeps that definition; one they define
// differently gets {"anyOf": [their definitions, in feed order]}, the
// schema every one of their values is valid under: its column is the
// type that holds each feed's values (several scalar types are text, a
// maxLength the longest, a format only where all agree: the rules of an
// anyOf in one stream's schema), and so each feed's records convert into
// it. Whichever feed's SCHEMA is handled, the join is the same.
// (Validation, with validate_records, is still by each record's own
// input's schema: compileFeeds.)
func joinMember(out *orderedObject, all []orderedObject, name string) bool {
	var keys []string
	defs := map[string][]json.RawMessage{}
	for _, o := range all {
		raw, ok := o.get(name)
		if !ok {
			continue
		}
		m, ok := parseObject(raw)
		if !ok {
			return false
		}
		for i, k := range m.keys {
			if _, seen := defs[k]; !seen {
				keys = append(keys, k)
			}
			if !slices.ContainsFunc(defs[k], func(d json.RawMessage) bool { return bytes.Equal(d, m.vals[i]) }) {
				defs[k] = append(defs[k], m.vals[i])
			}
		}
	}
	if keys == nil {
		return true
	}
	var joined orderedObject
	for _, k := range keys {
		d := defs[k]
		if len(d) == 1 {
			joined.set(k, d[0])
			continue
		}
		b, err := json.Marshal(map[string][]json.RawMessage{"anyOf": d})
		if err != nil {
			return false
		}
		joined.set(k, b)
	}
	b, err := joined.marshal()
	if err != nil {
		return false
	}
	out.set(name, b)
	return true
}

// joinRequired keeps in out's "required" only the names every schema
// requires: a record of a feed that does not require one may lack it.
func joinRequired(out *orderedObject, all []orderedObject) {
	raw, ok := out.get("required")
	if !ok {
		return
	}
	var req []string
	if json.Unmarshal(raw, &req) != nil {
		return
	}
	for _, o := range all {
		var theirs []string
		if r, ok := o.get("required"); ok {
			_ = json.Unmarshal(r, &theirs)
		}
		req = slices.DeleteFunc(req, func(n string) bool { return !slices.Contains(theirs, n) })
	}
	b, _ := json.Marshal(req)
	out.set("required", b)
}

// orderedObject is a JSON object's members in order, values as raw text
// (numbers keep their text).
type orderedObject struct {
	keys []string
	vals []json.RawMessage
	idx  map[string]int
}

func parseObject(b []byte) (orderedObject, bool) {
	var o orderedObject
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return o, false
	}
	for dec.More() {
		t, err := dec.Token()
		k, ok := t.(string)
		if err != nil || !ok {
			return o, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return o, false
		}
		o.set(k, v)
	}
	return o, true
}

func (o orderedObject) get(k string) (json.RawMessage, bool) {
	if i, ok := o.idx[k]; ok {
		return o.vals[i], true
	}
	return nil, false
}

// set replaces k's value in place, or appends k (a repeated key in the
// input: the last wins, as encoding/json decodes it).
func (o *orderedObject) set(k string, v json.RawMessage) {
	if i, ok := o.idx[k]; ok {
		o.vals[i] = v
		return
	}
	if o.idx == nil {
		o.idx = map[string]int{}
	}
	o.idx[k] = len(o.keys)
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
}

func (o orderedObject) clone() orderedObject {
	c := orderedObject{keys: slices.Clone(o.keys), vals: slices.Clone(o.vals), idx: make(map[string]int, len(o.idx))}
	for k, i := range o.idx {
		c.idx[k] = i
	}
	return c
}

func (o orderedObject) marshal() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(o.vals[i])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
