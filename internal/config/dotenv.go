package config

import (
	"fmt"
	"regexp"
	"strings"
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
	inlineComment = regexp.MustCompile(`\s+#.*`)
	bareKey       = regexp.MustCompile(`^[^=#\s]+(\s+#.*)?$`)
)

var escaped = map[string]string{`\\`: `\`, `\'`: `'`, `\"`: `"`, `\a`: "\a", `\b`: "\b", `\f`: "\f",
	`\n`: "\n", `\r`: "\r", `\t`: "\t", `\v`: "\v"}

// parseDotEnv reads a .env file into "KEY=value" strings, as python-dotenv
// does: comments (#), blank lines, an optional "export " prefix, quoted
// values (see above), unquoted values with an optional " # comment", and
// a key alone (no "="), which sets nothing.
// Errors name the line, never its content.
func parseDotEnv(data []byte) ([]string, error) {
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	var out []string
	for line := 1; s != ""; {
		head, rest, _ := strings.Cut(s, "\n")
		if t := strings.TrimSpace(head); t == "" || t[0] == '#' {
			s, line = rest, line+1
			continue
		}
		kv, after, err := dotEnvBinding(s)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if kv != "" {
			out = append(out, kv)
		}
		line += strings.Count(s[:len(s)-len(after)], "\n")
		s = after
	}
	return out, nil
}

// dotEnvBinding parses the KEY=value that s starts with and returns it
// with what follows its line.
func dotEnvBinding(s string) (kv, after string, err error) {
	s = strings.TrimLeft(s, " \t")
	s = strings.TrimLeft(strings.TrimPrefix(s, "export "), " \t")
	head, rest, _ := strings.Cut(s, "\n")
	k, _, ok := strings.Cut(head, "=")
	k = strings.TrimSpace(k)
	if !ok && bareKey.MatchString(k) {
		return "", rest, nil // a key without a value sets nothing (python-dotenv: None)
	}
	if !ok || k == "" || strings.ContainsAny(k, " \t") {
		return "", "", fmt.Errorf("expected KEY=value")
	}
	v, after, err := dotEnvValue(strings.TrimLeft(s[strings.IndexByte(s, '=')+1:], " \t"))
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", k, err)
	}
	return k + "=" + v, after, nil
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
		return strings.TrimSpace(inlineComment.ReplaceAllString(head, "")), rest, nil
	}
	m := quoted.FindStringSubmatch(s)
	if m == nil {
		return "", "", fmt.Errorf("unterminated %s-quoted value", what)
	}
	tail, rest, _ := strings.Cut(s[len(m[0]):], "\n")
	if tail = strings.TrimSpace(tail); tail != "" && tail[0] != '#' {
		return "", "", fmt.Errorf("unexpected text after the quoted value")
	}
	return escapes.ReplaceAllStringFunc(m[1], func(e string) string { return escaped[e] }), rest, nil
}
