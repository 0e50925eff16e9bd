package singer

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"
)

func TestSpecialBytes(t *testing.T) {
	naive := func(b []byte) int {
		for i, c := range b {
			if !plainByte[c] {
				return i
			}
		}
		return 8
	}
	interesting := []byte{0, 0x1f, 0x20, 0x21, '"', '\\', 'a', 0x7f, 0x80, 0x81, 0xa0, 0xff, '#', '[', ']'}
	rng := rand.New(rand.NewPCG(1, 2))
	var b [8]byte
	for range 200000 {
		for i := range b {
			if rng.IntN(4) == 0 {
				b[i] = byte(rng.IntN(256))
			} else {
				b[i] = interesting[rng.IntN(len(interesting))]
			}
		}
		got := 8
		if m := specialBytes(binary.LittleEndian.Uint64(b[:])); m != 0 {
			got = bits.TrailingZeros64(m) / 8
		}
		if want := naive(b[:]); got != want {
			t.Fatalf("%q: first special byte at %d, want %d", b, got, want)
		}
	}
}
