package singer

import (
	"strings"
	"testing"
)

// pathAt names the keys down to a byte; the byte is marked by "@" in the
// cases (removed before the walk).
func TestPathAt(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":@1}`, "a"},
		{`{"a":1,"b":{"c":[1,{"d":@x}]}}`, "b.c.d"},
		{`{"a":{"b":1},"c":@x}`, "c"},
		{`{"a":"}{\"","b":@x}`, "b"},
		{`{"a.b":{"c":@x}}`, "a.b.c"},
		{`{"a":{"b@":1}}`, "a"}, // a fault inside a key names its parent
		{`{"a":[1,2,@x]}`, "a"},
		{`@{}`, ""},
		{`{"k\"]":@x}`, `k"]`},
	} {
		off := strings.IndexByte(c.in, '@')
		b := []byte(c.in[:off] + c.in[off+1:])
		if got := strings.Join(pathAt(b, off), "."); got != c.want {
			t.Errorf("pathAt(%s, %d) = %q, want %q", b, off, got, c.want)
		}
	}
}
