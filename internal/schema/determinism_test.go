package schema

import "testing"

// The same invalid record gets the same message, byte for byte, every
// time, through Validate and ValidateRaw alike (issue 13 item 15): where
// a record breaks several rules that rank alike, the message names the
// first by path (then keyword), never the one Go's map order met first.
// The first call is compared with the expected text, and 200 calls of
// each function must repeat it (map order varies from call to call, so
// a single call could pass by luck).
func TestValidationMessagesAreDeterministic(t *testing.T) {
	cases := []struct {
		name, schema, record, want string
	}{
		{"two type errors",
			`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"},"c":{"type":"integer"},"d":{"type":"integer"}}}`,
			`{"d":"w","c":"x","b":"y","a":"z"}`,
			`property "a": "z" is not of type integer`},
		{"nested type errors",
			`{"type":"object","properties":{"o":{"type":"object","properties":{"p":{"type":"string"}}},"q":{"type":"object","properties":{"r":{"type":"string"}}}}}`,
			`{"q":{"r":1},"o":{"p":2}}`,
			`property "o.p": 2 is not of type string`},
		{"several unknown properties",
			`{"type":"object","properties":{"id":{"type":"integer"}},"additionalProperties":false}`,
			`{"id":1,"z":1,"y":2,"x":3,"w":4}`,
			`property "w": property "w" is not allowed by the schema`},
		{"different keywords",
			`{"type":"object","properties":{"a":{"type":"string","pattern":"^x$"},"b":{"type":"integer","minimum":5},"c":{"type":"string","maxLength":1}}}`,
			`{"c":"long","b":1,"a":"nor this"}`,
			`property "a": "nor this" does not match the pattern "^x$"`},
		{"array items, by index",
			`{"type":"object","properties":{"l":{"type":"array","items":{"type":"integer"}}}}`,
			`{"l":[0,1,"two",3,4,5,6,7,8,9,"ten"]}`,
			`property "l.2": "two" is not of type integer`},
		{"invalid numbers",
			`{"type":"object"}`,
			`{"d":1e999,"c":2e999,"b":3e999,"a":4e999}`,
			`property "a": 4e999 is not a valid number: magnitude 1e126 or more, less expected`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sch := mustCompile(t, c.schema)
			first := errText(sch.ValidateRaw([]byte(c.record)))
			if c.want != "" && first != c.want {
				t.Fatalf("got  %s\nwant %s", first, c.want)
			}
			for i := 0; i < 200; i++ {
				if got := errText(sch.ValidateRaw([]byte(c.record))); got != first {
					t.Fatalf("ValidateRaw call %d: %s, first call: %s", i, got, first)
				}
				if got := errText(sch.Validate(decode(t, c.record))); got != first {
					t.Fatalf("Validate call %d: %s, first call: %s", i, got, first)
				}
			}
		})
	}
}
