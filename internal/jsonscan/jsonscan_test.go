package jsonscan

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The SWAR searches against plain byte loops.
func FuzzSearches(f *testing.F) {
	for _, s := range []string{"", "abc\"", "0123456789abcdef\\\"", "ab\x01", "é\"", strings.Repeat("x", 17) + "\"", "\"\"\x7f\x80"} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, b []byte, start uint8) {
		i := int(start) % (len(b) + 1)
		wantQ, wantS := len(b), len(b)
		for j := len(b) - 1; j >= i; j-- {
			if c := b[j]; c == '"' || c == '\\' {
				wantQ = j
			}
			if c := b[j]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
				wantS = j
			}
		}
		if got := Quote(b, i); got != wantQ {
			t.Fatalf("Quote(%q, %d) = %d, want %d", b, i, got, wantQ)
		}
		if got := Special(b, i); got != wantS {
			t.Fatalf("Special(%q, %d) = %d, want %d", b, i, got, wantS)
		}
		want := -1
		for j := i; j < len(b); j++ {
			if b[j] == '\\' {
				j++
			} else if b[j] == '"' {
				want = j
				break
			}
		}
		if got := StringClose(b, i); got != want {
			t.Fatalf("StringClose(%q, %d) = %d, want %d", b, i, got, want)
		}
	})
}

// Random short inputs rich in the bytes the searches care about, and their
// neighbours (the SWAR borrow cases), against plain loops.
func TestSearchesRandom(t *testing.T) {
	interesting := []byte{0, 0x1f, 0x20, 0x21, '"', '\\', 'a', 0x7f, 0x80, 0x81, 0xa0, 0xff, '#', '[', ']'}
	rng := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 24)
	for range 200000 {
		n := rng.IntN(len(b) + 1)
		for i := range b[:n] {
			if rng.IntN(4) == 0 {
				b[i] = byte(rng.IntN(256))
			} else {
				b[i] = interesting[rng.IntN(len(interesting))]
			}
		}
		s := b[:n]
		wantQ, wantS := n, n
		for j := n - 1; j >= 0; j-- {
			if c := s[j]; c == '"' || c == '\\' {
				wantQ = j
			}
			if c := s[j]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
				wantS = j
			}
		}
		if got := Quote(s, 0); got != wantQ {
			t.Fatalf("Quote(%q) = %d, want %d", s, got, wantQ)
		}
		if got := Special(s, 0); got != wantS {
			t.Fatalf("Special(%q) = %d, want %d", s, got, wantS)
		}
	}
}

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

// TestStructural holds the word-at-a-time search to a byte loop on every
// position of inputs mixing the five bytes with their bit-5 twins ({ [ } ]
// and ; { ] } [ } ... ) and high bytes.
func TestStructural(t *testing.T) {
	alphabet := []byte{'"', '{', '[', '}', ']', ';', '=', 0x7B | 0x80, 0x5B ^ 0x20 ^ 0x01, 'a', ' ', 0xFF, 0xDB, 0xFD, 0x02, '\\'}
	slow := func(b []byte, i int) int {
		for ; i < len(b); i++ {
			switch b[i] {
			case '"', '{', '[', '}', ']':
				return i
			}
		}
		return len(b)
	}
	seed := uint32(1)
	for n := 0; n < 3000; n++ {
		b := make([]byte, n%40)
		for k := range b {
			seed = seed*1664525 + 1013904223
			if seed>>28 < 12 { // mostly plain bytes, so hits are sparse
				b[k] = alphabet[5+int(seed>>8)%11]
			} else {
				b[k] = alphabet[int(seed>>8)%len(alphabet)]
			}
		}
		for i := 0; i <= len(b); i++ {
			if got, want := Structural(b, i), slow(b, i); got != want {
				t.Fatalf("Structural(%q, %d) = %d, want %d", b, i, got, want)
			}
		}
	}
}
