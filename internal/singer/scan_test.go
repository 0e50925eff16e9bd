package singer

import "testing"

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
