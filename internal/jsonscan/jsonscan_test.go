package jsonscan

import (
	"testing"
)

func TestPlain(t *testing.T) {
	for name, want := range map[string]bool{
		"id": true, "é": true, "a b": true, "": true,
		`a"b`: false, `a\b`: false, "a\tb": false, "a\x7f": true, "\xff": false,
	} {
		if got := Plain(name); got != want {
			t.Errorf("Plain(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestHex4(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want rune
		ok   bool
	}{
		{"0041", 'A', true}, {"00e9", 'é', true}, {"00E9x", 'é', true}, {"D83D", 0xD83D, true}, {"ffff", 0xFFFF, true},
		{"004", 0, false}, {"", 0, false}, {"00g1", 0, false}, {"+041", 0, false}, {"0x41", 0, false}, {"00_1", 0, false},
	} {
		got, ok := Hex4([]byte(tc.in))
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("Hex4(%q) = %U, %v; want %U, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
