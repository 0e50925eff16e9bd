package streammap

import (
	"testing"
)

// TestExpressions runs single expressions against one record: the helpers,
// the lazy record dict and the Python forms the SDK's examples use.
func TestExpressions(t *testing.T) {
	const schema = `{"properties":{"id":{"type":"integer"},"name":{"type":"string"},"v":{"type":"number"},"tags":{},"meta":{}}}`
	const record = `{"id":5,"name":"Zoë Smith","v":2.50,"tags":["a","b"],"meta":{"k":1}}`
	tests := []struct{ expr, want string }{
		{"self", `2.50`}, // property "x" below is v's replacement: self copies exactly
		{"name.lower()", `"zoë smith"`},
		{"name.split(' ')[0]", `"Zoë"`},
		{"'yes' if id > 3 else 'no'", `"yes"`},
		{"id % 2 == 1 and not name.startswith('A')", `true`},
		{"'%s-%d' % (name, id)", `"Zoë Smith-5"`},
		{"'{}:{}'.format(id, name)", `"5:Zoë Smith"`},
		{"len(tags)", `2`},
		{"','.join(tags)", `"a,b"`},
		{"[t.upper() for t in tags]", `["A","B"]`},
		{"meta['k'] + 1", `2`},
		{"meta.get('missing', 'd')", `"d"`},
		{"record.get('name')", `"Zoë Smith"`},
		{"'name' in record and 'nope' not in _", `true`},
		{"sorted(record.keys())", `["id","meta","name","tags","v"]`},
		{"v * 2", `5.0`},
		{"int(v)", `2`},
		{"float(id)", `5.0`},
		{"bool(id)", `true`},
		{"str(v)", `"2.5"`},
		{"json.dumps(meta)", `"{\"k\": 1}"`},
		{"json.dumps({'b': 1, 'a': 'é'}, sort_keys=True)", `"{\"a\": \"\\u00e9\", \"b\": 1}"`},
		{"json.dumps({'b': 1, 'a': 'é'}, separators=(',', ':'), ensure_ascii=False)", `"{\"b\":1,\"a\":\"é\"}"`},
		{"json.dumps(record, separators=(',', ':'))", `"{\"id\":5,\"name\":\"Zo\\u00eb Smith\",\"v\":2.5,\"tags\":[\"a\",\"b\"],\"meta\":{\"k\":1}}"`},
		{"json.loads('[1, 2.5, null]')", `[1,2.5,null]`},
		{"md5('')", `"d41d8cd98f00b204e9800998ecf8427e"`},
		{"sha256('abc')", `"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"`},
		{"md5(id)", `"e4da3b7fbbce2345d7772b0674a318d5"`},
		{"datetime.datetime.fromisoformat('2024-02-03 04:05:06+00:00').isoformat()", `"2024-02-03T04:05:06+00:00"`},
		{"datetime.datetime.fromisoformat('2024-02-03T04:05:06.5').strftime('%H:%M:%S.%f %j')", `"04:05:06.500000 034"`},
		{"datetime.date.fromisoformat('2024-02-03').year", `2024`},
		{"datetime.date.today()", `"2024-05-06"`},
		{"datetime.datetime.now(datetime.timezone.utc)", `"2024-05-06T07:08:09.123456+00:00"`},
		{"datetime.datetime.utcnow().date().isoformat()", `"2024-05-06"`},
		{"datetime.datetime.fromtimestamp(86400).isoformat()", `"1970-01-02T00:00:00"`},
		{"datetime.datetime.fromtimestamp(0).timestamp()", `0.0`},
		{"config['nested']['list'][1]", `"b"`},
		{"datetime.datetime.fromisoformat('2024-01-01') < datetime.datetime.now()", `true`},
		{"'%c%X' % (65, 255)", `"AFF"`},
		{"None", `null`},
		{"(id, name)", `[5,"Zoë Smith"]`},
		{"{'a': id}", `{"a":5}`},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			maps := map[string]any{"users": map[string]any{"__else__": nil, "x": tt.expr}}
			if tt.expr == "self" {
				maps["users"] = map[string]any{"__else__": nil, "v": tt.expr}
			}
			m, err := Compile(maps, map[string]any{"nested": map[string]any{"list": []any{"a", "b"}}})
			if err != nil {
				t.Fatal(err)
			}
			m.now = compile(t, "", "").now
			sm := one(t, m, schema, nil)
			out, _, err := sm.Apply([]byte(record))
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			prefix := `{"x":`
			if tt.expr == "self" {
				prefix = `{"v":`
			}
			if got := string(out); got != prefix+tt.want+"}" {
				t.Errorf("got %s, want %s%s}", got, prefix, tt.want)
			}
		})
	}
}

// datetime.datetime.fromisoformat follows the target's one date-time
// grammar (SPEC §4): what a stream map parses is what a date-time column
// accepts, and nothing else.
func TestFromISOFormatGrammar(t *testing.T) {
	tests := []struct{ in, want string }{ // want "" means refused
		{"2018-05-15T11:30Z", "2018-05-15T11:30:00+00:00"},
		{"2018-05-15T11:30", "2018-05-15T11:30:00"},
		{"2018-05-15 11:30+01:00", "2018-05-15T10:30:00+00:00"},
		{"2018-05-15t11:30:05z", "2018-05-15T11:30:05+00:00"},
		{"2018-05-15T11:30:05.123456789-00:00", "2018-05-15T11:30:05.123456+00:00"},
		{"2018-05-15", "2018-05-15T00:00:00"},
		{"2018-05-15T11:30:05.1234567890Z", ""}, // a tenth digit, even a zero: the one grammar (value.ParseDateTime, SPEC §4)
		{"2018-05-15T11:30:05.1234567891Z", ""},
		{"2018-05-15T11:30+0000", ""},
		{"2018-05-15T11:30.5", ""},
		{"2018-05-15T11", ""},
		{"2016-12-31T23:59:60Z", ""},
		{"2018-02-30T00:00Z", ""},
		{"2018-05-15X11:30", ""},
	}
	for _, tt := range tests {
		m := compile(t, `{"users":{"__else__":null,"x":"datetime.datetime.fromisoformat(s).isoformat()"}}`, "")
		sm := one(t, m, `{"type":"object","properties":{"s":{"type":"string"}}}`, nil)
		out, _, err := sm.Apply([]byte(`{"s":"` + tt.in + `"}`))
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("fromisoformat(%q) = %s; want an error", tt.in, out)
		case tt.want != "" && (err != nil || string(out) != `{"x":"`+tt.want+`"}`):
			t.Errorf("fromisoformat(%q) = %s, %v; want %s", tt.in, out, err, tt.want)
		}
	}
}
