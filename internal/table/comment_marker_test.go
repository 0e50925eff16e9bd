package table

import (
	"slices"
	"strings"
	"testing"
)

// A migration marker's comment reads back as the column it replaces and
// that column's comment, whole: a non-ASCII name, a comment with "; " in
// it, and a comment too long to carry (dropped, never cut).
func TestMigrationCommentRoundTrip(t *testing.T) {
	inner := FormatComment(&Column{Role: RoleProperty, Source: []string{"a; b", "ç"}, Comment: "x; y"})
	for _, c := range []struct {
		column, inner, want string
	}{
		{"C", inner, inner},
		{"ÇA", "", ""},
		{"C", "target-oracle:path=[\"c\"]; " + strings.Repeat("d", 3990), ""},
	} {
		s := FormatComment(&Column{Role: RoleMigration, Source: []string{c.column}, Comment: c.inner})
		role, src, desc, ok := ParseComment(s)
		if !ok || role != RoleMigration || !slices.Equal(src, []string{c.column}) || desc != c.want || len(s) > maxCommentBytes {
			t.Errorf("%q: read back %v %v %q %v (%d bytes)", s[:min(len(s), 80)], role, src, desc, ok, len(s))
		}
	}
	for _, bad := range []string{"target-oracle:migration-of=", `target-oracle:migration-of=["A","B"]`, `target-oracle:migration-of=[1]`} {
		if role, _, _, ok := ParseComment(bad); ok && role == RoleMigration {
			t.Errorf("%q read as a marker", bad)
		}
	}
}
