package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/target-oracle/target-oracle/internal/value"
)

// MaxNumberText is the longest number text a record may hold. The validator
// library parses numbers with math/big, which is superlinear in the length
// of the text; a valid number with at most 38 significant digits needs at
// most a few hundred characters unless padded with zeros, so a longer one is
// refused before it can stall the loader.
const MaxNumberText = 1000

// ValidationError is a record that violates its schema: the most specific
// failing property and what was expected there.
type ValidationError struct {
	// Path is the instance path from the record root (array indexes as
	// decimal strings); empty for the record itself.
	Path []string
	// Msg says what is wrong, e.g. `12.345 is not a multiple of 0.01`.
	Msg string
}

func (e *ValidationError) Error() string {
	if len(e.Path) == 0 {
		return "record: " + e.Msg
	}
	return fmt.Sprintf("property %s: %s", strconv.Quote(strings.Join(e.Path, ".")), e.Msg)
}

// Validate checks one record decoded by encoding/json with UseNumber
// (map[string]any, []any, json.Number, string, bool, nil). The error is a
// *ValidationError. Besides the schema it enforces what every number must
// satisfy to be stored unchanged (value.CheckNumber, at most MaxNumberText
// characters), wherever the number is.
func (s *Schema) Validate(record any) error {
	if e := checkNumbers(record, false, s.asText); e != nil {
		// Map order found one: the message names the first by path, so
		// that the same record always gets the same text.
		e = checkNumbers(record, true, s.asText)
		slices.Reverse(e.Path)
		return e
	}
	err := s.validator.Validate(record)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		e := describe(ve, record)
		e.Msg = cutMessage(e.Msg)
		return e
	}
	return &ValidationError{Msg: cutMessage(err.Error())}
}

// maxMessage bounds an error message: it may quote the schema (a pattern
// of a megabyte), and it is repeated for every rejected record, in the log
// and the reject file.
const maxMessage = 500

func cutMessage(m string) string {
	if len(m) <= maxMessage {
		return m
	}
	cut := maxMessage
	for cut > 0 && !utf8.RuneStart(m[cut]) {
		cut--
	}
	return m[:cut] + fmt.Sprintf("… (%d more bytes)", len(m)-cut)
}

// NumberPaths says where a record's numbers are not bounded by Oracle
// NUMBER (value.CheckNumber), for KeepNumberText. Paths are property names
// from the record root; an array passes the names below its path on to
// its elements, as ignored_columns does ("items.price" is the price of
// every element of items).
type NumberPaths struct {
	// Inside are the paths whose objects and arrays are kept as text as
	// received (SPEC §5.3: CLOB JSON columns and documents; the empty
	// path is the whole record): every number below them is. Bare are
	// those where a number standing at the path itself keeps its text
	// too.
	Inside, Bare [][]string
	// Unloaded are the paths whose values are never loaded anywhere
	// (ignored_columns): no number at or below them is bounded.
	Unloaded [][]string
	// Open are the objects whose members are loaded only where named in
	// Loaded or in the lists above: any other member is not loaded (the
	// undeclared properties of a record whose properties are columns).
	Open, Loaded [][]string
}

// KeepNumberText tells Validate (and ValidateRaw) where Oracle NUMBER's
// bounds (value.CheckNumber) do not apply to a record's numbers (see
// NumberPaths): numbers kept as text as received, and numbers never
// loaded. Such numbers must still be at most MaxNumberText characters with
// an exponent of at most maxTextExponentDigits digits, so that the
// validator library can compare them, and the schema's own rules still
// hold. The call replaces the earlier one. Not safe to call while the
// schema validates.
func (s *Schema) KeepNumberText(p NumberPaths) {
	if len(p.Inside)+len(p.Bare)+len(p.Unloaded)+len(p.Open) == 0 {
		s.asText = nil
		return
	}
	t := &textPaths{}
	for _, q := range p.Inside {
		t.at(q).inside = true
	}
	for _, q := range p.Bare {
		t.at(q).bare = true
	}
	for _, q := range p.Unloaded {
		n := t.at(q)
		n.inside, n.bare = true, true
	}
	for _, q := range p.Open {
		t.at(q).open = true
	}
	for _, q := range p.Loaded {
		t.at(q)
	}
	t.linkElements()
	s.asText = t
}

// textPaths is a tree of property names: where numbers are not bounded.
// open: a member not in next is not bounded (see NumberPaths.Open); elem
// is what element returns.
type textPaths struct {
	inside, bare, open bool
	next               map[string]*textPaths
	elem               *textPaths
}

// linkElements sets elem below t: an element of an array at a node has
// the node's names below it, and neither its open nor its bare.
func (t *textPaths) linkElements() {
	if len(t.next) == 0 {
		return
	}
	t.elem = &textPaths{next: t.next}
	t.elem.elem = t.elem // an array in an array
	for _, n := range t.next {
		n.linkElements()
	}
}

func (t *textPaths) at(path []string) *textPaths {
	for _, name := range path {
		if t.next == nil {
			t.next = map[string]*textPaths{}
		}
		n := t.next[name]
		if n == nil {
			n = &textPaths{}
			t.next[name] = n
		}
		t = n
	}
	return t
}

// allText is every value inside a value whose numbers keep their text.
var allText = &textPaths{inside: true, bare: true}

// member returns the paths at member name of an object at t; nil when
// none (numbers there are bounded).
func (t *textPaths) member(name string) *textPaths {
	switch {
	case t == nil:
		return nil
	case t.inside:
		return allText
	}
	if n, ok := t.next[name]; ok {
		return n
	}
	if t.open {
		return allText
	}
	return nil
}

// element returns the paths at an element of an array at t: the names
// below t apply to the element's members (see NumberPaths).
func (t *textPaths) element() *textPaths {
	switch {
	case t == nil:
		return nil
	case t.inside:
		return allText
	}
	return t.elem
}

// maxTextExponentDigits bounds the exponent of a number kept as text: the
// validator library computes with it (math/big), and 1e9999 is already
// far beyond any number a tap means.
const maxTextExponentDigits = 4

// checkNumbers returns an invalid number, with its path reversed: with
// sorted, the first by path (object members by name); without, whichever
// Go's map order meets first (cheaper: no sorting while all is well). at
// says where numbers keep their text (nil: nowhere below v).
func checkNumbers(v any, sorted bool, at *textPaths) *ValidationError {
	switch v := v.(type) {
	case map[string]any:
		if sorted {
			for _, k := range slices.Sorted(maps.Keys(v)) {
				if err := checkNumbers(v[k], true, at.member(k)); err != nil {
					err.Path = append(err.Path, k)
					return err
				}
			}
			return nil
		}
		for k, e := range v {
			if err := checkNumbers(e, false, at.member(k)); err != nil {
				err.Path = append(err.Path, k)
				return err
			}
			v[k] = tameZero(e)
		}
	case []any:
		for i, e := range v {
			if err := checkNumbers(e, sorted, at.element()); err != nil {
				err.Path = append(err.Path, strconv.Itoa(i))
				return err
			}
			v[i] = tameZero(e)
		}
	case json.Number:
		if len(v) > MaxNumberText {
			return &ValidationError{Msg: fmt.Sprintf("number text of %d characters is longer than the %d allowed", len(v), MaxNumberText)}
		}
		_, err := value.CheckNumber(string(v))
		if err == nil || at == nil || !at.bare {
			if err != nil {
				return &ValidationError{Msg: InvalidNumber(string(v), err)}
			}
			return nil
		}
		// Kept as text: any number JSON allows, within the library's means.
		if exponentDigits(string(v)) > maxTextExponentDigits {
			return &ValidationError{Msg: fmt.Sprintf("%s has an exponent of more than %d digits", display(v), maxTextExponentDigits)}
		}
	}
	return nil
}

// tameZero replaces a number whose exponent has more digits than int64
// holds by "0": having passed value.CheckNumber it can only be a zero, and
// the validator library would fail on it inside math/big (a nil pointer).
func tameZero(e any) any {
	if n, ok := e.(json.Number); ok && exponentDigits(string(n)) > maxExponentDigits {
		return json.Number("0")
	}
	return e
}

// maxExponentDigits bounds the exponent of a number the validator library
// is handed; anything non-zero beyond it is out of Oracle's range anyway.
const maxExponentDigits = 18

// exponentDigits counts the significant digits of a number's exponent.
func exponentDigits(n string) int {
	i := strings.IndexAny(n, "eE")
	if i < 0 {
		return 0
	}
	e := strings.TrimLeft(n[i+1:], "+-")
	return len(strings.TrimLeft(e, "0"))
}

func reason(err error) string {
	var ve *value.Error
	if errors.As(err, &ve) {
		return ve.Reason
	}
	return err.Error()
}

// describe turns the library's error tree into one error: the leaf at the
// deepest instance location, preferring a specific keyword (format,
// multipleOf, …) over a type mismatch, since in anyOf [T, null] the type
// error of the null branch says nothing. Type errors of alternatives at
// that location are merged ("not of type string or null"). Leaves that
// rank alike are taken in leafOrder: the library visits an object's
// members in Go's map order, and the same record must always get the
// same message.
func describe(root *jsonschema.ValidationError, instance any) *ValidationError {
	var leaves []*jsonschema.ValidationError
	var collect func(e *jsonschema.ValidationError)
	collect = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, e)
		}
		for _, c := range e.Causes {
			collect(c)
		}
	}
	collect(root)
	slices.SortStableFunc(leaves, leafOrder)
	best := root
	bestDepth, bestSpecific := -1, -1
	for _, l := range leaves {
		d, s := rank(l)
		if d > bestDepth || d == bestDepth && s > bestSpecific {
			best, bestDepth, bestSpecific = l, d, s
		}
	}
	path := slices.Clone(best.InstanceLocation)
	v, _ := lookup(instance, path)
	if _, ok := best.ErrorKind.(*kind.Type); ok {
		var want []string
		for _, l := range leaves {
			if lt, ok := l.ErrorKind.(*kind.Type); ok && slices.Equal(l.InstanceLocation, best.InstanceLocation) {
				for _, w := range lt.Want {
					if !slices.Contains(want, w) {
						want = append(want, w)
					}
				}
			}
		}
		if i := slices.Index(want, "null"); i >= 0 { // "string or null" reads better
			want = append(slices.Delete(want, i, i+1), "null")
		}
		return &ValidationError{Path: path, Msg: fmt.Sprintf("%s is not of type %s", display(v), strings.Join(want, " or "))}
	}
	return message(best, path, v)
}

// leafOrder orders error leaves by instance location (member names as
// text, array indexes as numbers), then schema location, then the
// library's text: an order that does not depend on the order the library
// met them in.
func leafOrder(a, b *jsonschema.ValidationError) int {
	if c := slices.CompareFunc(a.InstanceLocation, b.InstanceLocation, locationStep); c != 0 {
		return c
	}
	if c := strings.Compare(a.SchemaURL, b.SchemaURL); c != 0 {
		return c
	}
	if c := slices.Compare(a.ErrorKind.KeywordPath(), b.ErrorKind.KeywordPath()); c != 0 {
		return c
	}
	return strings.Compare(libraryText(a.ErrorKind), libraryText(b.ErrorKind))
}

// locationStep compares two steps of instance locations: indexes (digits
// only, no leading zeros) by value, before names; names as text.
func locationStep(x, y string) int {
	xi, yi := isIndex(x), isIndex(y)
	switch {
	case xi && yi && len(x) != len(y):
		return len(x) - len(y)
	case xi != yi:
		if xi {
			return -1
		}
		return 1
	}
	return strings.Compare(x, y)
}

func isIndex(s string) bool {
	if s == "" || len(s) > 1 && s[0] == '0' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func rank(e *jsonschema.ValidationError) (depth, specific int) {
	depth, specific = len(e.InstanceLocation), 1
	switch e.ErrorKind.(type) {
	case *kind.Required, *kind.AdditionalProperties:
		depth++ // names a child of the location
	case *kind.Type, *kind.FalseSchema, *kind.Group, *kind.Reference:
		specific = 0
	}
	return depth, specific
}

func message(e *jsonschema.ValidationError, path []string, v any) *ValidationError {
	out := &ValidationError{Path: path}
	got := display(v)
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		out.Path = append(out.Path, k.Missing[0])
		out.Msg = fmt.Sprintf("missing required property %q", k.Missing[0])
	case *kind.AdditionalProperties:
		name := slices.Min(k.Properties) // listed in map order: the first by name
		out.Path = append(out.Path, name)
		out.Msg = fmt.Sprintf("property %q is not allowed by the schema", name)
	case *kind.Format:
		out.Msg = fmt.Sprintf("%s is not a valid %s", got, k.Want)
		if ve := (*value.Error)(nil); errors.As(k.Err, &ve) && ve.Unstorable {
			// RFC 3339 allows it (a leap second, a tenth non-zero
			// fraction digit): the database cannot hold it as sent.
			out.Msg = fmt.Sprintf("%s is a valid %s that Oracle cannot store exactly", got, k.Want)
		}
		if k.Err != nil {
			out.Msg += ": " + reason(k.Err)
		}
	case *kind.MultipleOf:
		out.Msg = fmt.Sprintf("%s is not a multiple of %s", got, ratText(k.Want))
	case *kind.Minimum:
		out.Msg = fmt.Sprintf("%s is less than the minimum %s", got, ratText(k.Want))
	case *kind.Maximum:
		out.Msg = fmt.Sprintf("%s is greater than the maximum %s", got, ratText(k.Want))
	case *kind.ExclusiveMinimum:
		out.Msg = fmt.Sprintf("%s is not greater than the exclusive minimum %s", got, ratText(k.Want))
	case *kind.ExclusiveMaximum:
		out.Msg = fmt.Sprintf("%s is not less than the exclusive maximum %s", got, ratText(k.Want))
	case *kind.MaxLength:
		out.Msg = fmt.Sprintf("string of %d characters is longer than maxLength %d", k.Got, k.Want)
	case *kind.MinLength:
		out.Msg = fmt.Sprintf("string of %d characters is shorter than minLength %d", k.Got, k.Want)
	case *kind.Pattern:
		out.Msg = fmt.Sprintf("%s does not match the pattern %q", got, k.Want)
	case *kind.Enum:
		out.Msg = fmt.Sprintf("%s is not one of the allowed values", got)
	case *kind.Const:
		out.Msg = fmt.Sprintf("%s is not the allowed value", got)
	case *kind.OneOf:
		out.Msg = fmt.Sprintf("%s matches more than one oneOf alternative", got)
	case *kind.FalseSchema:
		out.Msg = "no value is allowed here"
	default:
		out.Msg = libraryText(e.ErrorKind)
	}
	return out
}

// libraryText is the library's own English text for an error kind.
func libraryText(k jsonschema.ErrorKind) string {
	s := (&jsonschema.ValidationError{ErrorKind: k}).Error()
	s, _ = strings.CutPrefix(s, "at '': ")
	return s
}

// lookup returns the value at an instance location.
func lookup(v any, path []string) (any, bool) {
	for _, tok := range path {
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// maxDisplay bounds how much of a value an error message repeats.
const maxDisplay = 80

// display writes a value the way it appeared in the JSON input, shortened.
func display(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		if len(v) > maxDisplay {
			cut := maxDisplay
			for cut > 0 && !utf8.RuneStart(v[cut]) {
				cut--
			}
			return strconv.Quote(v[:cut]) + "…"
		}
		return strconv.Quote(v)
	case json.Number:
		if len(v) > maxDisplay {
			return string(v[:maxDisplay]) + "…"
		}
		return string(v)
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return fmt.Sprint(v)
}

// ratText writes r as exact decimal text when it has one (0.01, not 1/100).
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	d := new(big.Int).Set(r.Denom())
	two, five, zero := big.NewInt(2), big.NewInt(5), new(big.Int)
	var twos, fives int
	m := new(big.Int)
	for m.Mod(d, two).Cmp(zero) == 0 {
		d.Quo(d, two)
		twos++
	}
	for m.Mod(d, five).Cmp(zero) == 0 {
		d.Quo(d, five)
		fives++
	}
	if d.Cmp(big.NewInt(1)) != 0 {
		return r.RatString()
	}
	return r.FloatString(max(twos, fives))
}
