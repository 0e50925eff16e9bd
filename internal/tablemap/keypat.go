package tablemap

import "encoding/binary"

// keyPat is a property's key as records write it, `"name":`, for the
// one pass to recognise the key it expects next in place: records list
// keys in schema order nearly always, with the colon right after the key.
// Up to 16 bytes it is compared as one or two 8-byte words, not byte by
// byte, and the key's closing quote and colon are checked in the same
// comparison.
type keyPat struct {
	s      string // `"name":`; "" when the name has a quote, backslash or control character (its JSON form differs)
	lo, hi uint64 // s's first and last 8 bytes (lo: masked when len(s) < 8)
	mask   uint64 // the bytes of lo that s covers
}

func newKeyPat(name string, plain bool) keyPat {
	if !plain {
		return keyPat{lo: 1} // mask 0: no word matches
	}
	k := keyPat{s: `"` + name + `":`}
	var w [8]byte
	copy(w[:], k.s)
	k.lo = binary.LittleEndian.Uint64(w[:])
	k.mask = ^uint64(0)
	if n := len(k.s); n < 8 {
		k.mask = 1<<(8*n) - 1
	} else {
		k.hi = binary.LittleEndian.Uint64([]byte(k.s[n-8:]))
	}
	return k
}

// at reports whether b[i:] starts with the key and its colon.
func (k *keyPat) at(b []byte, i int) bool {
	if n := len(k.s); n <= 16 && i >= 0 && i+16 <= len(b) {
		// n == 0 fails here too: its mask is 0 and its lo 1.
		return binary.LittleEndian.Uint64(b[i:])&k.mask == k.lo && (n <= 8 || binary.LittleEndian.Uint64(b[i+n-8:]) == k.hi)
	}
	return k.atEnd(b, i)
}

// atEnd is at for a key longer than two words or near the end of b.
func (k *keyPat) atEnd(b []byte, i int) bool {
	n := len(k.s)
	return n > 0 && i >= 0 && i+n <= len(b) && string(b[i:i+n]) == k.s
}
