package streammap

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"math/big"
	"reflect"
	"sort"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// helpers returns the predeclared names every expression may use besides
// the properties and Starlark's built-ins (int, str, float, bool, len...).
// The values are frozen and stateless: one set serves every stream map.
func helpers(config starlark.Value, now clock) starlark.StringDict {
	h := starlark.StringDict{
		"md5":      starlark.NewBuiltin("md5", digest(md5.New)),
		"sha256":   starlark.NewBuiltin("sha256", digest(sha256.New)),
		"json":     jsonModule(),
		"datetime": datetimeModule(now),
		"config":   config,
	}
	h.Freeze()
	return h
}

// digest returns md5 or sha256: the lowercase hex digest of the UTF-8 text
// of a string (an int, float or bool is hashed as its str()).
func digest(newHash func() hash.Hash) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(t *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var v starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &v); err != nil {
			return nil, err
		}
		// Hashing reads the whole text: in a comprehension over a large
		// property it repeats, so it is charged like any walk (steps.go).
		if err := chargeSteps(t, walkSteps(v), b.Name()+"()"); err != nil {
			return nil, err
		}
		var text string
		switch v := v.(type) {
		case starlark.String:
			text = string(v)
		case starlark.Int, starlark.Float, starlark.Bool:
			text = v.String()
		default:
			return nil, fmt.Errorf("%s: got %s, want a string (guard nulls: %s(x) if x != None else None)", b.Name(), v.Type(), b.Name())
		}
		h := newHash()
		h.Write([]byte(text))
		return starlark.String(hex.EncodeToString(h.Sum(nil))), nil
	}
}

// jsonModule is the subset of Python's json module: dumps and loads.
func jsonModule() *starlarkstruct.Module {
	return &starlarkstruct.Module{Name: "json", Members: starlark.StringDict{
		"dumps": starlark.NewBuiltin("json.dumps", jsonDumps),
		"loads": starlark.NewBuiltin("json.loads", jsonLoads),
	}}
}

// jsonDumps is Python's json.dumps with its defaults (", " and ": "
// separators, ensure_ascii) and the options sort_keys, separators and
// ensure_ascii.
func jsonDumps(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var (
		obj        starlark.Value
		sortKeys   bool
		ascii                     = true
		separators starlark.Value = starlark.None
		indent     starlark.Value = starlark.None
	)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "obj", &obj, "sort_keys?", &sortKeys,
		"separators?", &separators, "ensure_ascii?", &ascii, "indent?", &indent); err != nil {
		return nil, err
	}
	if indent != starlark.None {
		return nil, fmt.Errorf("%s: indent is not supported", b.Name())
	}
	st := jsonStyle{itemSep: ", ", keySep: ": ", ascii: ascii, sortKeys: sortKeys}
	if separators != starlark.None {
		var item, key string
		t, ok := separators.(starlark.Tuple)
		if !ok || len(t) != 2 {
			return nil, fmt.Errorf("%s: separators must be a pair of strings", b.Name())
		}
		if err := starlark.UnpackPositionalArgs("separators", t, nil, 2, &item, &key); err != nil {
			return nil, err
		}
		st.itemSep, st.keySep = item, key
	}
	out, err := appendJSON(nil, obj, &st, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.Name(), err)
	}
	return starlark.String(out), nil
}

func jsonLoads(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &s); err != nil {
		return nil, err
	}
	v, err := decodeValue([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.Name(), err)
	}
	return v, nil
}

// fromGo converts a configuration value (as decoded from JSON, numbers as
// json.Number) to a frozen Starlark value for the config dict.
func fromGo(v any) (starlark.Value, error) {
	switch v := v.(type) {
	case nil:
		return starlark.None, nil
	case bool:
		return starlark.Bool(v), nil
	case string:
		return starlark.String(v), nil
	case json.Number:
		return literal([]byte(v.String()))
	case float64:
		return starlark.Float(v), nil
	case int, int64, int32, uint, uint64, uint32:
		n, _ := new(big.Int).SetString(fmt.Sprint(v), 10)
		return starlark.MakeBigInt(n), nil
	case []any:
		elems := make([]starlark.Value, len(v))
		for i, e := range v {
			x, err := fromGo(e)
			if err != nil {
				return nil, err
			}
			elems[i] = x
		}
		l := starlark.NewList(elems)
		l.Freeze()
		return l, nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		d := starlark.NewDict(len(v))
		for _, k := range keys {
			x, err := fromGo(v[k])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			if err := d.SetKey(starlark.String(k), x); err != nil {
				return nil, err
			}
		}
		d.Freeze()
		return d, nil
	}
	return nil, fmt.Errorf("unsupported value of type %s", reflect.TypeOf(v))
}
