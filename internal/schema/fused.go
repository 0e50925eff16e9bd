package schema

import "github.com/target-oracle/target-oracle/internal/value"

// The one-pass path: the table's row builder walks a record's objects itself
// to fill its column buffers, and validates each member's value with the
// fast plan's node for it as it goes, so a record is walked once instead of
// once to validate and once to convert. The builder drives the object walk
// only for nodes that have nothing but properties, required and
// additionalProperties (Walkable); any other value it hands whole to
// Check. As with ValidateRaw, the one-pass path only ever accepts: when it does
// not, the caller asks ValidateRaw, which decides and words the error.

// Node is one compiled subschema of the fast plan. The zero Node accepts
// any value.
type Node struct{ f *fnode }

// FastRoot returns the fast plan's root node, and false when the plan does
// not cover the schema.
func (s *Schema) FastRoot() (Node, bool) {
	if !s.Fast() {
		return Node{}, false
	}
	return Node{s.fast.root}, true
}

// Walkable reports whether a caller may walk an object value of this node
// itself, checking its members with Property and Unknown and its required
// members with Required: the node has no keyword but type, properties,
// required and additionalProperties, and objects are among its types.
// Values of other kinds (null for {"type": ["null", "object"]}) still go
// to Check.
func (n Node) Walkable() bool {
	f := n.f
	return f != nil && f.always == 0 && !f.combOnly && len(f.all) == 0 && len(f.alts) == 0 &&
		f.types&kObject != 0 && !f.hasEnum && !f.hasConst
}

// Property returns the node that checks the member called name of an
// object this node accepts, and the member's bit in Required (0 when it is
// not required).
func (n Node) Property(name string) (Node, uint64) {
	if n.f == nil {
		return Node{}, 0
	}
	if i := n.f.find(name); i >= 0 {
		p := &n.f.props[i]
		if p.viaAddl {
			return Node{n.f.addl}, p.bit
		}
		return Node{p.node}, p.bit
	}
	return Node{n.f.addl}, 0
}

// Unknown returns the node that checks members not among the properties
// (additionalProperties).
func (n Node) Unknown() Node {
	if n.f == nil {
		return Node{}
	}
	return Node{n.f.addl}
}

// Required is the mask of the bits Property gives that every object must
// have.
func (n Node) Required() uint64 {
	if n.f == nil {
		return 0
	}
	return n.f.reqMask
}

// Checker checks values against nodes. It holds the scratch space of the
// walk, so one Checker serves one goroutine; the zero Checker is ready.
type Checker struct{ w walker }

// Check validates the JSON value starting at b[i] against n and returns
// the index just past it. ok is true only when the value is valid; false
// means invalid, malformed or undecided, and the caller must ask
// ValidateRaw. depth is the nesting level of the value's container, as
// singer.MaxDepth counts it (a record's own members: 2): a value nesting
// past singer.MaxDepth is undecided, as the reader refuses it.
func (c *Checker) Check(n Node, b []byte, i, depth int) (end int, ok bool) {
	w := &c.w
	w.b, w.depth, w.unsure, w.numStart = b, depth, false, -1
	if n.f == nil {
		end, ok = w.skip(i)
	} else {
		end, ok = w.value(n.f, i)
	}
	return end, ok && !w.unsure
}

// PlainNumberAt reports whether the value Check last accepted in b holds,
// at b[i], a number matching the JSON grammar without an exponent and of
// at most value.MaxSignificantDigits bytes, and returns the index of its
// '.' relative to i (-1 when it has none): the facts
// value.AppendPlainNumber needs, so that the caller does not scan the
// number again. It reports false for anything else (a string, a number
// with an exponent, or one Check did not scan), leaving the caller to
// value.AppendCanonicalNumber. Valid only until the next Check, and only
// after a Check that returned ok.
func (c *Checker) PlainNumberAt(i, end int) (dot int, ok bool) {
	w := &c.w
	if w.numStart != i || w.numEnd != end || w.numExp || end-i > value.MaxSignificantDigits {
		return 0, false
	}
	return w.numDot - i, true
}

// WithoutDateTime returns n minus its "format": "date-time" assertion, for
// a caller that parses the value under the same rule anyway
// (value.AppendCanonicalDateTime, which the format check also uses), so
// that the text is parsed once. When that parse fails the caller sends
// the record to ValidateRaw, which words the error. Other nodes come back
// as they are.
func (n Node) WithoutDateTime() Node {
	if n.f == nil || n.f.format != fmtDateTime {
		return n
	}
	c := *n.f
	c.format = fmtNone
	c.finish()
	return Node{&c}
}
