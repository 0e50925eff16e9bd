package tablemap

import (
	"fmt"

	"github.com/target-oracle/target-oracle/internal/table"
)

// Warnings returns what the mapping chose that the user should know: a
// vector stored as JSON because the server has no VECTOR type, a binary
// property kept in a text column (or the reverse). The pipeline logs each
// once per stream.
func (l *Layout) Warnings() []string { return l.warnings }

func (b *builder) warn(format string, args ...any) {
	b.warnings = append(b.warnings, fmt.Sprintf(format, args...))
}

// noteNative warns when a property asks for a native type the mapping
// cannot give: a vector on a server without VECTOR.
func (b *builder) noteNative(c *cand) {
	if c.prop != nil && isVector(c.prop) && c.typ.Kind != table.KindVector {
		b.warn("stream %q, property %q: x-sql-datatype %s needs Oracle's VECTOR type (23ai); the server has none, so the column is %s and keeps the elements as received",
			b.stream, c.path, c.prop.SQLDatatype, c.typ)
	}
}

// asText is the type a binary candidate joins an existing text column
// with: the text of its encoded form as received (the type the property
// has without interpret_content_encoding), which the column keeps.
func (b *builder) asText(c *cand, existing table.Type) table.Type {
	if !c.typ.IsBinary() || !existing.IsText() || c.prop == nil {
		return c.typ
	}
	plain := *b.opts
	plain.InterpretContentEncoding = false
	return PropertyType(c.prop, &plain)
}

// noteJoin warns when joining an existing column's type with the wanted
// one leaves a binary property in a text column, or gives a binary
// column's values their base16 text (SPEC §5.2: binary joined with text
// stays text).
func (b *builder) noteJoin(c *cand, existing, wanted table.Type) {
	switch {
	case wanted.IsBinary() && !c.typ.IsBinary():
		b.warn("stream %q, property %q: the existing column is %s, so its values stay text in their encoded form (contentEncoding %s) instead of a %s column",
			b.stream, c.path, existing, c.prop.ContentEncoding, wanted)
	case existing.IsBinary() && !c.typ.IsBinary():
		b.warn("stream %q, property %q: the existing %s column becomes %s for a property that is not binary; its stored bytes become their base16 text",
			b.stream, c.path, existing, c.typ)
	}
}
