package table

import "testing"

// TestCommentPathIsASCII: the path is written in ASCII escapes and reads
// back as the same keys; a comment an earlier release wrote with the
// characters themselves reads back too.
func TestCommentPathIsASCII(t *testing.T) {
	c := &Column{Role: RoleProperty, Source: []string{"größe", "中", "😀"}, Comment: "déjà"}
	got := FormatComment(c)
	want := `target-oracle:path=["gr\u00f6\u00dfe","\u4e2d","\ud83d\ude00"]; déjà`
	if got != want {
		t.Errorf("comment %s, want %s", got, want)
	}
	for _, s := range []string{got, `target-oracle:path=["größe","中","😀"]; déjà`} {
		role, src, desc, ok := ParseComment(s)
		if !ok || role != RoleProperty || len(src) != 3 || src[0] != "größe" || src[1] != "中" || src[2] != "😀" || desc != "déjà" {
			t.Errorf("%s read back as %v %q %q %v", s, role, src, desc, ok)
		}
	}
}
