package batchfile

import (
	"strconv"
	"testing"
)

// TestAppendHalfRoundTrips: every finite FLOAT16 prints as text that
// rounds back to it, and no shorter text does (nearestHalf checked
// against halfToFloat).
func TestAppendHalfRoundTrips(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		if h&0x7c00 == 0x7c00 {
			continue // Inf, NaN
		}
		if f := float64(halfToFloat(uint16(h))); nearestHalf(f) != uint16(h) && f != 0 {
			t.Fatalf("nearestHalf(%v) = %#x, want %#x", f, nearestHalf(f), h)
		}
		b, err := appendHalf(nil, uint16(h))
		if err != nil {
			t.Fatal(err)
		}
		v, err := strconv.ParseFloat(string(b), 64)
		if err != nil || v != 0 && nearestHalf(v) != uint16(h) {
			t.Fatalf("FLOAT16 %#x printed %s, reads back as %#x", h, b, nearestHalf(v))
		}
	}
	for h, want := range map[uint16]string{0x3555: "0.3333", 0x0001: "6e-08", 0x2e66: "0.1", 0x7bff: "65500", 0x3c00: "1", 0xc000: "-2"} {
		if b, _ := appendHalf(nil, h); string(b) != want {
			t.Errorf("FLOAT16 %#x: %s, want %s", h, b, want)
		}
	}
}
