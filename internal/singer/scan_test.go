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

func TestGuessRecordEnd(t *testing.T) {
	for _, c := range []struct {
		line string
		want string // the line up to the guessed end, "" for none
	}{
		{`{"type":"RECORD","stream":"s","record":{"a":1}}`, `{"type":"RECORD","stream":"s","record":{"a":1}`},
		{`{"type":"RECORD","record":{"a":1},"time_extracted":"2025-01-01T00:00:00Z","version":17} `, `{"type":"RECORD","record":{"a":1}`},
		{`{"record":{"a":"}"} , "t" : "a\"}\\" , "n" : -1.5E+3, "b": false, "z" :null }`, `{"record":{"a":"}"}`},
		{`{"record":{"a":1},"x":[1,2]}`, `{"record":{"a":1},"x":[1,2]`},     // an array: not the record (the caller checks '}')
		{`{"record":{"a":1},"x":{"b":2}}`, `{"record":{"a":1},"x":{"b":2}`}, // wrong, and CheckRecord finds out
		{`{"type":"STATE","value":1}`, ``},
		{`{"record":{"a":1},"t":"unterminated}`, ``},
		{`{"record":{"a":1},"t":x"}`, ``},
		{`{"record":{"a":1} "t":1}`, ``},
		{`["record",{"a":1}]`, ``},
		{``, ``},
		{`}`, ``},
		{`"}`, ``},
		{`:"a"}`, ``},
	} {
		got := ""
		if end := guessRecordEnd([]byte(c.line)); end >= 0 {
			got = c.line[:end]
		}
		if got != c.want {
			t.Errorf("guessRecordEnd(%s) = %q, want %q", c.line, got, c.want)
		}
	}
}
