package jsonscan

import "math/bits"

// masks64 returns, for the 64 bytes at p, the bit masks of the quotes,
// backslashes, opening and closing brackets (masks_amd64.s).
//
//go:noescape
func masks64(p *byte) (quote, bslash, open, close uint64)

// prefixXor returns the mask whose bit k is the parity of the bits 0..k
// of x: set for the bytes from an opening quote up to (not including) its
// closing one.
func prefixXor(x uint64) uint64 {
	x ^= x << 1
	x ^= x << 2
	x ^= x << 4
	x ^= x << 8
	x ^= x << 16
	x ^= x << 32
	return x
}

// ContainerEnd returns the index just past the object or array at b[i],
// finding it by its brackets and strings alone: see containerEndBytes,
// whose result it returns for every input (FuzzContainerEnd). It reads 64
// bytes at a time: masks of the quotes and brackets, the bytes inside
// strings from the quotes' running parity, and the depth from the counts
// of brackets outside strings, walking bracket by bracket only in a block
// that could close the value or pass maxDepth. Escapes are found taking
// every backslash to be in a string; a block where one is not (whether a
// backslash escapes depends on whether it is in a string; JSON has none
// outside) is read a byte at a time, as containerEndBytes reads it.
func ContainerEnd(b []byte, i, maxDepth int) int {
	if i >= len(b) || b[i] != '{' && b[i] != '[' || maxDepth < 1 {
		return -1
	}
	if len(b)-i < 64 {
		return containerEndBytes(b, i, maxDepth) // no block to read
	}
	depth := 1
	var in uint64 // all ones when the block starts inside a string
	for i++; i < len(b); {
		var q, bs, op, cl uint64
		if len(b)-i >= 64 {
			q, bs, op, cl = masks64(&b[i])
		} else {
			// The last 64 bytes of b, which hold the rest from i: the
			// masks shifted down to start at i.
			sh := uint(64 - (len(b) - i))
			q, bs, op, cl = masks64(&b[len(b)-64])
			q, bs, op, cl = q>>sh, bs>>sh, op>>sh, cl>>sh
		}
		next := i + 64
		if bs != 0 {
			// The escapes, as if every backslash were in a string: the
			// backslashes that start one and the bytes they escape.
			var start, esc uint64
			for m := bs; m != 0; {
				low := m & -m
				start |= low
				esc |= low << 1
				m &^= low | low<<1
			}
			if start>>63 != 0 {
				next++ // the next block starts after the byte escaped
			}
			q &^= esc
			if start&^(prefixXor(q)^in) != 0 {
				// A backslash outside strings (not JSON): read as the
				// byte walk reads it.
				var end int
				if i, in, depth, end = walkBlock(b, i, in, depth, maxDepth); end != 0 {
					return end
				}
				continue
			}
		}
		s := prefixXor(q) ^ in
		in = uint64(int64(s) >> 63)
		op &^= s
		cl &^= s
		if nc := bits.OnesCount64(cl); nc < depth && depth+bits.OnesCount64(op) <= maxDepth {
			depth += bits.OnesCount64(op) - nc
		} else {
			for m := op | cl; m != 0; m &= m - 1 {
				k := bits.TrailingZeros64(m)
				if op>>k&1 != 0 {
					if depth++; depth > maxDepth {
						return -1
					}
				} else if depth--; depth == 0 {
					return i + k + 1
				}
			}
		}
		i = next
	}
	return -1
}

// walkBlock reads the 64 bytes from b[i] (fewer at the end of b) a byte at
// a time, in a string when in is set, and returns where the next block
// starts (past an escaped byte beyond the block), the state there, and
// the value's end if it closes (-1: it cannot), else 0.
func walkBlock(b []byte, i int, in uint64, depth, maxDepth int) (next int, _ uint64, _ int, end int) {
	stop := min(i+64, len(b))
	for ; i < stop; i++ {
		c := b[i]
		if in != 0 {
			switch c {
			case '\\':
				i++
			case '"':
				in = 0
			}
			continue
		}
		switch skipClass[c] {
		case skipQuote:
			in = ^uint64(0)
		case skipOpen:
			if depth++; depth > maxDepth {
				return i, in, depth, -1
			}
		case skipClose:
			if depth--; depth == 0 {
				return i, in, depth, i + 1
			}
		}
	}
	if i >= len(b) {
		return i, in, depth, -1
	}
	return i, in, depth, 0
}
