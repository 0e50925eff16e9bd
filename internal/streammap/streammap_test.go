package streammap

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

const usersSchema = `{"type":"object","properties":{"id":{"type":"integer"},"email":{"type":["string","null"]},` +
	`"name":{"type":"string"},"status":{"type":"string"},"amount":{"type":"number"}},"required":["id","email"]}`

const usersRecord = `{"id":7,"email":"Ann@Example.com","name":"Ann","status":"active","amount":12345678901234567890.123456789}`

// decodeConfig decodes a setting as the config package does (json.Number).
func decodeConfig(t testing.TB, s string) map[string]any {
	t.Helper()
	if s == "" {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return m
}

func compile(t testing.TB, maps, config string) *Mapper {
	t.Helper()
	m, err := Compile(decodeConfig(t, maps), decodeConfig(t, config))
	if err != nil {
		t.Fatalf("Compile(%s): %v", maps, err)
	}
	m.now = func() time.Time { return time.Date(2024, 5, 6, 7, 8, 9, 123456000, time.UTC) }
	return m
}

// one returns the single output map of stream "users".
func one(t testing.TB, m *Mapper, schema string, keys []string) *StreamMap {
	t.Helper()
	sms, err := m.Schema("users", []byte(schema), keys)
	if err != nil {
		t.Fatalf("Schema: %v", err)
	}
	if len(sms) != 1 {
		t.Fatalf("Schema gave %d maps, want 1", len(sms))
	}
	return sms[0]
}

func hexOf(sum []byte) string { return hex.EncodeToString(sum) }

func TestApply(t *testing.T) {
	md5Email := md5.Sum([]byte("Ann@Example.com"))
	shaSalted := sha256.Sum256([]byte("s3cretAnn@Example.com"))
	tests := []struct {
		name, maps, config string
		record             string // default usersRecord
		want               string // "" means dropped
	}{
		{name: "alias keeps the record",
			maps: `{"users":{"__alias__":"people"}}`,
			want: usersRecord},
		{name: "filter keeps",
			maps: `{"users":{"__filter__":"status != 'deleted'"}}`,
			want: usersRecord},
		{name: "filter drops",
			maps:   `{"users":{"__filter__":"status != 'deleted'"}}`,
			record: `{"id":8,"status":"deleted"}`},
		{name: "new property",
			maps: `{"users":{"email_domain":"email.split('@')[-1]"}}`,
			want: strings.TrimSuffix(usersRecord, "}") + `,"email_domain":"Example.com"}`},
		{name: "replaced property stays in place",
			maps: `{"users":{"name":"name.upper()"}}`,
			want: `{"id":7,"email":"Ann@Example.com","name":"ANN","status":"active","amount":12345678901234567890.123456789}`},
		{name: "null removes",
			maps: `{"users":{"email":null}}`,
			want: `{"id":7,"name":"Ann","status":"active","amount":12345678901234567890.123456789}`},
		{name: "__NULL__ removes",
			maps: `{"users":{"email":"__NULL__","status":"__NULL__"}}`,
			want: `{"id":7,"name":"Ann","amount":12345678901234567890.123456789}`},
		{name: "else null keeps listed and key properties",
			maps: `{"users":{"name":"name","__else__":null}}`,
			want: `{"id":7,"name":"Ann"}`},
		{name: "md5 of a PII column",
			maps: `{"users":{"email":"md5(email)"}}`,
			want: `{"id":7,"email":"` + hexOf(md5Email[:]) + `","name":"Ann","status":"active","amount":12345678901234567890.123456789}`},
		{name: "sha256 with a salt from stream_map_config",
			maps:   `{"users":{"email":null,"email_hash":"sha256(config['salt'] + email)"}}`,
			config: `{"salt":"s3cret"}`,
			want:   `{"id":7,"name":"Ann","status":"active","amount":12345678901234567890.123456789,"email_hash":"` + hexOf(shaSalted[:]) + `"}`},
		{name: "config numbers",
			maps:   `{"users":{"__else__":null,"limit":"config['n'] * 2"}}`,
			config: `{"n":21}`,
			want:   `{"id":7,"limit":42}`},
		{name: "string concatenation and int",
			maps: `{"users":{"__else__":null,"label":"str(id) + '-' + name","n":"int('42')"}}`,
			want: `{"id":7,"label":"7-Ann","n":42}`},
		{name: "record and _ subscripts copy exactly",
			maps: `{"users":{"__else__":null,"a":"record['amount']","b":"_['name']","c":"amount"}}`,
			want: `{"id":7,"a":12345678901234567890.123456789,"b":"Ann","c":12345678901234567890.123456789}`},
		{name: "conditional reads a decimal as float",
			maps: `{"users":{"__else__":null,"size":"'big' if amount > 100 else 'small'"}}`,
			want: `{"id":7,"size":"big"}`},
		{name: "self",
			maps: `{"users":{"email":"self.lower() if self else None"}}`,
			want: `{"id":7,"email":"ann@example.com","name":"Ann","status":"active","amount":12345678901234567890.123456789}`},
		{name: "is not None",
			maps:   `{"users":{"__else__":null,"has_email":"email is not None","no_name":"name is None"}}`,
			record: `{"id":1,"email":null}`,
			want:   `{"id":1,"has_email":false,"no_name":true}`},
		{name: "absent property reads as None",
			maps:   `{"users":{"__else__":null,"x":"name or 'anon'"}}`,
			record: `{"id":1}`,
			want:   `{"id":1,"x":"anon"}`},
		{name: "datetime and json helpers",
			maps: `{"users":{"__else__":null,"at":"datetime.datetime.now()","day":"datetime.datetime.now().strftime('%Y/%m/%d')",` +
				`"doc":"json.dumps({'a': 1, 'b': [True, None, 1.5]})","back":"json.loads('{\"k\": [1, 2.5]}')"}}`,
			want: `{"id":7,"at":"2024-05-06T07:08:09.123456","back":{"k":[1,2.5]},"day":"2024/05/06","doc":"{\"a\": 1, \"b\": [true, null, 1.5]}"}`},
		{name: "big integers stay exact through arithmetic",
			maps:   `{"users":{"id":"id + 1"}}`,
			record: `{"id":123456789012345678901234567890}`,
			want:   `{"id":123456789012345678901234567891}`},
		{name: "property named like a built-in",
			maps:   `{"users":{"type":"type.lower()","t":"str(type)"}}`,
			record: `{"id":1,"type":"A"}`,
			want:   `{"id":1,"type":"a","t":"A"}`},
		{name: "whole record",
			maps:   `{"users":{"__else__":null,"raw":"record"}}`,
			record: `{"id":1, "v":1.10}`,
			want:   `{"id":1,"raw":{"id":1, "v":1.10}}`},
		{name: "escaped keys and strings",
			maps:   `{"users":{"__else__":null,"n\u00e9":"name + '\u00e9\\n'"}}`,
			record: `{"id":1,"na\u006de":"A\"B"}`,
			want:   `{"id":1,"né":"A\"Bé\n"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			schema := usersSchema
			if strings.Contains(tt.name, "like a built-in") || strings.Contains(tt.name, "whole record") || strings.Contains(tt.name, "escaped") {
				schema = `{"type":"object","properties":{"id":{"type":"integer"},"type":{"type":"string"},"v":{},"name":{"type":"string"}}}`
			}
			m := compile(t, tt.maps, tt.config)
			sm := one(t, m, schema, []string{"id"})
			record := tt.record
			if record == "" {
				record = usersRecord
			}
			out, keep, err := sm.Apply([]byte(record))
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if keep != (tt.want != "") {
				t.Fatalf("keep = %v, want %v", keep, tt.want != "")
			}
			if keep && string(out) != tt.want {
				t.Errorf("Apply\n got %s\nwant %s", out, tt.want)
			}
			if keep && !json.Valid(out) {
				t.Errorf("output is not valid JSON: %s", out)
			}
		})
	}
}

func TestApplyReusesNothingAcrossRecords(t *testing.T) {
	m := compile(t, `{"users":{"email":"md5(email) if email else None","__filter__":"id != 2"}}`, "")
	sm := one(t, m, usersSchema, []string{"id"})
	inputs := []string{
		`{"id":1,"email":"a"}`,
		`{"email":"b","id":3}`, // another member order
		`{"id":2,"email":"c"}`,
		`{"id":4}`,
	}
	var got []string
	for _, in := range inputs {
		out, keep, err := sm.Apply([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if keep {
			got = append(got, string(out))
		}
	}
	a, b := md5.Sum([]byte("a")), md5.Sum([]byte("b"))
	want := []string{
		`{"id":1,"email":"` + hexOf(a[:]) + `"}`,
		`{"email":"` + hexOf(b[:]) + `","id":3}`,
		`{"id":4,"email":null}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestExactNumbers(t *testing.T) {
	// Untouched numbers, and numbers an expression only copies, keep their
	// text byte for byte; the record is returned as is when nothing changes.
	record := []byte(`{"id":1,"amount":12345678901234567890.123456789,"tiny":1E-400,"neg":-0.0,"nested":{"x":[1.50,2e3]}}`)
	m := compile(t, `{"users":{"name":"'n'","__filter__":"id > 0"}}`, "")
	sm := one(t, m, usersSchema, []string{"id"})
	out, _, err := sm.Apply(record)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":1,"amount":12345678901234567890.123456789,"tiny":1E-400,"neg":-0.0,"nested":{"x":[1.50,2e3]},"name":"n"}`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}

	m = compile(t, `{"users":{"__filter__":"amount > 0"}}`, "")
	sm = one(t, m, usersSchema, []string{"id"})
	out, keep, err := sm.Apply(record)
	if err != nil || !keep {
		t.Fatalf("Apply: keep=%v err=%v", keep, err)
	}
	if &out[0] != &record[0] || len(out) != len(record) {
		t.Errorf("a filter-only map must return the record itself")
	}
}

func TestSchema(t *testing.T) {
	m := compile(t, `{"users":{
		"email":null,
		"s":"str(id)", "i":"int(name)", "b":"bool(name)", "f":"float(id)",
		"u":"json.loads(name)", "lit":"'x'", "cmp":"id > 3", "cat":"name + '!'",
		"h":"md5(name)", "dt":"datetime.datetime.now()", "copy":"amount", "part":"name.split(' ')[0]",
		"amount":"abs(amount)", "name":"name.upper()"}}`, "")
	sm := one(t, m, usersSchema, []string{"id"})
	var got struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(sm.Schema, &got); err != nil {
		t.Fatalf("schema %s: %v", sm.Schema, err)
	}
	want := map[string]string{
		"id":     `{"type":"integer"}`,
		"name":   `{"type":["string","null"]}`,
		"status": `{"type":"string"}`,
		"amount": `{"type":"number"}`, // unknown type: the replaced property's schema
		"s":      `{"type":["string","null"]}`,
		"i":      `{"type":["integer","null"]}`,
		"b":      `{"type":["boolean","null"]}`,
		"f":      `{"type":["number","null"]}`,
		"u":      `{}`,
		"lit":    `{"type":["string","null"]}`,
		"cmp":    `{"type":["boolean","null"]}`,
		"cat":    `{"type":["string","null"]}`,
		"h":      `{"type":["string","null"]}`,
		"dt":     `{"type":["string","null"],"format":"date-time"}`,
		"copy":   `{"type":"number"}`,
		"part":   `{"type":["string","null"]}`,
	}
	if len(got.Properties) != len(want) {
		t.Errorf("properties %s, want the %d of %v", sm.Schema, len(want), want)
	}
	for k, w := range want {
		if string(got.Properties[k]) != w {
			t.Errorf("property %s: %s, want %s", k, got.Properties[k], w)
		}
	}
	if !slices.Equal(got.Required, []string{"id"}) {
		t.Errorf("required %v, want [id] (email removed)", got.Required)
	}
	if got.Type != "object" {
		t.Errorf("type %q lost", got.Type)
	}
	if !slices.Equal(sm.Keys, []string{"id"}) || sm.Identity {
		t.Errorf("keys %v identity %v", sm.Keys, sm.Identity)
	}
	// Property order: input order, then new properties by name.
	order := []string{}
	props := sm.Schema[bytes.Index(sm.Schema, []byte(`"properties":`)):]
	for _, k := range []string{`"id"`, `"name"`, `"status"`, `"amount"`, `"b"`, `"cat"`, `"cmp"`, `"copy"`} {
		order = append(order, k)
		if !bytes.Contains(props, []byte(k+":")) {
			t.Fatalf("%s missing", k)
		}
	}
	for i := 1; i < len(order); i++ {
		if bytes.Index(props, []byte(order[i-1]+":")) > bytes.Index(props, []byte(order[i]+":")) {
			t.Errorf("%s should come before %s in %s", order[i-1], order[i], props)
		}
	}
}

func TestStreams(t *testing.T) {
	const schema = `{"properties":{"id":{"type":"integer"},"email":{"type":"string"},"name":{"type":"string"}}}`
	tests := []struct {
		name, maps string
		stream     string
		keys       []string
		want       []string // output:keys:properties
	}{
		{"unmapped passes", `{"orders":null}`, "users", []string{"id"}, []string{"users:id:id,email,name"}},
		{"removed", `{"users":null}`, "users", nil, nil},
		{"removed with __NULL__", `{"users":"__NULL__"}`, "users", nil, nil},
		{"top-level else drops unmapped", `{"orders":{},"__else__":null}`, "users", nil, nil},
		{"top-level else keeps mapped", `{"users":{},"__else__":null}`, "users", []string{"id"}, []string{"users:id:id,email,name"}},
		{"alias", `{"users":{"__alias__":"people"}}`, "users", []string{"id"}, []string{"people:id:id,email,name"}},
		{"key properties", `{"users":{"__key_properties__":["email"]}}`, "users", []string{"id"}, []string{"users:email:id,email,name"}},
		{"key properties null", `{"users":{"__key_properties__":null}}`, "users", []string{"id"}, []string{"users::id,email,name"}},
		{"split into two streams", `{
			"users":{"email":null,"name":null},
			"users_pii":{"__source__":"users","email":"email","__else__":null},
			"users_names":{"__source__":"users","name":"name","__else__":null}}`,
			"users", []string{"id"}, []string{"users:id:id", "users_names:id:id,name", "users_pii:id:id,email"}},
		{"split with the original removed", `{"users":null,"copy":{"__source__":"users"}}`,
			"users", []string{"id"}, []string{"copy:id:id,email,name"}},
		{"star pattern", `{"*":{"email":null}}`, "users", []string{"id"}, []string{"users:id:id,name"}},
		{"question mark pattern", `{"user?":{"__alias__":"x"}}`, "users", nil, []string{"x::id,email,name"}},
		{"class pattern", `{"[tu]sers":{"name":null}}`, "users", nil, []string{"users::id,email"}},
		{"negated class pattern misses", `{"[!u]sers":{"name":null}}`, "users", nil, []string{"users::id,email,name"}},
		{"exact name beats pattern", `{"*":null,"users":{"name":null}}`, "users", nil, []string{"users::id,email"}},
		{"longer pattern wins", `{"*":null,"us*":{"name":null}}`, "users", nil, []string{"users::id,email"}},
		{"pattern source", `{"all":{"__source__":"*"}}`, "users", nil, []string{"users::id,email,name", "all::id,email,name"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := compile(t, tt.maps, "")
			sms, err := m.Schema(tt.stream, []byte(schema), tt.keys)
			if err != nil {
				t.Fatalf("Schema: %v", err)
			}
			var got []string
			for _, sm := range sms {
				var s struct {
					Properties map[string]any `json:"properties"`
				}
				if err := json.Unmarshal(sm.Schema, &s); err != nil {
					t.Fatalf("schema %s: %v", sm.Schema, err)
				}
				var props []string
				for _, p := range []string{"id", "email", "name"} {
					if _, ok := s.Properties[p]; ok {
						props = append(props, p)
					}
				}
				got = append(got, sm.Output+":"+strings.Join(sm.Keys, ",")+":"+strings.Join(props, ","))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSplitRecords(t *testing.T) {
	m := compile(t, `{"users":{"email":null},"users_pii":{"__source__":"users","email":"email","__else__":null}}`, "")
	sms, err := m.Schema("users", []byte(usersSchema), []string{"id"})
	if err != nil || len(sms) != 2 {
		t.Fatalf("Schema: %d maps, %v", len(sms), err)
	}
	var got []string
	for _, sm := range sms {
		out, _, err := sm.Apply([]byte(usersRecord))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, sm.Output+" "+string(out))
	}
	want := []string{
		`users {"id":7,"name":"Ann","status":"active","amount":12345678901234567890.123456789}`,
		`users_pii {"id":7,"email":"Ann@Example.com"}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestEmpty(t *testing.T) {
	for _, tt := range []struct {
		maps string
		want bool
	}{{"", true}, {`{}`, true}, {`{"__else__":null}`, false}, {`{"a":null}`, false}} {
		if got := compile(t, tt.maps, "").Empty(); got != tt.want {
			t.Errorf("Empty(%s) = %v, want %v", tt.maps, got, tt.want)
		}
	}
}

func TestIdentity(t *testing.T) {
	m := compile(t, `{"other":{"x":"1"}}`, "")
	sm := one(t, m, usersSchema, []string{"id"})
	if !sm.Identity || string(sm.Schema) != usersSchema || sm.Output != "users" {
		t.Errorf("unmapped stream: %+v", sm)
	}
	in := []byte(usersRecord)
	if out, keep, err := sm.Apply(in); err != nil || !keep || &out[0] != &in[0] {
		t.Errorf("identity Apply must return its input")
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		maps           string
		stream, prop   string
		wantSubstrings []string
	}{
		{`{"users":{"x":"f'{name}-{id}'"}}`, "users", "x", []string{"f-strings", ".format"}},
		{`{"users":{"x":"1 < id < 5"}}`, "users", "x", []string{"chained comparisons"}},
		{`{"users":{"x":"id ** 2"}}`, "users", "x", []string{"**"}},
		{`{"users":{"x":"any(c for c in name)"}}`, "users", "x", []string{"list comprehension"}},
		{`{"users":{"x":"import os"}}`, "users", "x", []string{"imports are not available"}},
		{`{"users":{"x":"{1, 2}"}}`, "users", "x", []string{"set literals"}},
		{`{"users":{"__filter__":"status = 'x'"}}`, "users", "__filter__", []string{"status = 'x'"}},
		{`{"users":{"x":"fake.name()"}}`, "users", "x", []string{"Faker"}},
		{`{"users":{"x":42}}`, "users", "x", []string{"want an expression string"}},
		{`{"users":{"x":""}}`, "users", "x", []string{"empty expression"}},
		{`{"users":{"__filtr__":"1"}}`, "users", "__filtr__", []string{"unknown option"}},
		{`{"users":{"__else__":"x"}}`, "users", "__else__", []string{"only null"}},
		{`{"users":{"__key_properties__":"id"}}`, "users", "__key_properties__", []string{"list of property names"}},
		{`{"users":{"__key_properties__":["id"],"id":null}}`, "users", "id", []string{"key property"}},
		{`{"users":{"__source__":"x","__alias__":"y"}}`, "users", "__alias__", []string{"__source__"}},
		{`{"users":"keep"}`, "users", "", []string{"object or null"}},
		{`{"__else__":"x"}`, "", "__else__", []string{"only null"}},
		{`{"__x__":null}`, "", "__x__", []string{"unknown option"}},
	}
	for _, tt := range tests {
		t.Run(tt.maps, func(t *testing.T) {
			_, err := Compile(decodeConfig(t, tt.maps), nil)
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("Compile: %v, want a *ConfigError", err)
			}
			if ce.Stream != tt.stream || ce.Property != tt.prop {
				t.Errorf("stream %q property %q, want %q %q (%v)", ce.Stream, ce.Property, tt.stream, tt.prop, err)
			}
			for _, s := range tt.wantSubstrings {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
		})
	}
}

func TestSchemaErrors(t *testing.T) {
	tests := []struct {
		maps, prop, want string
	}{
		{`{"users":{"x":"emial.lower()"}}`, "x", `name "emial"`},
		{`{"users":{"id":null}}`, "id", "removing key property"},
		{`{"users":{"__key_properties__":["nope"]}}`, "__key_properties__", `"nope"`},
		{`{"users":{"__else__":null,"__key_properties__":["email"]}}`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.maps, func(t *testing.T) {
			m := compile(t, tt.maps, "")
			_, err := m.Schema("users", []byte(usersSchema), []string{"id"})
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Schema: %v", err)
				}
				return
			}
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("Schema: %v, want a *ConfigError", err)
			}
			if ce.Stream != "users" || ce.Property != tt.prop || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v (property %q), want property %q and %q", err, ce.Property, tt.prop, tt.want)
			}
		})
	}
	if _, err := compile(t, `{"users":{}}`, "").Schema("users", []byte(`[1]`), nil); err == nil {
		t.Errorf("a schema that is not an object must fail")
	}
}

func TestRuntimeErrors(t *testing.T) {
	tests := []struct {
		maps, record, prop, want string
	}{
		{`{"users":{"n":"int(name)"}}`, `{"id":1,"name":"Ann"}`, "n", "int"},
		{`{"users":{"__filter__":"name.zfill(3)"}}`, `{"id":1,"name":"Ann"}`, "__filter__", "zfill"},
		{`{"users":{"h":"md5(email)"}}`, `{"id":1,"email":null}`, "h", "guard nulls"},
		{`{"users":{"n":"float('inf')"}}`, `{"id":1}`, "n", "JSON"},
		{`{"users":{"n":"len(range(100000000))"}}`, `{"id":1}`, "", ""}, // cheap: range is lazy
		{`{"users":{"n":"[x for x in range(100000000)]"}}`, `{"id":1}`, "n", "too many steps"},
		{`{"users":{"n":"name"}}`, `[1]`, "", "not a JSON object"},
		{`{"users":{"n":"name + 'x'"}}`, `{"id":1,"name":"a\u12"}`, "n", `\u`},
	}
	for _, tt := range tests {
		t.Run(tt.maps, func(t *testing.T) {
			sm := one(t, compile(t, tt.maps, ""), usersSchema, []string{"id"})
			_, _, err := sm.Apply([]byte(tt.record))
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Apply: %v", err)
				}
				return
			}
			var ee *EvalError
			if !errors.As(err, &ee) {
				t.Fatalf("Apply: %v, want an *EvalError", err)
			}
			if ee.Property != tt.prop || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v (property %q), want property %q and %q", err, ee.Property, tt.prop, tt.want)
			}
			if tt.prop != "" && !strings.Contains(err.Error(), `"`+tt.prop+`"`) {
				t.Errorf("error %v does not name the property", err)
			}
		})
	}
	// The thread recovers after a cancelled evaluation.
	sm := one(t, compile(t, `{"users":{"n":"[x for x in range(int(name))][-1]"}}`, ""), usersSchema, nil)
	if _, _, err := sm.Apply([]byte(`{"name":"100000000"}`)); err == nil {
		t.Fatal("want too many steps")
	}
	if out, _, err := sm.Apply([]byte(`{"name":"3"}`)); err != nil || string(out) != `{"name":"3","n":2}` {
		t.Errorf("after a cancelled run: %s, %v", out, err)
	}
}

func TestRewriteIs(t *testing.T) {
	for in, want := range map[string]string{
		"x is None":              "x == None",
		"x is not None":          "x != None",
		"x is  not\tNone":        "x !=\tNone",
		"'a is b' if isx else y": "'a is b' if isx else y",
		`"it's" is not nothing`:  `"it's" != nothing`,
		"x is notable":           "x == notable",
		"'''is''' is None":       "'''is''' == None",
	} {
		if got := rewriteIs(in); got != want {
			t.Errorf("rewriteIs(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPyFloat(t *testing.T) {
	for f, want := range map[float64]string{
		1.5: "1.5", 3: "3.0", 1e16: "1e+16", 1e15: "1000000000000000.0", 1.5e-7: "1.5e-07",
		0.0001: "0.0001", 0.00001: "1e-05", -2.5e300: "-2.5e+300", 0.30000000000000004: "0.30000000000000004",
	} {
		if got := string(appendPyFloat(nil, f)); got != want {
			t.Errorf("appendPyFloat(%v) = %s, want %s", f, got, want)
		}
	}
}

func TestFnmatch(t *testing.T) {
	for _, tt := range []struct {
		pattern, name string
		want          bool
	}{
		{"*", "a-b.c", true}, {"tap_*", "tap_users", true}, {"tap_*", "xtap_users", false},
		{"a?c", "abc", true}, {"a?c", "ac", false}, {"[ab]x", "bx", true}, {"[!ab]x", "bx", false},
		{"[!ab]x", "cx", true}, {"a.b*", "axb", false}, {"[a-c]*", "cat", true}, {"x[", "x[", true},
	} {
		re := fnmatch(tt.pattern)
		got := tt.pattern == tt.name
		if re != nil {
			got = re.MatchString(tt.name)
		}
		if got != tt.want {
			t.Errorf("fnmatch(%q, %q) = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
}

func FuzzApply(f *testing.F) {
	f.Add([]byte(usersRecord))
	f.Add([]byte(`{"id":1,"email":"a\u00e9\"","x":[1,{"y":null}]}`))
	f.Add([]byte(`{}`))
	m := compile(f, `{"users":{"status":null,"email":"email.lower() if email else None","n":"str(id) + name if name else None"}}`, "")
	sm := one(f, m, usersSchema, []string{"id"})
	f.Fuzz(func(t *testing.T, record []byte) {
		if !json.Valid(record) {
			return
		}
		out, keep, err := sm.Apply(record)
		if err != nil || !keep {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("Apply(%s) = %s: not JSON", record, out)
		}
	})
}

func TestSchemaWithoutProperties(t *testing.T) {
	// A schema without properties (storage_mode json): any name reads the
	// record, and the computed properties are added to the schema.
	m := compile(t, `{"users":{"h":"md5(anything)","drop":null}}`, "")
	sm := one(t, m, `{"type":"object"}`, nil)
	if want := `{"type":"object","properties":{"h":{"type":["string","null"]}}}`; string(sm.Schema) != want {
		t.Errorf("schema %s, want %s", sm.Schema, want)
	}
	out, _, err := sm.Apply([]byte(`{"anything":"a","drop":1}`))
	sum := md5.Sum([]byte("a"))
	if want := `{"anything":"a","h":"` + hexOf(sum[:]) + `"}`; err != nil || string(out) != want {
		t.Errorf("Apply = %s, %v; want %s", out, err, want)
	}
}

func TestAliased(t *testing.T) {
	cases := []struct {
		name string
		maps map[string]any
		want map[string][]string
	}{
		{"two inputs into one output", map[string]any{
			"b": map[string]any{"__alias__": "o"}, "a": map[string]any{"__alias__": "o"}},
			map[string][]string{"o": {"a", "b"}}},
		{"a rename is no sharing", map[string]any{
			"a": map[string]any{"__alias__": "o"}, "b": map[string]any{"__alias__": "p"}},
			map[string][]string{}},
		{"patterns, removals and splits are not inputs known ahead", map[string]any{
			"a*": map[string]any{"__alias__": "o"}, "b": nil, "c": map[string]any{"__alias__": "o"},
			"o": map[string]any{"__source__": "d"}},
			map[string][]string{}},
		{"three inputs, one removed", map[string]any{
			"x": map[string]any{"__alias__": "o"}, "y": map[string]any{"__alias__": "o"},
			"z": map[string]any{"__alias__": "o"}, "w": nil},
			map[string][]string{"o": {"x", "y", "z"}}},
	}
	for _, c := range cases {
		m, err := Compile(c.maps, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := m.Aliased(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Aliased() = %v, want %v", c.name, got, c.want)
		}
	}
	if got := (*Mapper)(nil).Aliased(); got != nil {
		t.Errorf("nil Mapper: Aliased() = %v", got)
	}
}
