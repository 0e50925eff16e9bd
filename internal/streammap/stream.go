package streammap

import (
	"errors"
	"fmt"
	"slices"

	"go.starlark.net/starlark"
)

// StreamMap maps the records of one input stream (under one SCHEMA) to one
// output stream. Apply is not safe for concurrent use: each StreamMap owns
// its Starlark thread and per-record scratch space.
type StreamMap struct {
	Output   string   // output stream name (the alias, or the __source__ entry's key)
	Schema   []byte   // output schema JSON (a copy of the input's when Identity)
	Keys     []string // output key_properties
	Identity bool     // records pass unchanged: Apply returns its input

	stream  string    // input stream, for errors
	redact  *redactor // stream_map_config values, kept out of errors
	stop    *stopper  // the Mapper's (cancel.go); nil for Identity
	passAll bool      // no property is computed or removed: a kept record is the input

	infos    map[string]memberInfo // per member name; others get dflt
	dflt     memberInfo
	ops      []*op
	filter   *compiled
	refNames []string // property names whose member index is tracked per record
	env      starlark.StringDict
	thread   *starlark.Thread
	budget   budget // what the running evaluation may still allocate (limits.go)
	rec      recordState

	// per-record scratch
	members   []member
	acts      []int32
	refMember []int // ref → member index, -1 when absent
	opMember  []int // op → index of the member it replaces, -1 when new
	results   []starlark.Value
	layout    []layoutSlot
}

// memberInfo says what happens to a record member of a given name.
type memberInfo struct {
	act int32 // actPass, actDrop, or the index of the op that replaces it
	ref int32 // ref index, or -1
}

const (
	actPass int32 = -1
	actDrop int32 = -2
)

// layoutSlot caches the memberInfo of the member at one position: records
// of a stream almost always list their members in the same order, so a
// byte comparison replaces most map lookups.
type layoutSlot struct {
	name string
	info memberInfo
}

const maxLayout = 512

// compiled is one expression compiled for this stream map.
type compiled struct {
	name     string // property, or __filter__
	src      string
	fn       *starlark.Function
	refs     []int // refs bound in env before a call
	usesSelf bool
}

// op computes one output property.
type op struct {
	compiled
	key     []byte // the property name as a JSON string
	copyRef int    // >= 0: the output is that member's input bytes (x, record['x'])
	selfRef int    // ref of the property itself (for self), -1 when unused
}

// maxSteps bounds one expression evaluation (a comprehension over a huge
// range would otherwise stall the load).
const maxSteps = 1_000_000

// identity is the map of a stream that no entry names.
func identity(stream string, schema []byte, keys []string) *StreamMap {
	return &StreamMap{Output: stream, Schema: slices.Clone(schema), Keys: slices.Clone(keys), Identity: true, stream: stream}
}

// Apply maps one record (a JSON object, exact input bytes) to the output
// record, or keep=false when the __filter__ drops it. Members that no
// expression computes or removes are copied byte for byte; when nothing is
// computed or removed, out is record itself. Otherwise out is newly
// allocated and owned by the caller. A failing expression is an *EvalError.
//
// Once the Mapper is cancelled (Mapper.Cancel), Apply returns ErrCancelled.
func (m *StreamMap) Apply(record []byte) (out []byte, keep bool, err error) {
	if m.stop != nil {
		if err := m.stop.enter(m.thread); err != nil {
			return nil, false, err
		}
		out, keep, err = m.apply(record)
		err = m.stop.leave(err)
	} else {
		out, keep, err = m.apply(record)
	}
	if errors.Is(err, ErrCancelled) {
		return nil, false, err
	}
	if err != nil {
		return nil, false, m.redact.error(err)
	}
	return out, keep, nil
}

func (m *StreamMap) apply(record []byte) (out []byte, keep bool, err error) {
	if m.Identity {
		return record, true, nil
	}
	members, err := scanObject(m.members[:0], record)
	m.members = members
	if err != nil {
		return nil, false, &EvalError{Stream: m.stream, Output: m.Output, Err: fmt.Errorf("record: %w", err)}
	}
	m.index(record, members)
	if m.filter != nil {
		v, err := m.eval(m.filter, -1)
		if err != nil {
			return nil, false, err
		}
		if !v.Truth() {
			return nil, false, nil
		}
	}
	if m.passAll {
		return record, true, nil
	}
	for i, o := range m.ops {
		if o.copyRef >= 0 {
			continue
		}
		if m.results[i], err = m.eval(&o.compiled, o.selfRef); err != nil {
			return nil, false, err
		}
	}
	if out, err = m.build(record); err != nil {
		return nil, false, err
	}
	return out, true, nil
}

// index classifies the members of a record and resets the per-record state.
func (m *StreamMap) index(record []byte, members []member) {
	m.rec.reset(record, members)
	for i := range m.refMember {
		m.refMember[i] = -1
	}
	for i := range m.opMember {
		m.opMember[i] = -1
	}
	m.acts = m.acts[:0]
	for i := range members {
		info := m.info(i, members[i].name)
		if info.ref >= 0 {
			m.refMember[info.ref] = i
		}
		if info.act >= 0 {
			m.opMember[info.act] = i
		}
		m.acts = append(m.acts, info.act)
	}
}

func (m *StreamMap) info(i int, name []byte) memberInfo {
	if i < len(m.layout) && m.layout[i].name == string(name) {
		return m.layout[i].info
	}
	info, ok := m.infos[string(name)]
	if !ok {
		info = m.dflt
	}
	switch {
	case i < len(m.layout):
		m.layout[i] = layoutSlot{string(name), info}
	case i == len(m.layout) && i < maxLayout:
		m.layout = append(m.layout, layoutSlot{string(name), info})
	}
	return info
}

// eval runs one expression on the current record.
func (m *StreamMap) eval(c *compiled, selfRef int) (starlark.Value, error) {
	for _, r := range c.refs {
		v, err := m.rec.value(m.refMember[r])
		if err != nil {
			return nil, m.evalError(c, err)
		}
		m.env[m.refNames[r]] = v
	}
	if c.usesSelf {
		self := -1
		if selfRef >= 0 {
			self = m.refMember[selfRef]
		}
		v, err := m.rec.value(self)
		if err != nil {
			return nil, m.evalError(c, err)
		}
		m.env["self"] = v
	}
	m.thread.Steps = 0
	m.budget.reset(len(m.rec.raw))
	v, err := starlark.Call(m.thread, c.fn, nil, nil)
	if err == nil {
		err = checkResult(m.thread, v)
	}
	if err != nil {
		m.thread.Uncancel()
		return nil, m.evalError(c, err)
	}
	return v, nil
}

func (m *StreamMap) evalError(c *compiled, err error) error {
	return &EvalError{Stream: m.stream, Output: m.Output, Property: c.name, Expr: c.src, Err: err}
}

// build writes the output record: members in input order (copied, replaced
// or dropped), then the new properties in name order.
func (m *StreamMap) build(record []byte) ([]byte, error) {
	out := make([]byte, 0, len(record)+32*len(m.ops))
	out = append(out, '{')
	var err error
	for i, mb := range m.members {
		act := m.acts[i]
		if act == actDrop {
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, mb.key...)
		out = append(out, ':')
		if act == actPass {
			out = append(out, mb.val...)
		} else if out, err = m.appendResult(out, int(act)); err != nil {
			return nil, err
		}
	}
	for i, o := range m.ops {
		if m.opMember[i] >= 0 {
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, o.key...)
		out = append(out, ':')
		if out, err = m.appendResult(out, i); err != nil {
			return nil, err
		}
	}
	return append(out, '}'), nil
}

func (m *StreamMap) appendResult(out []byte, i int) ([]byte, error) {
	o := m.ops[i]
	if o.copyRef >= 0 {
		if j := m.refMember[o.copyRef]; j >= 0 {
			return append(out, m.members[j].val...), nil
		}
		return append(out, "null"...), nil
	}
	out, err := appendJSON(out, m.results[i], &recordStyle, 0)
	if err != nil {
		return nil, m.evalError(&o.compiled, err)
	}
	return out, nil
}

// EvalError is an expression that failed on a record (or a record that is
// not a JSON object). The caller reports it as invalid input.
type EvalError struct {
	Stream   string // input stream
	Output   string // output stream
	Property string // property, or __filter__; "" for the record itself
	Expr     string
	Err      error
}

func (e *EvalError) Error() string {
	s := fmt.Sprintf("stream map of %q", e.Stream)
	if e.Output != e.Stream {
		s += fmt.Sprintf(" (output %q)", e.Output)
	}
	if e.Property != "" {
		s += fmt.Sprintf(": property %q", e.Property)
	}
	return s + e.tail()
}

// Detail is the error without the input stream and the property, for a
// caller that names them itself (inputerr.Error names the line, stream
// and property once each, SPEC §8).
func (e *EvalError) Detail() string {
	s := "stream map"
	if e.Output != e.Stream {
		s += fmt.Sprintf(" (output %q)", e.Output)
	}
	return s + e.tail()
}

func (e *EvalError) tail() string {
	s := ""
	if e.Expr != "" {
		s = fmt.Sprintf(": expression %q", e.Expr)
	}
	return s + ": " + e.Err.Error()
}

func (e *EvalError) Unwrap() error { return e.Err }
