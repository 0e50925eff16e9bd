package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/target-oracle/target-oracle/internal/jsonscan"
	"github.com/target-oracle/target-oracle/internal/value"
)

// JSON Schema's "pattern" is an ECMA-262 regular expression; Go has RE2.
// The two agree on what taps write but for a few spellings: ECMA's
// \uXXXX escape, which RE2 spells \x{XXXX}, is translated exactly. What
// RE2 cannot express at all (lookahead and lookbehind, backreferences,
// \cX) cannot be checked here: such a "pattern" is dropped from the
// schema with a note (Schema.Unchecked) rather than refusing the stream,
// as the Python SDK targets, whose engine has them, accept the schema.
// In patternProperties a pattern decides which subschema applies, so
// dropping it would change the record's meaning: there an untranslatable
// pattern stays an invalid schema.

// ecmaToRE2 rewrites ECMA-262's \uXXXX escapes as RE2's \x{XXXX}; an
// escaped backslash (\\u) is left alone.
func ecmaToRE2(s string) string {
	if !strings.Contains(s, `\u`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		if s[i+1] == 'u' && i+6 <= len(s) {
			if _, ok := jsonscan.Hex4([]byte(s[i+2 : i+6])); ok {
				b.WriteString(`\x{` + s[i+2:i+6] + `}`)
				i += 5
				continue
			}
		}
		b.WriteString(s[i : i+2]) // any other escape, \\ included, as written
		i++
	}
	return b.String()
}

// compilePattern compiles an ECMA-262 pattern with RE2.
func compilePattern(s string) (*regexp.Regexp, error) {
	return regexp.Compile(ecmaToRE2(s))
}

// regexpEngine is compilePattern for the validator library.
func regexpEngine(s string) (jsonschema.Regexp, error) {
	return compilePattern(s)
}

// dropUncheckable removes every "pattern" keyword RE2 cannot compile
// from the schema document, returning a note for each (where, pattern).
// It removes, with a note, a positive "multipleOf" the validator library
// cannot compute with either (math/big on 10^exponent): more than
// MaxNumberText characters, or an exponent of more than
// maxTextExponentDigits digits (1e-99999). Any other positive multipleOf,
// within Oracle NUMBER or not (1e-200, 39 digits, 1e200), is checked
// exactly (see multipleOf in resolve.go).
func dropUncheckable(doc any) []string {
	var notes []string
	var walk func(v any, at string, depth int)
	walk = func(v any, at string, depth int) {
		if depth > maxPlanDepth {
			return
		}
		switch v := v.(type) {
		case []any:
			for i, e := range v {
				walk(e, fmt.Sprintf("%s/%d", at, i), depth+1)
			}
		case *object:
			if p, ok := v.vals["pattern"].(string); ok {
				if _, err := compilePattern(p); beyondRE2(err) {
					notes = append(notes, fmt.Sprintf("%s/pattern %q is not checked: %v (ECMA-262 syntax RE2 lacks)", at, p, err))
					delete(v.vals, "pattern")
					v.keys = slices.DeleteFunc(v.keys, func(k string) bool { return k == "pattern" })
				}
			}
			if m, ok := v.vals["multipleOf"].(json.Number); ok && beyondExact(m) {
				notes = append(notes, fmt.Sprintf("%s/multipleOf %s is not checked: a divisor of more than %d characters or with an exponent of more than %d digits, "+
					"beyond what the validator computes with exactly", at, shortNumber(m), MaxNumberText, maxTextExponentDigits))
				delete(v.vals, "multipleOf")
				v.keys = slices.DeleteFunc(v.keys, func(k string) bool { return k == "multipleOf" })
			}
			for _, k := range v.keys {
				switch keywordShape(k) {
				case schemaVal, schemaList:
					walk(v.vals[k], at+"/"+k, depth+1)
				case schemaMap:
					if m, ok := v.vals[k].(*object); ok {
						for _, name := range m.keys {
							walk(m.vals[name], at+"/"+k+"/"+name, depth+1)
						}
					}
				}
			}
		}
	}
	walk(doc, "", 0)
	return notes
}

// beyondExact reports a positive multipleOf the validator cannot check
// exactly in reasonable time and memory (a zero or negative one stays an
// invalid schema).
func beyondExact(m json.Number) bool {
	if strings.HasPrefix(string(m), "-") || len(m) <= MaxNumberText && exponentDigits(string(m)) <= maxTextExponentDigits {
		return false
	}
	canon, _, err := value.CanonicalNumber(string(m))
	return err != nil || canon != "0"
}

// shortNumber is number text for a message: at most 40 characters.
func shortNumber(m json.Number) string {
	if len(m) > 40 {
		return string(m[:40]) + "…"
	}
	return string(m)
}

// beyondRE2 reports whether err is RE2 refusing a construct ECMA-262
// has (lookaround (?=, (?!, (?<=, (?<! and escapes such as \1 or \cA), not
// a pattern broken in any syntax ("((" stays an invalid schema).
func beyondRE2(err error) bool {
	var se *syntax.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code {
	case syntax.ErrInvalidEscape, syntax.ErrInvalidPerlOp:
		return true
	case syntax.ErrInvalidNamedCapture: // (?<=…) and (?<!…) read as a group name
		return strings.HasPrefix(se.Expr, "(?<=") || strings.HasPrefix(se.Expr, "(?<!")
	}
	return false
}
