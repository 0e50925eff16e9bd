package streammap

import (
	"fmt"
	"regexp"
	"strings"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// fileOptions are the Starlark dialect options of every expression: the
// defaults plus the set() built-in, which Python users expect.
var fileOptions = syntax.FileOptions{Set: true}

// expr is one parsed stream-map expression. The syntax tree is read (for
// names and types) but never compiled: starlark.ExprFuncOptions parses code
// again once per SCHEMA, because resolving a tree mutates it.
type expr struct {
	src  string // as written in the configuration
	code string // src with Python's "is" / "is not" rewritten to == / !=
	tree syntax.Expr

	names []string           // free (global) names, in first-use order
	uses  map[string]nameUse // how each free name is used
}

// nameUse records how an expression uses a free name, to decide whether
// the name means a record property or a helper when both exist.
type nameUse struct {
	called bool            // name(...)
	attrs  map[string]bool // name.attr
	plain  bool            // any other use
}

// parseExpr parses and resolves one expression, returning advice for the
// Python forms Starlark cannot run.
func parseExpr(src string) (*expr, error) {
	if strings.TrimSpace(src) == "" {
		return nil, fmt.Errorf("empty expression")
	}
	code := rewriteIs(src)
	opts := fileOptions
	tree, err := opts.ParseExpr("expr", code, 0)
	if err != nil {
		return nil, withAdvice(src, err)
	}
	// Every free name resolves (as predeclared) here; which names exist is
	// known only per SCHEMA, when the record's properties are known.
	if _, err := resolve.ExprOptions(&opts, tree, func(n string) bool { return n != "True" && n != "False" && n != "None" }, starlark.Universe.Has); err != nil {
		return nil, withAdvice(src, err)
	}
	e := &expr{src: src, code: code, tree: tree, uses: map[string]nameUse{}}
	e.collectNames()
	if err := unsupportedNames(e); err != nil {
		return nil, err
	}
	return e, nil
}

// collectNames records the expression's free names and how each is used.
func (e *expr) collectNames() {
	note := func(id *syntax.Ident, f func(*nameUse)) {
		if b, ok := id.Binding.(*resolve.Binding); !ok || b.Scope != resolve.Predeclared {
			return
		}
		u, seen := e.uses[id.Name]
		if !seen {
			e.names = append(e.names, id.Name)
		}
		f(&u)
		e.uses[id.Name] = u
	}
	handled := map[*syntax.Ident]bool{}
	syntax.Walk(e.tree, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			if id, ok := n.Fn.(*syntax.Ident); ok {
				handled[id] = true
				note(id, func(u *nameUse) { u.called = true })
			}
		case *syntax.DotExpr:
			if id, ok := n.X.(*syntax.Ident); ok {
				handled[id] = true
				note(id, func(u *nameUse) {
					if u.attrs == nil {
						u.attrs = map[string]bool{}
					}
					u.attrs[n.Name.Name] = true
				})
			}
		case *syntax.Ident:
			if !handled[n] {
				note(n, func(u *nameUse) { u.plain = true })
			}
		}
		return true
	})
}

// unsupported names of the SDK's evaluator, with what to write instead.
var unsupportedAdvice = map[string]string{
	"fake":    "Faker is not available; compute the value with md5/sha256 or string functions instead",
	"Faker":   "Faker is not available; compute the value with md5/sha256 or string functions instead",
	"rand":    "random numbers are not available (a loaded value should be reproducible)",
	"randint": "random numbers are not available (a loaded value should be reproducible)",
}

func unsupportedNames(e *expr) error {
	for _, n := range e.names {
		if advice, ok := unsupportedAdvice[n]; ok && (e.uses[n].called || len(e.uses[n].attrs) > 0) {
			return fmt.Errorf("%s is not supported: %s", n, advice)
		}
	}
	return nil
}

// Heuristics that recognise Python-only syntax in an expression Starlark
// rejected, each with the advice the user needs. A form matches when its
// pattern matches the source and its clue (if any) occurs in the error.
var pythonForms = []struct {
	re     *regexp.Regexp
	clue   string
	advice string
}{
	{regexp.MustCompile(`(^|[^A-Za-z0-9_])[fF][rR]?['"]|(^|[^A-Za-z0-9_])[rR][fF]['"]`), "",
		"f-strings are not supported: write '{}-{}'.format(a, b) or str(a) + '-' + b"},
	{regexp.MustCompile(`(^|[^A-Za-z0-9_])(import|from)\s`), "",
		"imports are not available: md5, sha256, datetime and json are predeclared"},
	{regexp.MustCompile(`\*\*`), "**",
		"the ** operator is not supported: multiply (x * x) instead"},
	{regexp.MustCompile(`:=`), "",
		"assignment expressions (:=) are not supported"},
	{regexp.MustCompile(`.`), "does not associate",
		"chained comparisons (a < b < c) are not supported: write a < b and b < c"},
	{regexp.MustCompile(`\sfor\s`), "got for",
		"generator expressions are not supported: use a list comprehension, e.g. any([x > 0 for x in xs])"},
	{regexp.MustCompile(`\{`), "want ':'",
		"set literals are not supported: use set([a, b]) or a list"},
}

// withAdvice wraps a Starlark parse or resolve error, adding advice when the
// source looks like Python that Starlark cannot run.
func withAdvice(src string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "expr:")
	for _, f := range pythonForms {
		if f.re.MatchString(src) && strings.Contains(msg, f.clue) {
			return fmt.Errorf("%s (%s)", msg, f.advice)
		}
	}
	return fmt.Errorf("%s", msg)
}

// rewriteIs replaces Python's identity operators, which Starlark lacks, by
// equality: "x is None" becomes "x == None" and "x is not None" "x != None".
// For None, True and False (the only sensible right-hand sides in a map
// expression) the results agree. String literals are left untouched.
func rewriteIs(src string) string {
	if !strings.Contains(src, "is") {
		return src
	}
	var b strings.Builder
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\'' || c == '"':
			j := skipString(src, i)
			b.WriteString(src[i:j])
			i = j
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			word := src[i:j]
			if word != "is" {
				b.WriteString(word)
				i = j
				continue
			}
			k := j
			for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
				k++
			}
			if strings.HasPrefix(src[k:], "not") && (k+3 == len(src) || !isIdentPart(src[k+3])) {
				b.WriteString("!=")
				i = k + 3
			} else {
				b.WriteString("==")
				i = j
			}
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// skipString returns the index just past the string literal starting at i
// (single, double or triple quoted; a backslash escapes the next byte).
func skipString(s string, i int) int {
	q := s[i]
	if strings.HasPrefix(s[i:], strings.Repeat(string(q), 3)) {
		end := strings.Index(s[i+3:], strings.Repeat(string(q), 3))
		if end < 0 {
			return len(s)
		}
		return i + 3 + end + 3
	}
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(s)
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }
