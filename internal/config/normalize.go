package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// check reads raw (a decoded JSON value or an environment string) as the
// setting's value and returns it in its stored Go type. Errors say what was
// expected; they show the value given only when the setting is not secret.
func (s *setting) check(t []setting, raw any) (any, error) {
	v, err := s.checkKind(raw)
	if err != nil {
		return nil, err
	}
	if s.conv != nil {
		return s.conv(t, v)
	}
	return v, nil
}

func (s *setting) checkKind(raw any) (any, error) {
	v, err := s.checkShape(raw)
	if obj, ok := v.(*object); ok && !s.nullIsValue {
		// JSON null is "not set" at every level, as at the top
		// (loader.add): {"stream_overrides": {"s": {"load_method": null}}}
		// overrides nothing, {"custom_indexes": {"s": null}} adds none.
		v = withoutNulls(obj)
	}
	return v, err
}

func (s *setting) checkShape(raw any) (any, error) {
	switch s.kind {
	case kindString, kindSecret:
		str, ok := text(raw)
		if !ok {
			return nil, errors.New("expected a string")
		}
		if s.nonEmpty && str == "" {
			return nil, errors.New("expected a non-empty string")
		}
		return str, nil
	case kindInteger:
		n, ok := parseInt(raw)
		if !ok || n < s.min || n > s.max {
			return nil, fmt.Errorf("expected an integer from %d to %d, got %s", s.min, s.max, show(raw))
		}
		return n, nil
	case kindBoolean:
		return checkBool(raw)
	case kindFraction:
		f, ok := parseFraction(raw)
		if !ok {
			return nil, fmt.Errorf("expected a number from 0 to 1, got %s", show(raw))
		}
		return f, nil
	case kindEnum:
		return s.checkEnum(raw)
	case kindStrings:
		list, ok := stringList(raw)
		if !ok {
			return nil, errors.New("expected an array of strings (JSON, or a comma-separated list)")
		}
		return list, nil
	case kindObject:
		obj, ok := asObject(raw)
		if !ok {
			return nil, errors.New("expected an object (or a string holding a JSON object)")
		}
		return obj, nil
	case kindObjectOrNone:
		if str, ok := text(raw); ok && strings.EqualFold(strings.TrimSpace(str), "none") {
			return &object{}, nil
		}
		obj, ok := asObject(raw)
		if !ok {
			return nil, errors.New(`expected an object (or a string holding a JSON object), or "none"`)
		}
		return obj, nil
	case kindStringsOrObject:
		if obj, ok := asObject(raw); ok {
			return obj, nil
		}
		if list, ok := stringList(raw); ok {
			return list, nil
		}
		return nil, errors.New("expected an array of strings or an object stream -> array of strings")
	}
	return nil, fmt.Errorf("internal error: setting %s has no kind", s.name)
}

func checkBool(raw any) (bool, error) {
	if b, ok := raw.(bool); ok {
		return b, nil
	}
	if str, ok := text(raw); ok {
		if b, ok := parseBool(str); ok {
			return b, nil
		}
	}
	return false, fmt.Errorf("expected true or false, got %s", show(raw))
}

func (s *setting) checkEnum(raw any) (string, error) {
	str, ok := text(raw)
	if ok {
		for _, e := range s.enum {
			if strings.EqualFold(str, e) {
				return e, nil
			}
		}
		if to, ok := lookupValue(s.values, str); ok {
			return to, nil
		}
	}
	return "", fmt.Errorf("expected one of %s, got %s", quoteList(s.enum), show(raw))
}

func lookupValue(vs []valueMap, str string) (string, bool) {
	for _, m := range vs {
		if strings.EqualFold(strings.TrimSpace(str), m.from) {
			return m.to, true
		}
	}
	return "", false
}

func quoteList(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

// checkAlias reads a value given under alias a of s: it is read by the
// alias's own kind when it has one, mapped by the alias's value map, and
// then checked as a value of s.
func (s *setting) checkAlias(t []setting, a *alias, raw any) (any, error) {
	if a == nil || len(a.values) == 0 {
		return s.check(t, raw)
	}
	key, ok := text(raw)
	if a.kind == kindBoolean {
		b, err := checkBool(raw)
		if err != nil {
			return nil, err
		}
		key, ok = strconv.FormatBool(b), true
	}
	if a.kind == kindSame && s.kind == kindInteger {
		// Integer values compare as numbers: -0, 0.0 and -1.0 are the
		// alias values 0 and -1, as 10.0 is the integer 10.
		if n, isInt := parseInt(raw); isInt {
			key, ok = strconv.FormatInt(n, 10), true
		}
	}
	if ok {
		if to, found := lookupValue(a.values, key); found {
			raw = to
		}
	}
	return s.check(t, raw)
}

// lookup finds the setting a key names, directly or through an alias.
// JSON keys match exactly first, then case-insensitively.
func lookup(t []setting, key string) (*setting, *alias) {
	for _, fold := range []bool{false, true} {
		for i := range t {
			s := &t[i]
			if match(s.name, key, fold) {
				return s, nil
			}
			for j := range s.aliases {
				if match(s.aliases[j].name, key, fold) {
					return s, &s.aliases[j]
				}
			}
		}
	}
	return nil, nil
}

func match(name, key string, fold bool) bool {
	if fold {
		return strings.EqualFold(name, key)
	}
	return name == key
}

func lookupPeer(key string) (peerSetting, bool) {
	for _, p := range peerSettings() {
		if strings.EqualFold(p.name, key) {
			return p, true
		}
	}
	return peerSetting{}, false
}

// closest returns the known name (canonical or alias) nearest to key by
// edit distance.
func closest(t []setting, key string) string {
	best, bestD := "", -1
	try := func(name string) {
		if d := editDistance(strings.ToLower(key), name); bestD < 0 || d < bestD {
			best, bestD = name, d
		}
	}
	for _, s := range t {
		try(s.name)
		for _, a := range s.aliases {
			try(a.name)
		}
		for _, m := range s.members {
			try(s.name + "." + m.name)
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
