package table

import "testing"

// TestReplacedKeyIsKeyless: a recorded empty key (the table had none) is
// matched by a keyless SCHEMA's nil key; nothing recorded matches nothing.
func TestReplacedKeyIsKeyless(t *testing.T) {
	_, recorded, ok := ParseTableComment(FormatTableComment([]string{"s"}, []string{}))
	if !ok || recorded == nil {
		t.Fatalf("comment with an empty replaced key reads as %q %v", recorded, ok)
	}
	for _, tc := range []struct {
		recorded, key []string
		want          bool
	}{
		{recorded, nil, true},
		{recorded, []string{}, true},
		{recorded, []string{"ID"}, false},
		{nil, nil, false},
		{[]string{"ID"}, nil, false},
	} {
		if got := ReplacedKeyIs(tc.recorded, tc.key); got != tc.want {
			t.Errorf("ReplacedKeyIs(%q, %q) = %v, want %v", tc.recorded, tc.key, got, tc.want)
		}
	}
}
