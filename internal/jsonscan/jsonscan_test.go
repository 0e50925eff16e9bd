package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPlain(t *testing.T) {
	for name, want := range map[string]bool{
		"id": true, "é": true, "a b": true, "": true,
		`a"b`: false, `a\b`: false, "a\tb": false, "a\x7f": true, "\xff": false,
	} {
		if got := Plain(name); got != want {
			t.Errorf("Plain(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestHex4(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want rune
		ok   bool
	}{
		{"0041", 'A', true}, {"00e9", 'é', true}, {"00E9x", 'é', true}, {"D83D", 0xD83D, true}, {"ffff", 0xFFFF, true},
		{"004", 0, false}, {"", 0, false}, {"00g1", 0, false}, {"+041", 0, false}, {"0x41", 0, false}, {"00_1", 0, false},
	} {
		got, ok := Hex4([]byte(tc.in))
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("Hex4(%q) = %U, %v; want %U, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestEscapeLen(t *testing.T) {
	for in, want := range map[string]int{
		`\n`: 2, `\"x`: 2, `\/`: 2, `\u0041`: 6, `\u00e9z`: 6, `\uD83D\uDE00`: 12, `\ud83d\ude00x`: 12,
		`\`: 0, `\x`: 0, `\u004`: 0, `\u00g1`: 0, `\uD83D`: 0, `\uDE00\uD83D`: 0, `\uD83D\u0041`: 0,
		`\uD83Dx\uDE00`: 0, `\uD83D\uDE0`: 0,
	} {
		if got := EscapeLen([]byte(in), 0); got != want {
			t.Errorf("EscapeLen(%s) = %d, want %d", in, got, want)
		}
	}
}

func TestAppendUnescaped(t *testing.T) {
	for _, tc := range []struct {
		in, want  string
		bad       int
		strictBad int // 1 + the offset strict mode stops at; 0: as without strict
	}{
		{`plain`, `plain`, -1, 0},
		{`a\"b\\c\/d\be\ff\ng\rh\ti`, "a\"b\\c/d\be\ff\ng\rh\ti", -1, 0},
		{`\u0041\u00e9\u20AC`, "Aé€", -1, 0},
		{`x\uD83D\uDE00y`, "x😀y", -1, 0},
		{`é\u00e9`, "éé", -1, 0},
		{"\xff\\n", "\xff\n", -1, 0}, // bytes other than escapes are copied
		{`a\uD83Db`, "a\uFFFDb", -1, 2},
		{`\uDE00\uD83D`, "\uFFFD\uFFFD", -1, 1},
		{`\uD83D\u0041`, "\uFFFDA", -1, 1},
		{`ab\`, `ab`, 2, 0},
		{`ab\x`, `ab`, 2, 0},
		{`ab\u12`, `ab`, 2, 0},
		{`\n\u12G4`, "\n", 2, 0},
	} {
		for _, strict := range []bool{false, true} {
			got, bad := AppendUnescaped([]byte("<"), []byte(tc.in), strict)
			want, wantBad := "<"+tc.want, tc.bad
			if strict && tc.strictBad > 0 {
				wantBad, want = tc.strictBad-1, "<"+tc.in[:tc.strictBad-1]
			}
			if string(got) != want || bad != wantBad {
				t.Errorf("AppendUnescaped(%q, %v) = %q, %d; want %q, %d", tc.in, strict, got, bad, want, wantBad)
			}
		}
	}
}

func TestStringEnd(t *testing.T) {
	for _, tc := range []struct {
		in      string
		end     int
		escaped bool
	}{
		{`""`, 2, false}, {`"abc",`, 5, false}, {`"a\"b"`, 6, true}, {`"a\\"b"`, 5, true},
		{`"abc`, -1, false}, {`"a\"`, -1, false}, {`"\`, -1, false},
	} {
		end, esc := StringEnd([]byte(tc.in), 0)
		if end != tc.end || esc != tc.escaped {
			t.Errorf("StringEnd(%s) = %d, %v; want %d, %v", tc.in, end, esc, tc.end, tc.escaped)
		}
	}
}

func TestValueEnd(t *testing.T) {
	for in, want := range map[string]string{
		`1,`: `1`, `-1.5e3}`: `-1.5e3`, `true]`: `true`, `null `: `null`, `12:`: `12`, `123`: `123`,
		`"a,b",`: `"a,b"`, `{"a":[1,"]"]},1`: `{"a":[1,"]"]}`, `[[],{}] `: `[[],{}]`,
		`,`: ``, ``: ``, `"abc`: ``, `{"a":1`: ``, `[1,"]]`: ``,
	} {
		got := ""
		if end := ValueEnd([]byte(in), 0); end >= 0 {
			got = in[:end]
		}
		if got != want {
			t.Errorf("ValueEnd(%s) = %q, want %q", in, got, want)
		}
	}
}

// ContainerEnd finds a value's end by its brackets and strings, forward:
// members after it, whatever they hold, never move it.
func TestContainerEnd(t *testing.T) {
	for _, c := range []struct {
		line string
		want string // the line up to the end found, "" for none
	}{
		{`{"record":{"a":1}}`, `{"record":{"a":1}`},
		{`{"record":{"a":1},"x":{"b":2}}`, `{"record":{"a":1}`},
		{`{"record":{"a":"}"} , "t" : "a\"}\\" }`, `{"record":{"a":"}"}`},
		{`{"record":{"a":"\\","b":"\\\"{"},"x":[1]}`, `{"record":{"a":"\\","b":"\\\"{"}`},
		{`{"record":{"k\"}":[{"}":"]"}]},"x":{}}`, `{"record":{"k\"}":[{"}":"]"}]}`},
		{`{"record":{"a":"a long string, longer than a word \" {","b":"12345678\\"}}`, `{"record":{"a":"a long string, longer than a word \" {","b":"12345678\\"}`},
		{`{"record":[1,[2]],"x":{}}`, `{"record":[1,[2]]`},
		{`{"record":{"a":1]}`, `{"record":{"a":1]`}, // malformed: the check of these bytes finds it
		{`{"record":{"a":"unterminated}}`, ``},
		{`{"record":{"a":"unterminated, and longer than a word\"}}`, ``},
		{`{"record":{"a":{"b":1}`, ``},
		{`{"record":1}`, ``},
		{`{"record":`, ``},
		{`{"record":` + strings.Repeat("[", 5) + strings.Repeat("]", 5) + `}`, `{"record":[[[[[]]]]]`},
		{`{"record":` + strings.Repeat("[", 6) + strings.Repeat("]", 6) + `}`, ``}, // deeper than 5
	} {
		got := ""
		if end := ContainerEnd([]byte(c.line), len(`{"record":`), 5); end >= 0 {
			got = c.line[:end]
		}
		if got != c.want {
			t.Errorf("ContainerEnd(%s) = %q, want %q", c.line, got, c.want)
		}
	}
}

// FuzzSkip checks the skips and the unescaping against encoding/json on
// valid JSON: ValueEnd ends a value where json.Decoder does, ContainerEnd
// agrees with it on containers, StringEnd on strings, and a string's body
// unescapes to what json.Unmarshal decodes.
func FuzzSkip(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x\"y",{"b":null}]} `, `"a\u00e9\uD83D\uDE00\n"`, `[1, 2 ,3]`, `-1.5e3 `, `true`, `"\uD83Dx"`, `{"k\\":"}"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		dec := json.NewDecoder(bytes.NewReader(b))
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return
		}
		start := bytes.IndexFunc(b, func(r rune) bool { return r != ' ' && r != '\t' && r != '\n' && r != '\r' })
		want := int(dec.InputOffset())
		if end := ValueEnd(b, start); end != want {
			// A number or literal followed by bytes json.Decoder reads
			// as the next value ("1x") ends where the decoder stopped
			// only if it is followed by a delimiter.
			if c := b[start]; c == '"' || c == '{' || c == '[' || end < want || want < len(b) && !scalarByte[b[want]] {
				t.Fatalf("ValueEnd(%q) = %d, want %d", s, end, want)
			}
		}
		switch b[start] {
		case '{', '[':
			if end := ContainerEnd(b, start, MaxDepth); end != want {
				t.Fatalf("ContainerEnd(%q) = %d, want %d", s, end, want)
			}
		case '"':
			end, _ := StringEnd(b, start)
			if end != want {
				t.Fatalf("StringEnd(%q) = %d, want %d", s, end, want)
			}
			var str string
			if json.Unmarshal(b[start:end], &str) != nil {
				return
			}
			got, bad := AppendUnescaped(nil, b[start+1:end-1], false)
			if bad >= 0 || !utf8.Valid(b[start+1:end-1]) {
				return // json.Unmarshal replaces invalid UTF-8, AppendUnescaped copies it
			}
			if string(got) != str {
				t.Fatalf("AppendUnescaped(%q) = %q, json.Unmarshal: %q", b[start+1:end-1], got, str)
			}
		}
	})
}

func BenchmarkContainerEnd(b *testing.B) {
	line := []byte(`{"id": 1, "uuid": "a6a3a450-0c5c-128b-d23f-1818892f902b", "customer": "Foxtrot Charlie", "email": "foxtrot.charlie@example.com", "amount": 47931.74, "qty": 59, "active": false, "created_at": "2024-04-02T02:27:26.073248Z", "updated_at": "2025-04-03T17:27:03+02:00", "address": {"street": "847 Golf Street", "city": "Charlie", "zip": "74115"}, "tags": ["foxtrot", "charlie", "golf"]}`)
	for _, bc := range []struct {
		name string
		end  func([]byte, int, int) int
	}{{"blocks", ContainerEnd}, {"bytes", containerEndBytes}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				if bc.end(line, 0, 100) != len(line) {
					b.Fatal("wrong end")
				}
			}
		})
	}
}

// FuzzContainerEnd holds ContainerEnd to containerEndBytes, the byte at a
// time walk, on any input: valid JSON or not, at any depth limit.
func FuzzContainerEnd(f *testing.F) {
	rec := `{"id": 1, "uuid": "a6a3a450-0c5c-128b-d23f-1818892f902b", "customer": "Foxtrot \"Charlie\"", "tags": ["foxtrot", "charlie", {"g\\": [1, 2]}]}`
	for _, s := range []string{rec, rec + rec, `[` + strings.Repeat(`"\\\\\"`, 30) + `"]`, strings.Repeat("[", 70) + strings.Repeat("]", 70), `{"a":"` + strings.Repeat("x", 63) + `\"}"}`} {
		f.Add(s, uint8(5), uint8(0))
		f.Add(s, uint8(200), uint8(0))
	}
	f.Fuzz(func(t *testing.T, s string, maxDepth, at uint8) {
		b := []byte(s)
		i := int(at) % (len(b) + 1)
		if got, want := ContainerEnd(b, i, int(maxDepth)), containerEndBytes(b, i, int(maxDepth)); got != want {
			t.Fatalf("ContainerEnd(%q, %d, %d) = %d, the byte walk: %d", s, i, maxDepth, got, want)
		}
	})
}

// TestContainerEndBlocks runs the cases of TestContainerEnd again, with
// long strings and members around them so that ContainerEnd reads blocks.
func TestContainerEndBlocks(t *testing.T) {
	pad := `"` + strings.Repeat("p", 70) + `",`
	for _, c := range []string{
		`{` + pad + `"a":{` + pad + `"b":[` + pad + `1]},` + pad + `"c":"}"}` + pad,
		`[` + strings.Repeat(`"\\\"{",`, 20) + `[]]x`,
		`{` + pad + `"a":"` + strings.Repeat(`\\`, 40) + `\"}"}` + pad,
		`{` + pad + `"a":"unterminated ` + strings.Repeat("x", 80) + `}`,
		`{` + pad + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}` + pad,
		`{` + pad + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}` + pad,
		`{` + pad + `"a":1\"}"}` + pad,                     // a backslash outside strings: not JSON
		`{` + pad + `"a":1\\"}"}` + pad,                    // two
		`{"a":"` + strings.Repeat("x", 57) + `\"}"}` + pad, // an escape across blocks: the backslash at byte 63
		`{"a":"` + strings.Repeat("x", 58) + `\"}"}` + pad, // the escaped quote at byte 0 of the next block
	} {
		for _, maxDepth := range []int{5, 41, 100} {
			got, want := ContainerEnd([]byte(c), 0, maxDepth), containerEndBytes([]byte(c), 0, maxDepth)
			if got != want {
				t.Errorf("ContainerEnd(%s, %d) = %d, the byte walk: %d", c, maxDepth, got, want)
			}
		}
	}
	if got, want := ContainerEnd([]byte(`{`+pad+`"a":{}}`+pad), 0, 10), len(`{`+pad+`"a":{}}`); got != want {
		t.Errorf("ContainerEnd = %d, want %d", got, want)
	}
}
