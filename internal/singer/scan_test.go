package singer

import (
	"strings"
	"testing"
)

// skipObject finds a value's end by its brackets and strings, forward:
// members after it, whatever they hold, never move it.
func TestSkipObject(t *testing.T) {
	for _, c := range []struct {
		line string
		want string // the line up to the end found, "" for none
	}{
		{`{"record":{"a":1}}`, `{"record":{"a":1}`},
		{`{"record":{"a":1},"x":{"b":2}}`, `{"record":{"a":1}`},
		{`{"record":{"a":"}"} , "t" : "a\"}\\" }`, `{"record":{"a":"}"}`},
		{`{"record":{"a":"\\","b":"\\\"{"},"x":[1]}`, `{"record":{"a":"\\","b":"\\\"{"}`},
		{`{"record":{"k\"}":[{"}":"]"}]},"x":{}}`, `{"record":{"k\"}":[{"}":"]"}]}`},
		{`{"record":[1,[2]],"x":{}}`, `{"record":[1,[2]]`},
		{`{"record":{"a":1]}`, `{"record":{"a":1]`}, // malformed: the check of these bytes finds it
		{`{"record":{"a":"unterminated}}`, ``},
		{`{"record":{"a":{"b":1}`, ``},
		{`{"record":1}`, ``},
		{`{"record":` + strings.Repeat("[", 5) + strings.Repeat("]", 5) + `}`, `{"record":[[[[[]]]]]`},
		{`{"record":` + strings.Repeat("[", 6) + strings.Repeat("]", 6) + `}`, ``}, // deeper than 5
	} {
		got := ""
		if end := skipObject([]byte(c.line), len(`{"record":`), 5); end >= 0 {
			got = c.line[:end]
		}
		if got != c.want {
			t.Errorf("skipObject(%s) = %q, want %q", c.line, got, c.want)
		}
	}
}
