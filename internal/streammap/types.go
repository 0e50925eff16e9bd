package streammap

import (
	"encoding/json"

	"go.starlark.net/syntax"
)

// kind is the JSON type an expression is known to yield, found from the
// shape of the expression once per SCHEMA (the SDK reads only a leading
// str(, int(, float( or bool(; this recognises more forms, never fewer).
type kind uint8

const (
	kUnknown kind = iota
	kNull         // the None literal
	kString
	kDateTime
	kDate
	kInteger
	kNumber
	kBoolean
	kArray
	kStrings // list of strings (split)
	kObject
)

// kindSchemas are the output schemas of computed properties: nullable,
// since an expression may yield None.
var kindSchemas = map[kind]string{
	kString:   `{"type":["string","null"]}`,
	kDateTime: `{"type":["string","null"],"format":"date-time"}`,
	kDate:     `{"type":["string","null"],"format":"date"}`,
	kInteger:  `{"type":["integer","null"]}`,
	kNumber:   `{"type":["number","null"]}`,
	kBoolean:  `{"type":["boolean","null"]}`,
	kArray:    `{"type":["array","null"]}`,
	kStrings:  `{"type":["array","null"],"items":{"type":"string"}}`,
	kObject:   `{"type":["object","null"]}`,
}

// typer infers kinds; prop returns the kind of a property-bound name.
type typer struct {
	isProp func(name string) bool
	prop   func(name string) kind
}

var methodKinds = map[string]kind{
	"lower": kString, "upper": kString, "strip": kString, "lstrip": kString, "rstrip": kString,
	"title": kString, "capitalize": kString, "replace": kString, "format": kString, "join": kString,
	"removeprefix": kString, "removesuffix": kString, "strftime": kString,
	"startswith": kBoolean, "endswith": kBoolean, "isdigit": kBoolean, "isalpha": kBoolean,
	"isalnum": kBoolean, "islower": kBoolean, "isupper": kBoolean, "isspace": kBoolean, "istitle": kBoolean,
	"find": kInteger, "rfind": kInteger, "index": kInteger, "rindex": kInteger, "count": kInteger,
	"split": kStrings, "rsplit": kStrings, "splitlines": kStrings,
	"timestamp": kNumber, "date": kDate,
}

var funcKinds = map[string]kind{
	"str": kString, "int": kInteger, "float": kNumber, "bool": kBoolean,
	"md5": kString, "sha256": kString, "len": kInteger, "repr": kString,
	"list": kArray, "sorted": kArray, "dict": kObject,
}

func (t *typer) infer(e syntax.Expr) kind {
	switch e := e.(type) {
	case *syntax.ParenExpr:
		return t.infer(e.X)
	case *syntax.Literal:
		switch e.Token {
		case syntax.STRING:
			return kString
		case syntax.INT:
			return kInteger
		case syntax.FLOAT:
			return kNumber
		}
	case *syntax.Ident:
		switch e.Name {
		case "True", "False":
			return kBoolean
		case "None":
			return kNull
		}
		if t.isProp(e.Name) {
			return t.prop(e.Name)
		}
	case *syntax.CallExpr:
		return t.call(e)
	case *syntax.IndexExpr:
		if k := t.infer(e.X); k == kStrings || k == kString {
			return kString
		}
	case *syntax.SliceExpr:
		if k := t.infer(e.X); k == kString || k == kStrings {
			return k
		}
	case *syntax.UnaryExpr:
		if e.Op == syntax.NOT {
			return kBoolean
		}
		if k := t.infer(e.X); k == kInteger || k == kNumber {
			return k
		}
	case *syntax.BinaryExpr:
		return t.binary(e)
	case *syntax.CondExpr:
		return join(t.infer(e.True), t.infer(e.False))
	case *syntax.ListExpr, *syntax.Comprehension:
		if c, ok := e.(*syntax.Comprehension); ok && c.Curly {
			return kObject
		}
		return kArray
	case *syntax.DictExpr:
		return kObject
	}
	return kUnknown
}

func (t *typer) call(e *syntax.CallExpr) kind {
	switch fn := e.Fn.(type) {
	case *syntax.Ident:
		if !t.isProp(fn.Name) {
			return funcKinds[fn.Name]
		}
	case *syntax.DotExpr:
		switch dotted(fn) {
		case "json.dumps":
			return kString
		case "datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.fromisoformat",
			"datetime.datetime.fromtimestamp":
			return kDateTime
		case "datetime.date.today", "datetime.date.fromisoformat":
			return kDate
		}
		if fn.Name.Name == "isoformat" {
			if k := t.infer(fn.X); k == kDateTime || k == kDate {
				return k
			}
			return kString
		}
		return methodKinds[fn.Name.Name]
	}
	return kUnknown
}

func (t *typer) binary(e *syntax.BinaryExpr) kind {
	switch e.Op {
	case syntax.EQL, syntax.NEQ, syntax.LT, syntax.LE, syntax.GT, syntax.GE, syntax.IN, syntax.NOT_IN:
		return kBoolean
	case syntax.AND, syntax.OR:
		return join(t.infer(e.X), t.infer(e.Y))
	}
	x, y := t.infer(e.X), t.infer(e.Y)
	switch e.Op {
	case syntax.PLUS:
		if x == kString || y == kString {
			return kString
		}
		if x == kArray || x == kStrings {
			return kArray
		}
	case syntax.PERCENT:
		if x == kString {
			return kString
		}
	case syntax.SLASH:
		if numeric(x) && numeric(y) {
			return kNumber
		}
		return kUnknown
	}
	switch e.Op {
	case syntax.PLUS, syntax.MINUS, syntax.STAR, syntax.PERCENT, syntax.SLASHSLASH:
		if x == kInteger && y == kInteger {
			return kInteger
		}
		if numeric(x) && numeric(y) {
			return kNumber
		}
	}
	return kUnknown
}

func numeric(k kind) bool { return k == kInteger || k == kNumber }

// join is the kind of a value that is one of two kinds (None aside).
func join(a, b kind) kind {
	switch {
	case a == b:
		return a
	case a == kNull:
		return b
	case b == kNull:
		return a
	case numeric(a) && numeric(b):
		return kNumber
	}
	return kUnknown
}

// dotted renders a.b.c for a chain of names, or "".
func dotted(e syntax.Expr) string {
	switch e := e.(type) {
	case *syntax.Ident:
		return e.Name
	case *syntax.DotExpr:
		if x := dotted(e.X); x != "" {
			return x + "." + e.Name.Name
		}
	}
	return ""
}

// schemaKind reads the kind of a property schema (its non-null type).
func schemaKind(raw []byte) kind {
	var s struct {
		Type   any    `json:"type"`
		Format string `json:"format"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return kUnknown
	}
	var name string
	switch t := s.Type.(type) {
	case string:
		name = t
	case []any:
		for _, x := range t {
			if x, ok := x.(string); ok && x != "null" {
				if name != "" {
					return kUnknown
				}
				name = x
			}
		}
	}
	switch name {
	case "string":
		switch s.Format {
		case "date-time":
			return kDateTime
		case "date":
			return kDate
		}
		return kString
	case "integer":
		return kInteger
	case "number":
		return kNumber
	case "boolean":
		return kBoolean
	case "array":
		return kArray
	case "object":
		return kObject
	}
	return kUnknown
}
