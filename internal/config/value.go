package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// object is a JSON object that keeps its members in input order, duplicates
// included: stream_overrides are matched in config order, and a key given
// twice in one file must be seen to be reported.
type object struct {
	members []member
}

type member struct {
	key string
	val any
}

// plain converts v, as produced by decodeJSON, to the usual encoding/json
// shapes (map[string]any, []any), keeping json.Number for numbers. The last
// duplicate key wins, as with encoding/json.
func plain(v any) any {
	switch v := v.(type) {
	case *object:
		m := make(map[string]any, len(v.members))
		for _, mb := range v.members {
			m[mb.key] = plain(mb.val)
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = plain(e)
		}
		return out
	}
	return v
}

// repeatedKey finds a key given twice with different values in an object
// anywhere inside v, and returns its path (".a.b", "[2].c").
func repeatedKey(v any) (string, bool) {
	switch v := v.(type) {
	case *object:
		seen := make(map[string]any, len(v.members))
		for _, mb := range v.members {
			if old, dup := seen[mb.key]; dup && !reflect.DeepEqual(old, plain(mb.val)) {
				return "." + mb.key, true
			}
			seen[mb.key] = plain(mb.val)
			if p, found := repeatedKey(mb.val); found {
				return "." + mb.key + p, true
			}
		}
	case []any:
		for i, e := range v {
			if p, found := repeatedKey(e); found {
				return fmt.Sprintf("[%d]%s", i, p), true
			}
		}
	}
	return "", false
}

// maxDepth bounds the nesting of a config document; no setting needs more
// than a few levels, and the bound keeps the recursive decoder safe.
const maxDepth = 200

// decodeJSON decodes one JSON value into *object, []any, string,
// json.Number, bool or nil. Trailing data is an error.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, jsonError(data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("unexpected data after the top-level value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("nested more than %d levels", maxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok := tok.(type) {
	case json.Delim:
		if tok == '{' {
			return decodeObject(dec, depth)
		}
		return decodeArray(dec, depth)
	default:
		return tok, nil
	}
}

func decodeObject(dec *json.Decoder, depth int) (any, error) {
	obj := &object{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		val, err := decodeValue(dec, depth+1)
		if err != nil {
			return nil, err
		}
		obj.members = append(obj.members, member{key, val})
	}
	_, err := dec.Token() // '}'
	return obj, err
}

func decodeArray(dec *json.Decoder, depth int) (any, error) {
	arr := []any{}
	for dec.More() {
		val, err := decodeValue(dec, depth+1)
		if err != nil {
			return nil, err
		}
		arr = append(arr, val)
	}
	_, err := dec.Token() // ']'
	return arr, err
}

// jsonError turns a decoding error into one that names the line. It never
// quotes the input beyond what encoding/json itself reports (one character).
func jsonError(data []byte, err error) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		line := 1 + bytes.Count(data[:min(int(syn.Offset), len(data))], []byte("\n"))
		return fmt.Errorf("invalid JSON on line %d: %v", line, syn)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return errors.New("invalid JSON: unexpected end of input")
	}
	return fmt.Errorf("invalid JSON: %v", err)
}

// show renders a non-secret value for a message, shortened so that a stray
// large value does not flood the log.
func show(v any) string {
	var s string
	switch v := v.(type) {
	case string:
		s = strconv.Quote(v)
	case json.Number:
		s = v.String()
	default:
		b, err := json.Marshal(plain(v))
		if err != nil {
			return fmt.Sprintf("%T", v)
		}
		s = string(b)
	}
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// text returns the text of a scalar: strings as they are, numbers as written.
func text(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case json.Number:
		return v.String(), true
	}
	return "", false
}

// parseBool accepts the spellings environment variables use.
func parseBool(s string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "1", "yes", "on", "y", "t":
		return true, true
	case "false", "0", "no", "off", "n", "f":
		return false, true
	}
	return false, false
}

// decimalText is a number as decimal text: strconv.ParseFloat alone also
// takes Go's literal syntax (1_521, 0x5F1p0, Inf), which no setting's
// documentation allows.
var decimalText = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)

// parseInt accepts an integer written as a JSON number (1e3 and 10.0
// included, when integral) or as text. Integrality and range are decided
// on the decimal text itself: through float64, 2.0000000000000000001
// would round to 2 and pass as an integer.
func parseInt(v any) (int64, bool) {
	s, ok := text(v)
	if !ok {
		return 0, false
	}
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	d, ok := parseDecimal(s)
	switch {
	case !ok || d.exp < 0 || len(d.digits)+d.exp > 18:
		return 0, false // not integral, or beyond what any setting takes
	case d.digits == "":
		return 0, true
	}
	n, err := strconv.ParseInt(d.digits+strings.Repeat("0", d.exp), 10, 64)
	if err != nil {
		return 0, false
	}
	if d.neg {
		n = -n
	}
	return n, true
}

// parseFraction accepts a number from 0 to 1 as decimal text, decided on
// the text (1.00000000000000001 is above 1, though its float64 is 1).
func parseFraction(v any) (float64, bool) {
	s, ok := text(v)
	if !ok {
		return 0, false
	}
	s = strings.TrimSpace(s)
	d, ok := parseDecimal(s)
	switch {
	case !ok || (d.neg && d.digits != ""):
		return 0, false
	case len(d.digits)+d.exp > 1, len(d.digits)+d.exp == 1 && d.digits != "1":
		return 0, false // 1 or more: only 1 itself
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// decimal is decimal text as digits × 10^exp: digits without leading or
// trailing zeros ("" is zero).
type decimal struct {
	neg    bool
	digits string
	exp    int
}

// parseDecimal reads decimal text (decimalText); an exponent beyond
// ±10,000 is refused rather than expanded.
func parseDecimal(s string) (decimal, bool) {
	if !decimalText.MatchString(s) {
		return decimal{}, false
	}
	var d decimal
	if s[0] == '+' || s[0] == '-' {
		d.neg, s = s[0] == '-', s[1:]
	}
	mant, expText, hasExp := strings.Cut(strings.ToLower(s), "e")
	if hasExp {
		e, err := strconv.Atoi(expText)
		if err != nil || e > 10000 || e < -10000 {
			return decimal{}, false
		}
		d.exp = e
	}
	whole, frac, _ := strings.Cut(mant, ".")
	d.exp -= len(frac)
	digits := strings.TrimLeft(whole+frac, "0")
	trimmed := strings.TrimRight(digits, "0")
	d.exp += len(digits) - len(trimmed)
	d.digits = trimmed
	if d.digits == "" {
		d.exp = 0
	}
	return d, true
}

// stringList accepts a JSON array of strings, a string holding one, or a
// comma-separated list (the SDK's legacy env form). An empty string is an
// empty list.
func stringList(v any) ([]string, bool) {
	if s, ok := v.(string); ok {
		s = strings.TrimSpace(s)
		if strings.HasPrefix(s, "[") {
			d, err := decodeJSON([]byte(s))
			if err != nil {
				return nil, false
			}
			return stringList(d)
		}
		out := []string{}
		for _, part := range strings.Split(s, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
		return out, true
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// asObject accepts an object or a string holding one (flext stores
// column_mappings and custom_indexes as JSON text). An empty string is an
// empty object.
func asObject(v any) (*object, bool) {
	if s, ok := v.(string); ok {
		if strings.TrimSpace(s) == "" {
			return &object{}, true
		}
		d, err := decodeJSON([]byte(s))
		if err != nil {
			return nil, false
		}
		v = d
	}
	obj, ok := v.(*object)
	return obj, ok
}

// withoutNulls returns v without its null members, in nested objects and
// in the objects of arrays too. Null elements of arrays stay (and fail
// as the wrong type: a list of names with a hole is not "not set").
func withoutNulls(v any) any {
	switch v := v.(type) {
	case *object:
		out := &object{members: make([]member, 0, len(v.members))}
		for _, m := range v.members {
			if m.val != nil {
				out.members = append(out.members, member{m.key, withoutNulls(m.val)})
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = withoutNulls(e)
		}
		return out
	}
	return v
}
