package config

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The quoting rules of python-dotenv, which Meltano reads and writes .env
// files with (`meltano config set` of a secret writes KEY='value', a '
// in the value escaped as \'): a quoted value ends at the first quote
// that is not escaped and may span lines; single quotes decode only \\
// and \', double quotes also \", \a, \b, \f, \n, \r, \t and \v; any other
// backslash is kept as it is (a Windows path needs no doubling).
var (
	singleQuoted  = regexp.MustCompile(`^'((?:\\'|[^'])*)'`)
	doubleQuoted  = regexp.MustCompile(`^"((?:\\"|[^"])*)"`)
	singleEscapes = regexp.MustCompile(`\\[\\']`)
	doubleEscapes = regexp.MustCompile(`\\[\\'"abfnrtv]`)
	quotedKey     = regexp.MustCompile(`^'([^']+)'`) // may span lines, as python-dotenv's
	// variable is python-dotenv's ${NAME} or ${NAME:-default}; $NAME
	// without braces is not expanded.
	variable = regexp.MustCompile(`\$\{([^}:]*)(?::-([^}]*))?\}`)
)

var escaped = map[string]string{`\\`: `\`, `\'`: `'`, `\"`: `"`, `\a`: "\a", `\b`: "\b", `\f`: "\f",
	`\n`: "\n", `\r`: "\r", `\t`: "\t", `\v`: "\v"}

// parseDotEnv reads a .env file into "KEY=value" strings, as python-dotenv
// does: comments (#), blank lines, an optional "export " prefix, a key
// bare or in single quotes, quoted values (see above), unquoted values
// with an optional " # comment", and a key alone (no "="), which sets
// nothing. Values are then expanded (see expandDotEnv) with environ, the
// process environment.
// Errors name the line, never its content.
func parseDotEnv(data []byte, environ []string) ([]string, error) {
	// Python reads the file with universal newlines: "\r\n" and a lone
	// "\r" are "\n", in quoted values too.
	s := strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r", "\n")
	var raw []dotEnvPair
	for line := 1; s != ""; {
		head, rest, _ := strings.Cut(s, "\n")
		if t := strings.TrimFunc(head, pySpace); t == "" || t[0] == '#' {
			s, line = rest, line+1
			continue
		}
		p, after, err := dotEnvBinding(s)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		raw = append(raw, p)
		line += strings.Count(s[:len(s)-len(after)], "\n")
		s = after
	}
	return expandDotEnv(raw, environ), nil
}

// dotEnvPair is one binding of a .env file; a key without "=" has no
// value (python-dotenv: None).
type dotEnvPair struct {
	key, value string
	hasValue   bool
}

// expandDotEnv expands ${NAME} and ${NAME:-default} in every value, quoted
// or not, as python-dotenv's dotenv_values (interpolate=True, override=True;
// what Meltano reads .env with) does: NAME is looked up first among the
// keys above it in the file (a key without a value counts, as ""), then in
// environ; the default (or "") is used only when both lack it. A key
// without a value sets nothing.
func expandDotEnv(raw []dotEnvPair, environ []string) []string {
	process := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			process[k] = v
		}
	}
	seen := map[string]string{}
	// As the dict python-dotenv returns: a key keeps the place of its
	// first binding and the value of its last; a last binding without a
	// value (None) sets nothing.
	var keys []string
	last := map[string]*dotEnvPair{}
	for _, p := range raw {
		if !p.hasValue {
			seen[p.key] = ""
			if last[p.key] == nil {
				keys = append(keys, p.key)
			}
			last[p.key] = &dotEnvPair{key: p.key}
			continue
		}
		v := variable.ReplaceAllStringFunc(p.value, func(ref string) string {
			m := variable.FindStringSubmatch(ref)
			if v, ok := seen[m[1]]; ok {
				return v
			}
			if v, ok := process[m[1]]; ok {
				return v
			}
			return m[2]
		})
		seen[p.key] = v
		if last[p.key] == nil {
			keys = append(keys, p.key)
		}
		last[p.key] = &dotEnvPair{key: p.key, value: v, hasValue: true}
	}
	var out []string
	for _, k := range keys {
		if p := last[k]; p.hasValue && !strings.Contains(k, "=") { // '=' (quoted) names no variable
			out = append(out, k+"="+p.value)
		}
	}
	return out
}

// dotEnvBinding parses the KEY=value that s starts with and returns it
// with what follows its line.
func dotEnvBinding(s string) (p dotEnvPair, after string, err error) {
	s = strings.TrimLeftFunc(s, lineSpace)
	if rest, ok := strings.CutPrefix(s, "export"); ok && rest != "" && lineSpace(firstRune(rest)) {
		s = strings.TrimLeftFunc(rest, lineSpace) // "export" and white space, not a key "exportX"
	}
	k, s, err := dotEnvKey(s)
	if err != nil {
		return p, "", err
	}
	head, rest, _ := strings.Cut(s, "\n")
	if !strings.HasPrefix(head, "=") {
		if t := strings.TrimFunc(head, pySpace); t != "" && t[0] != '#' {
			return p, "", fmt.Errorf("expected KEY=value")
		}
		return dotEnvPair{key: k}, rest, nil // a key without a value sets nothing
	}
	v, after, err := dotEnvValue(strings.TrimLeftFunc(s[1:], lineSpace))
	if err != nil {
		return p, "", fmt.Errorf("%s: %w", k, err)
	}
	return dotEnvPair{key: k, value: v, hasValue: true}, after, nil
}

// dotEnvKey parses the key s starts with, bare or in single quotes (which
// may span lines, as in python-dotenv), and returns it with what follows
// it, spaces and tabs after it skipped.
func dotEnvKey(s string) (k, after string, err error) {
	if strings.HasPrefix(s, "'") {
		// A key starting with ' is a quoted key or none: python-dotenv
		// cannot parse the line (and sets nothing from it), so no bare
		// key "'B" is made of it.
		m := quotedKey.FindStringSubmatch(s)
		if m == nil {
			return "", "", fmt.Errorf("expected KEY=value ('KEY' unterminated or empty)")
		}
		return m[1], strings.TrimLeftFunc(s[len(m[0]):], lineSpace), nil
	}
	head, _, _ := strings.Cut(s, "\n")
	n := strings.IndexFunc(head, func(r rune) bool { return r == '=' || r == '#' || pySpace(r) })
	if n < 0 {
		n = len(head)
	}
	if n == 0 {
		return "", "", fmt.Errorf("expected KEY=value")
	}
	return s[:n], strings.TrimLeftFunc(s[n:], lineSpace), nil
}

// dotEnvValue parses the value s starts with and returns it with what
// follows its line.
func dotEnvValue(s string) (v, after string, err error) {
	quoted, escapes, what := singleQuoted, singleEscapes, "single"
	switch {
	case strings.HasPrefix(s, `"`):
		quoted, escapes, what = doubleQuoted, doubleEscapes, "double"
	case !strings.HasPrefix(s, "'"):
		head, rest, _ := strings.Cut(s, "\n")
		return strings.TrimFunc(withoutComment(head), pySpace), rest, nil
	}
	m := quoted.FindStringSubmatch(s)
	if m == nil {
		return "", "", fmt.Errorf("unterminated %s-quoted value", what)
	}
	tail, rest, _ := strings.Cut(s[len(m[0]):], "\n")
	if tail = strings.TrimFunc(tail, pySpace); tail != "" && tail[0] != '#' {
		return "", "", fmt.Errorf("unexpected text after the quoted value")
	}
	return escapes.ReplaceAllStringFunc(m[1], func(e string) string { return escaped[e] }), rest, nil
}

// pySpace is Python's white space (str.isspace, what python-dotenv's \s
// matches): Unicode's, a no-break space pasted from a web page included,
// and the separators U+001C to U+001F.
func pySpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// lineSpace is white space inside a line (python-dotenv's [^\S\r\n]).
func lineSpace(r rune) bool { return r != '\n' && r != '\r' && pySpace(r) }

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// withoutComment cuts an unquoted value at its inline comment: a '#'
// after white space, from that white space on (python-dotenv's
// re.sub(r"\s+#.*", "", value)).
func withoutComment(v string) string {
	for i, r := range v {
		if r != '#' || i == 0 {
			continue
		}
		if before, _ := utf8.DecodeLastRuneInString(v[:i]); pySpace(before) {
			return strings.TrimRightFunc(v[:i], pySpace)
		}
	}
	return v
}
