package singer

import (
	"encoding/json"
	"strings"
)

// pathAt returns the object keys that lead, in the JSON text b, to the
// byte at off: the property a syntax error there is in (SPEC §8 wants the
// property named, not only a byte offset). b before off must be valid
// JSON text so far, as it is when off is a scan's first fault. Array
// levels add no key. A fault inside a key itself names its parent.
func pathAt(b []byte, off int) []string {
	var stack []pathFrame
	for i := 0; i < off && i < len(b); i++ {
		var top *pathFrame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		switch c := b[i]; c {
		case '{', '[':
			stack = append(stack, pathFrame{object: c == '{', wantKey: c == '{'})
		case '}', ']':
			if top != nil {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if top != nil && top.object {
				top.wantKey, top.key = true, ""
			}
		case ':':
			if top != nil {
				top.wantKey = false
			}
		case '"':
			end := stringEnd(b, i)
			if top != nil && top.object && top.wantKey {
				if end >= off {
					return keysOf(stack[:len(stack)-1])
				}
				var k string
				if json.Unmarshal(b[i:end+1], &k) == nil {
					top.key = k
				}
			}
			i = end
		}
	}
	return keysOf(stack)
}

// pathFrame is one open object or array of pathAt's walk.
type pathFrame struct {
	object, wantKey bool
	key             string // the object's member being read
}

// keysOf is the path of the open frames: each object's current key.
func keysOf(stack []pathFrame) []string {
	var path []string
	for _, f := range stack {
		if f.object && !f.wantKey {
			path = append(path, f.key)
		}
	}
	return path
}

// stringEnd returns the offset of the quote that ends the string starting
// at b[i] (a quote), or len(b) when it does not end.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return len(b)
}

// propertyAt is the record property (keys joined with ".") holding the
// byte at off of record, "" when none does.
func propertyAt(record []byte, off int) string {
	return propertyName(pathAt(record, off))
}

// propertyName joins a property path with "."; a path deeper than
// maxNamedDepth is not named (the error is then about nesting itself, and
// a thousand keys would drown it).
func propertyName(path []string) string {
	const maxNamedDepth = 16
	if len(path) > maxNamedDepth {
		return ""
	}
	return strings.Join(path, ".")
}
