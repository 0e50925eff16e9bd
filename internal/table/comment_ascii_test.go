package table

import (
	"strings"
	"testing"
)

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

// TestCommentLongPath: a path whose escaped JSON would pass Oracle's 4000
// bytes is recorded by digest, reads back, and still matches its property
// (cutting it would have cut through a \uXXXX escape and lost the match).
func TestCommentLongPath(t *testing.T) {
	long := []string{strings.Repeat("日本", 400), strings.Repeat("é", 300)}
	c := &Column{Role: RoleProperty, Source: long, Comment: strings.Repeat("d", 5000)}
	got := FormatComment(c)
	if len(got) > maxCommentBytes {
		t.Fatalf("comment of %d bytes, over %d", len(got), maxCommentBytes)
	}
	role, src, _, ok := ParseComment(got)
	if !ok || role != RoleProperty {
		t.Fatalf("%.80s... does not read back (ok %v, role %v)", got, ok, role)
	}
	if !SourceMatches(src, long) {
		t.Errorf("recorded %q does not match the path", src)
	}
	if SourceMatches(src, []string{long[0]}) {
		t.Errorf("recorded %q matches another path", src)
	}
	short := &Column{Role: RoleProperty, Source: []string{"a"}}
	if _, src, _, _ := ParseComment(FormatComment(short)); len(src) != 1 || src[0] != "a" {
		t.Errorf("a short path is recorded as %q", src)
	}
}
