package table

import (
	"slices"
	"testing"
)

// TestJSONTextColumn: a JSON text column (CLOB without IS JSON) is marked
// in its comment after the path, which still parses with its description;
// it holds any value as JSON text, so joining it keeps it, while a checked
// CLOB JSON column keeps its check when the schema asks JSON text.
func TestJSONTextColumn(t *testing.T) {
	text := Type{Kind: KindJSON, JSONAsClob: true, JSONUnchecked: true}
	checked := Type{Kind: KindJSON, JSONAsClob: true}
	c := Column{Name: "ANY", Type: text, Role: RoleProperty, Source: []string{"a", "b"}, Comment: "free; text"}
	s := FormatComment(&c)
	if s != `target-oracle:path=["a","b"] json-text; free; text` || !CommentJSONText(s) {
		t.Errorf("comment %q", s)
	}
	if role, src, desc, ok := ParseComment(s); !ok || role != RoleProperty || !slices.Equal(src, c.Source) || desc != c.Comment {
		t.Errorf("parsed %v %v %q %v", role, src, desc, ok)
	}
	c.Type = checked
	if s := FormatComment(&c); CommentJSONText(s) || s != `target-oracle:path=["a","b"]; free; text` {
		t.Errorf("checked column's comment %q", s)
	}
	for _, b := range []Type{{Kind: KindVarchar, Length: 10}, NumberType(), checked, {Kind: KindJSON}} {
		if got := Join(text, b, 4000); got != text {
			t.Errorf("Join(JSON text, %v) = %+v", b, got)
		}
	}
	if got := Join(checked, text, 4000); got != checked {
		t.Errorf("Join(CLOB IS JSON, JSON text) = %+v", got)
	}
}
