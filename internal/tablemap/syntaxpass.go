package tablemap

import "github.com/target-oracle/target-oracle/internal/schema"

// PrepareOnePass readies RowOnePass for a stream: with rules (the
// pipeline's validate_records), as UseOnePass does; without them, for the
// syntax only (UseOnePassSyntax). It reports whether RowOnePass may be
// used.
func (l *Layout) PrepareOnePass(s *schema.Schema, rules bool) bool {
	if rules {
		return l.UseOnePass(s)
	}
	return l.UseOnePassSyntax()
}

// UseOnePassSyntax makes RowOnePass convert a record with none of the
// schema's rules: what Row gives, with the syntax checked in the same
// walk, as the reader would have checked it
// (singer.Message.DecodeRecord). It is for validate_records
// false, where the one pass would otherwise be Row after the reader's own
// check, a second walk of every record.
//
// Every member is checked with the zero node, which accepts any
// well-formed value (schema.Checker.Check); no member is required; and
// flattened objects are walked member by member whatever their schema
// says, since no rule of theirs applies. What the walk declines (a key or
// string the reader would refuse, a number the validator's checks refuse,
// nesting past the reader's limit) is ErrGeneralPath as with the rules:
// the caller checks the syntax and builds the row with Row, so a record
// gets exactly Row's row, or Row's error. Conversions check the types
// they depend on themselves, as they do in Row for records no one
// validated.
func (l *Layout) UseOnePassSyntax() bool {
	l.checks = true
	attachSyntax(l.root)
	return true
}

// attachSyntax gives each object plan the zero node, walkable, with no
// required member.
func attachSyntax(op *objPlan) {
	op.node, op.walk, op.req, op.unknown = schema.Node{}, true, 0, schema.Node{}
	for i := range op.entries {
		e := &op.entries[i]
		e.node, e.bit = schema.Node{}, 0
		if e.child != nil {
			attachSyntax(e.child)
		}
	}
}
