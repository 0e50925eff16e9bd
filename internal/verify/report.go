package verify

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/sijms/go-ora/v2/converters"

	"github.com/target-oracle/target-oracle/internal/connect"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/value"
)

// Charset is one of the server's character sets and the characters of the
// cases it cannot hold.
type Charset struct {
	Role   string   `json:"role"` // database | national
	Name   string   `json:"name"`
	Cannot []string `json:"cannot_hold,omitempty"` // "U+1F600 😀"
	Note   string   `json:"note,omitempty"`
}

// charsetReport lists, for the database and national character sets, the
// non-ASCII characters of the cases each cannot hold, as go-ora converts
// text into them (an unmappable character arrives as a replacement).
func charsetReport(f connect.Facts, cases []Case) []Charset {
	chars := map[rune]bool{}
	for _, c := range cases {
		for _, v := range c.Values {
			var s string
			if err := json.Unmarshal([]byte(v), &s); err != nil {
				s = v
			}
			for _, r := range s {
				if r >= utf8.RuneSelf {
					chars[r] = true
				}
			}
		}
	}
	var list []rune
	for r := range chars {
		list = append(list, r)
	}
	sort.Slice(list, func(i, j int) bool { return list[i] < list[j] })
	out := []Charset{
		charsetOf("database", f.Server.DBCharset, list),
		charsetOf("national", f.Server.NCharset, list),
	}
	return out
}

func charsetOf(role, name string, chars []rune) Charset {
	cs := Charset{Role: role, Name: name}
	switch strings.ToUpper(name) {
	case "", "AL32UTF8", "UTF8", "AL16UTF16":
		cs.Note = "Unicode: holds every character"
		if strings.EqualFold(name, "UTF8") {
			cs.Note = "UTF8 (CESU-8): holds every character; a 4-byte UTF-8 character takes 6 bytes"
		}
		if name == "" {
			cs.Note = "unknown (not readable); assumed Unicode"
		}
		return cs
	}
	id := oracle.CharsetID(name)
	conv := converters.NewStringConverter(id)
	if id == 0 || conv == nil {
		cs.Note = "a character set go-ora cannot convert: which characters it holds is not known"
		return cs
	}
	for _, r := range chars {
		s := string(r)
		if conv.Decode(conv.Encode(s)) != s {
			cs.Cannot = append(cs.Cannot, fmt.Sprintf("U+%04X %s", r, s))
		}
	}
	return cs
}

// NormalJSON is JSON text with canonical numbers (value.CanonicalNumber)
// and sorted keys: the form a native JSON column is compared in (the
// "same value, other text" note of a mismatch; the live suite's
// conformance scenarios).
func NormalJSON(s string) string {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return s
	}
	var b strings.Builder
	writeNormal(&b, v)
	return b.String()
}

func writeNormal(b *strings.Builder, v any) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeNormal(b, k)
			b.WriteByte(':')
			writeNormal(b, v[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeNormal(b, x)
		}
		b.WriteByte(']')
	case json.Number:
		if c, _, err := value.CanonicalNumber(string(v)); err == nil {
			b.WriteString(c) // exact: "1.50" and "1.5" are one number, 1 and 1.0000000000000001 are not
		} else {
			b.WriteString(string(v))
		}
	default:
		q, _ := json.Marshal(v)
		b.Write(q)
	}
}

// Write prints the report: text for a person, or one JSON object.
func (r *Report) Write(w io.Writer, format string) error {
	if format == "json" {
		out := struct {
			OK bool `json:"ok"`
			*Report
		}{r.OK(), r}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	var b strings.Builder
	s := r.Server
	fmt.Fprintf(&b, "target-oracle --verify: Oracle %s %s, COMPATIBLE %s, MAX_STRING_SIZE %s, schema %s\n",
		or(s.Version), s.Edition, or(s.Compatible), or(s.MaxStringSize), or(s.Schema))
	fmt.Fprintf(&b, "server facts that decided the types: identifiers %d bytes, VARCHAR2 up to %d bytes, BOOLEAN %s, JSON %s, national text %s\n",
		s.IdentifierMaxBytes, s.VarcharMaxBytes, native(s.BooleanNative, "native", "NUMBER(1)"), native(s.JSONNative, "native", "CLOB IS JSON"),
		native(s.National, "NVARCHAR2/NCLOB", "VARCHAR2/CLOB (NVARCHAR2/NCLOB tested in a second table)"))
	if !r.CheckOK {
		b.WriteString("FAIL  --check: loading cannot work; nothing was created. Missing privileges: " + strings.Join(r.Missing, ", ") + "\n")
		for _, f := range r.Fixes {
			b.WriteString("      " + f + "\n")
		}
	}
	for _, c := range r.Charsets {
		line := fmt.Sprintf("character set (%s): %s", c.Role, or(c.Name))
		switch {
		case len(c.Cannot) > 0:
			line += ": cannot hold " + strings.Join(c.Cannot, ", ")
		case c.Note != "":
			line += ": " + c.Note
		default:
			line += ": holds every character of the cases"
		}
		b.WriteString(line + "\n")
	}
	if len(r.Leftovers) > 0 {
		fmt.Fprintf(&b, "dropped leftovers older than an hour: %s\n", strings.Join(r.Leftovers, ", "))
	}
	pass, fail, skip := 0, 0, 0
	for _, c := range r.Results {
		switch c.Status {
		case Pass:
			pass++
		case Fail:
			fail++
		default:
			skip++
		}
		where := strings.TrimSpace(c.Column + " " + c.Type)
		if where != "" {
			// A table's shape and the history cases name no column.
			where = " (" + where + ")"
		}
		fmt.Fprintf(&b, "%-5s %s [%s] %s%s\n", label(c.Status), c.Table, c.Path, c.Case, where)
		if c.Status != Pass {
			if c.Detail != "" {
				b.WriteString("      " + c.Detail + "\n")
			}
			if c.Expected != "" || c.Got != "" {
				fmt.Fprintf(&b, "      expected %q\n      got      %q\n", c.Expected, c.Got)
			}
			if c.Dump != "" {
				b.WriteString("      DUMP " + c.Dump + "\n")
			}
		}
	}
	for _, e := range r.Errors {
		b.WriteString("FAIL  " + e + "\n")
	}
	if r.Stopped {
		b.WriteString("stopped by a signal before every case ran\n")
	}
	fmt.Fprintf(&b, "%d passed, %d failed, %d skipped; scratch tables %s dropped: %s\n", pass, fail, skip,
		strings.Join(r.Tables, ", "), strings.Join(r.Dropped, ", "))
	if r.OK() {
		b.WriteString("verify: every value path landed exactly\n")
	} else {
		b.WriteString("verify: FAILED (see docs/oracle.md, \"How to tell us what your database did\")\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func label(s Status) string {
	switch s {
	case Pass:
		return "ok"
	case Fail:
		return "FAIL"
	}
	return "skip"
}

func native(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

func or(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
