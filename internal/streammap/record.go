package streammap

import (
	"bytes"
	"fmt"

	"go.starlark.net/starlark"
)

// recordState is the record being mapped: its members and the Starlark
// values converted from them so far. Only values an expression reads are
// converted, each at most once per record.
type recordState struct {
	raw     []byte
	members []member
	vals    []starlark.Value // per member; nil until read
}

// reset points the state at a new record whose members are scanned.
func (r *recordState) reset(raw []byte, members []member) {
	r.raw, r.members = raw, members
	if cap(r.vals) < len(members) {
		r.vals = make([]starlark.Value, len(members))
	}
	r.vals = r.vals[:len(members)]
	clear(r.vals)
}

// value returns member i as a Starlark value; None when i < 0 (absent).
func (r *recordState) value(i int) (starlark.Value, error) {
	if i < 0 {
		return starlark.None, nil
	}
	if v := r.vals[i]; v != nil {
		return v, nil
	}
	v, err := decodeValue(r.members[i].val)
	if err != nil {
		return nil, fmt.Errorf("property %q: %w", r.members[i].name, err)
	}
	r.vals[i] = v
	return v, nil
}

// find returns the index of the member named name (the last one, as a
// JSON decoder keeps), or -1.
func (r *recordState) find(name string) int {
	for i := len(r.members) - 1; i >= 0; i-- {
		if string(r.members[i].name) == name {
			return i
		}
	}
	return -1
}

// recordValue is the whole record as expressions see it (record, _): a
// read-only dict whose values are converted on first access, so that
// record['x'] costs no more than the variable x.
type recordValue struct{ r *recordState }

var (
	_ starlark.IterableMapping = (*recordValue)(nil)
	_ starlark.HasAttrs        = (*recordValue)(nil)
	_ starlark.Sequence        = (*recordValue)(nil)
)

func (v *recordValue) String() string {
	d, err := v.dict()
	if err != nil {
		return "<record: " + err.Error() + ">"
	}
	return d.String()
}
func (v *recordValue) Type() string         { return "dict" }
func (v *recordValue) Freeze()              {}
func (v *recordValue) Truth() starlark.Bool { return len(v.r.members) > 0 }
func (v *recordValue) Hash() (uint32, error) {
	return 0, fmt.Errorf("unhashable type: dict")
}
func (v *recordValue) Len() int { return len(v.r.members) }

func (v *recordValue) Get(k starlark.Value) (starlark.Value, bool, error) {
	s, ok := k.(starlark.String)
	if !ok {
		return nil, false, nil
	}
	i := v.r.find(string(s))
	if i < 0 {
		return nil, false, nil
	}
	x, err := v.r.value(i)
	return x, err == nil, err
}

func (v *recordValue) Items() []starlark.Tuple {
	items := make([]starlark.Tuple, 0, len(v.r.members))
	for i, m := range v.r.members {
		x, err := v.r.value(i)
		if err != nil {
			x = starlark.None
		}
		items = append(items, starlark.Tuple{starlark.String(m.name), x})
	}
	return items
}

func (v *recordValue) Iterate() starlark.Iterator { return &keyIter{r: v.r} }

// dict converts the whole record (for printing and dict methods).
func (v *recordValue) dict() (*starlark.Dict, error) {
	d := starlark.NewDict(len(v.r.members))
	for i, m := range v.r.members {
		x, err := v.r.value(i)
		if err != nil {
			return nil, err
		}
		if err := d.SetKey(starlark.String(m.name), x); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// Attr offers the read-only dict methods; the rest fail as on a frozen dict.
func (v *recordValue) Attr(name string) (starlark.Value, error) {
	switch name {
	case "get", "keys", "values", "items":
	default:
		return nil, nil
	}
	d, err := v.dict()
	if err != nil {
		return nil, err
	}
	return d.Attr(name)
}

func (v *recordValue) AttrNames() []string { return []string{"get", "items", "keys", "values"} }

// appendJSON writes the record: its input bytes in record style (exact),
// else re-encoded member by member.
func (v *recordValue) appendJSON(dst []byte, st *jsonStyle, depth int) ([]byte, error) {
	if st.raw {
		return append(dst, bytes.TrimSpace(v.r.raw)...), nil
	}
	d, err := v.dict()
	if err != nil {
		return dst, err
	}
	return appendDict(dst, d, st, depth)
}

type keyIter struct {
	r *recordState
	i int
}

func (it *keyIter) Next(p *starlark.Value) bool {
	if it.i >= len(it.r.members) {
		return false
	}
	*p = starlark.String(it.r.members[it.i].name)
	it.i++
	return true
}

func (it *keyIter) Done() {}
