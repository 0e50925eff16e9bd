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

// A marker's comment records the column's NOT NULL and the primary key it
// is in (MarkerFacts), and reads back its column and comment as before;
// a marker without them (an earlier release's) has no facts.
func TestMigrationCommentRecordsNotNullAndKey(t *testing.T) {
	c := &Column{Name: "K; 2", Role: RoleProperty, Source: []string{"k"}, Comment: "x; y"}
	for _, tc := range []struct {
		nullable bool
		key      []string
		with     bool
		old      string
	}{{false, []string{"ID", "K; 2"}, true, "K; 2$O"}, {true, nil, true, ""}, {false, nil, false, "É$O"}, {true, []string{"É", "K; 2"}, false, ""}} {
		cc := *c
		cc.Nullable = tc.nullable
		s := MigrationComment(&cc, tc.with, tc.key, tc.old)
		role, src, desc, ok := ParseComment(s)
		want := ""
		if tc.with {
			want = FormatComment(c)
		}
		if !ok || role != RoleMigration || !slices.Equal(src, []string{c.Name}) || desc != want {
			t.Errorf("%q: read back %v %v %q %v", s, role, src, desc, ok)
		}
		f, ok := ParseMarkerFacts(s)
		if !ok || f.NotNull == tc.nullable || !slices.Equal(f.Key, tc.key) || f.Old != tc.old {
			t.Errorf("%q: facts %+v %v, want not-null %v key %v old %q", s, f, ok, !tc.nullable, tc.key, tc.old)
		}
	}
	if f, ok := ParseMarkerFacts(`target-oracle:migration-of=["C"]; target-oracle:path=["c"]`); !ok || f.NotNull || f.Key != nil {
		t.Errorf("an earlier release's marker: facts %+v %v", f, ok)
	}
	for _, bad := range []string{`target-oracle:migration-of=["C"] key=[]`, `target-oracle:migration-of=["C"] key=x`, `target-oracle:path=["c"]`,
		`target-oracle:migration-of=["C"] old=[]`, `target-oracle:migration-of=["C"] old=[""]`, `target-oracle:migration-of=["C"] old=x`} {
		if _, ok := ParseMarkerFacts(bad); ok {
			t.Errorf("%q has facts", bad)
		}
	}
}
