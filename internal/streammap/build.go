package streammap

import (
	"encoding/json"
	"fmt"
	"slices"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// binding is what a free name of an expression denotes.
type binding uint8

const (
	bindProp      binding = iota // a record property (None when absent)
	bindHelper                   // md5, sha256, json, datetime, config
	bindUniversal                // a Starlark built-in (int, str, len...)
	bindRecord                   // record, _
	bindSelf                     // self
)

var helperNames = map[string][]string{ // helper → attributes that mark its use
	"md5": nil, "sha256": nil,
	"json":     {"dumps", "loads"},
	"datetime": {"datetime", "date", "timezone"},
}

// builder holds what one stream map's compilation needs.
type builder struct {
	e        *entry
	stream   string
	schema   []byte
	top      []member // members of the input schema
	props    []member // members of its "properties" (nil when absent)
	hasProps bool
	propIdx  map[string]int
	binds    map[string]binding
	sm       *StreamMap
	refIdx   map[string]int
}

// build compiles entry e for one input stream's schema.
func (m *Mapper) build(e *entry, stream, alias string, schema []byte, keys []string) (*StreamMap, error) {
	b := &builder{e: e, stream: stream, schema: schema, propIdx: map[string]int{}, refIdx: map[string]int{}}
	if err := b.parseSchema(); err != nil {
		return nil, fmt.Errorf("schema: %w", err) // the caller names the stream
	}
	sm := &StreamMap{Output: alias, Keys: keys, stream: stream, redact: m.redact, stop: m.stop}
	b.sm = sm
	if e.keysSet {
		sm.Keys = slices.Clone(e.keys)
	}
	for _, p := range e.props {
		if p.expr == nil && slices.Contains(sm.Keys, p.name) {
			return nil, &ConfigError{Stream: e.key, Property: p.name, Err: fmt.Errorf(
				"removing key property %q of stream %q is not permitted; set %s to the new key (or null)", p.name, stream, optKeys)}
		}
	}
	if err := b.bindNames(); err != nil {
		return nil, err
	}
	if err := b.compile(m); err != nil {
		return nil, err
	}
	b.plan()
	if err := b.outputSchema(); err != nil {
		return nil, err
	}
	return sm, nil
}

func (b *builder) parseSchema() error {
	top, err := scanObject(nil, b.schema)
	if err != nil {
		return err
	}
	b.top = top
	for _, mb := range top {
		if string(mb.name) != "properties" {
			continue
		}
		if b.props, err = scanObject(nil, mb.val); err != nil {
			return fmt.Errorf("properties: %w", err)
		}
		b.hasProps = true
	}
	for i, p := range b.props {
		b.propIdx[string(p.name)] = i
	}
	return nil
}

// exprs lists the entry's expressions with the property each computes.
func (b *builder) exprs() []prop {
	var list []prop
	if b.e.filter != nil {
		list = append(list, prop{name: optFilter, expr: b.e.filter})
	}
	for _, p := range b.e.props {
		if p.expr != nil {
			list = append(list, p)
		}
	}
	return list
}

// bindNames decides what every free name means. A name that is both a
// property and a helper or built-in is the helper where it is used as one
// (md5(x), json.dumps(x)) and the property elsewhere; record, _, self and
// config always mean the SDK's variables (use record['config'] for a
// property named config).
func (b *builder) bindNames() error {
	uses := map[string]nameUse{}
	first := map[string]prop{}
	for _, p := range b.exprs() {
		for _, n := range p.expr.names {
			u := uses[n]
			v := p.expr.uses[n]
			u.called = u.called || v.called
			u.plain = u.plain || v.plain
			for a := range v.attrs {
				if u.attrs == nil {
					u.attrs = map[string]bool{}
				}
				u.attrs[a] = true
			}
			uses[n] = u
			if _, ok := first[n]; !ok {
				first[n] = p
			}
		}
	}
	b.binds = map[string]binding{}
	for n, u := range uses {
		bind, ok := b.bind(n, u)
		if !ok {
			p := first[n]
			return &ConfigError{Stream: b.e.key, Property: p.name, Expr: p.expr.src, Err: fmt.Errorf(
				"name %q is neither a property of stream %q nor a helper (md5, sha256, datetime, json, config, record, self, _ or a built-in)", n, b.stream)}
		}
		b.binds[n] = bind
	}
	return nil
}

func (b *builder) bind(n string, u nameUse) (binding, bool) {
	switch n {
	case "record", "_":
		return bindRecord, true
	case "self":
		return bindSelf, true
	case "config":
		return bindHelper, true
	}
	_, isProp := b.propIdx[n]
	isProp = isProp || !b.hasProps
	attrs, isHelper := helperNames[n]
	isUniv := starlark.Universe.Has(n)
	usedAsHelper := u.called
	for _, a := range attrs {
		usedAsHelper = usedAsHelper || u.attrs[a]
	}
	switch {
	case (isHelper || isUniv) && (usedAsHelper || !isProp):
		if isHelper {
			return bindHelper, true
		}
		return bindUniversal, true
	case isProp:
		return bindProp, true
	}
	return 0, false
}

// ref returns the index of a tracked property name, adding it.
func (b *builder) ref(name string) int {
	if i, ok := b.refIdx[name]; ok {
		return i
	}
	b.refIdx[name] = len(b.sm.refNames)
	b.sm.refNames = append(b.sm.refNames, name)
	return len(b.sm.refNames) - 1
}

// compile builds the shared environment and compiles every expression.
func (b *builder) compile(m *Mapper) error {
	sm := b.sm
	sm.env = guards() // record properties and helpers below take precedence
	sm.thread = &starlark.Thread{Name: "stream map " + sm.Output}
	sm.thread.SetMaxExecutionSteps(maxSteps)
	sm.thread.SetLocal(budgetKey, &sm.budget)
	h := m.helpers
	for n, bind := range b.binds {
		switch bind {
		case bindHelper:
			sm.env[n] = h[n]
		case bindRecord:
			sm.env[n] = &recordValue{r: &sm.rec}
		case bindSelf, bindProp:
			sm.env[n] = starlark.None
		}
	}
	for _, p := range b.exprs() {
		fn, err := compileGuarded(sm.thread, "stream_maps."+b.e.key+"."+p.name, p.expr.code, sm.env)
		if err != nil {
			return &ConfigError{Stream: b.e.key, Property: p.name, Expr: p.expr.src, Err: err}
		}
		c := compiled{name: p.name, src: p.expr.src, fn: fn, usesSelf: b.binds["self"] == bindSelf && slices.Contains(p.expr.names, "self")}
		for _, n := range p.expr.names {
			if b.binds[n] == bindProp {
				c.refs = append(c.refs, b.ref(n))
			}
		}
		if p.name == optFilter {
			sm.filter = &c
			continue
		}
		o := &op{compiled: c, key: appendString(nil, p.name, false), copyRef: -1, selfRef: -1}
		if src, ok := b.copySource(p.expr.tree, p.name); ok {
			o.copyRef = b.ref(src)
		}
		if c.usesSelf {
			o.selfRef = b.ref(p.name)
		}
		sm.ops = append(sm.ops, o)
	}
	sm.results = make([]starlark.Value, len(sm.ops))
	return nil
}

// copySource recognises an expression that is just a property (x, self,
// record['x'], _['x']): its output is the input bytes, exact.
func (b *builder) copySource(tree syntax.Expr, name string) (string, bool) {
	switch t := tree.(type) {
	case *syntax.ParenExpr:
		return b.copySource(t.X, name)
	case *syntax.Ident:
		if b.binds[t.Name] == bindSelf {
			return name, true
		}
		return t.Name, b.binds[t.Name] == bindProp
	case *syntax.IndexExpr:
		id, ok := t.X.(*syntax.Ident)
		lit, isLit := t.Y.(*syntax.Literal)
		if ok && isLit && lit.Token == syntax.STRING && b.binds[id.Name] == bindRecord {
			s, _ := lit.Value.(string)
			return s, true
		}
	}
	return "", false
}

// plan fills the per-member actions Apply uses.
func (b *builder) plan() {
	sm, e := b.sm, b.e
	sm.dflt = memberInfo{act: actPass, ref: -1}
	if e.only {
		sm.dflt.act = actDrop
	}
	sm.infos = map[string]memberInfo{}
	get := func(n string) memberInfo {
		if info, ok := sm.infos[n]; ok {
			return info
		}
		return sm.dflt
	}
	if e.only {
		for _, k := range sm.Keys {
			info := get(k)
			info.act = actPass
			sm.infos[k] = info
		}
	}
	removed := false
	for _, p := range e.props {
		if p.expr == nil {
			info := get(p.name)
			info.act = actDrop
			sm.infos[p.name] = info
			removed = true
		}
	}
	for i, o := range sm.ops {
		info := get(string(o.name))
		info.act = int32(i)
		sm.infos[o.name] = info
	}
	for i, n := range sm.refNames {
		info := get(n)
		info.ref = int32(i)
		sm.infos[n] = info
	}
	sm.refMember = make([]int, len(sm.refNames))
	sm.opMember = make([]int, len(sm.ops))
	sm.passAll = len(sm.ops) == 0 && !removed && !e.only
	sm.Identity = sm.passAll && sm.filter == nil
}

// outputSchema writes the output schema: the input's members with
// "properties" rebuilt (removed ones dropped, computed ones typed) and
// "required" trimmed to the properties that remain; then checks the keys.
func (b *builder) outputSchema() error {
	sm := b.sm
	if sm.Identity {
		sm.Schema = slices.Clone(b.schema)
		return b.checkKeys()
	}
	props := b.outputProperties()
	out := []byte{'{'}
	sep := func() {
		if len(out) > 1 {
			out = append(out, ',')
		}
	}
	for _, mb := range b.top {
		sep()
		out = append(out, mb.key...)
		out = append(out, ':')
		switch string(mb.name) {
		case "properties":
			out = append(out, props...)
		case "required":
			out = append(out, b.required(mb.val)...)
		default:
			out = append(out, mb.val...)
		}
	}
	if !b.hasProps {
		sep()
		out = append(out, `"properties":`...)
		out = append(out, props...)
	}
	sm.Schema = append(out, '}')
	return b.checkKeys()
}

func (b *builder) kept(name string) bool {
	info, ok := b.sm.infos[name]
	if !ok {
		info = b.sm.dflt
	}
	return info.act != actDrop
}

func (b *builder) outputProperties() []byte {
	sm := b.sm
	out := []byte{'{'}
	add := func(key, schema []byte) {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, key...)
		out = append(out, ':')
		out = append(out, schema...)
	}
	for _, p := range b.props {
		info, ok := sm.infos[string(p.name)]
		if !ok {
			info = sm.dflt
		}
		switch {
		case info.act == actDrop:
		case info.act == actPass:
			add(p.key, p.val)
		default:
			add(p.key, b.opSchema(sm.ops[info.act]))
		}
	}
	for _, o := range sm.ops {
		if _, exists := b.propIdx[o.name]; !exists {
			add(o.key, b.opSchema(o))
		}
	}
	return append(out, '}')
}

// opSchema is the schema of a computed property: a copied property's own
// schema, the input schema for the record itself, the inferred type, the
// replaced property's schema (as the SDK), else {} (any type; the SDK
// assumes string).
func (b *builder) opSchema(o *op) []byte {
	var tree syntax.Expr
	for _, p := range b.e.props {
		if p.name == o.name && p.expr != nil {
			tree = p.expr.tree
		}
	}
	if id, ok := tree.(*syntax.Ident); ok && b.binds[id.Name] == bindRecord {
		return b.schema
	}
	if src, ok := b.copySource(tree, o.name); ok {
		if i, ok := b.propIdx[src]; ok {
			return b.props[i].val
		}
	}
	t := typer{
		isProp: func(n string) bool { return b.binds[n] == bindProp },
		prop: func(n string) kind {
			if i, ok := b.propIdx[n]; ok {
				return schemaKind(b.props[i].val)
			}
			return kUnknown
		},
	}
	if s, ok := kindSchemas[t.infer(tree)]; ok {
		return []byte(s)
	}
	if i, ok := b.propIdx[o.name]; ok {
		return b.props[i].val
	}
	return []byte(`{}`)
}

func (b *builder) required(raw []byte) []byte {
	var names []string
	if json.Unmarshal(raw, &names) != nil {
		return raw
	}
	kept := names[:0]
	for _, n := range names {
		if b.kept(n) {
			kept = append(kept, n)
		}
	}
	out, err := json.Marshal(kept)
	if err != nil {
		return raw
	}
	return out
}

// checkKeys requires every output key property in the output schema (when
// the input schema lists properties at all).
func (b *builder) checkKeys() error {
	if !b.hasProps {
		return nil
	}
	for _, k := range b.sm.Keys {
		_, in := b.propIdx[k]
		computed := slices.ContainsFunc(b.sm.ops, func(o *op) bool { return o.name == k })
		if !computed && !(in && b.kept(k)) {
			return &ConfigError{Stream: b.e.key, Property: optKeys, Err: fmt.Errorf(
				"key property %q is not in the output of stream %q; list it (or change %s)", k, b.stream, optKeys)}
		}
	}
	return nil
}
