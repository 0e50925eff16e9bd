package config

import (
	"fmt"
	"strconv"
	"strings"
)

// parseDotEnv reads a .env file into "KEY=value" strings. It accepts
// comments (#), blank lines, an optional "export " prefix, double-quoted
// values with Go/shell escapes, single-quoted literal values and unquoted
// values with an optional " # comment". Values span one line. Errors name
// the line, never its content.
func parseDotEnv(data []byte) ([]string, error) {
	var out []string
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return nil, fmt.Errorf("line %d: expected KEY=value", i+1)
		}
		v, err := dotEnvValue(strings.TrimSpace(v))
		if err != nil {
			return nil, fmt.Errorf("line %d: %s: %w", i+1, k, err)
		}
		out = append(out, k+"="+v)
	}
	return out, nil
}

func dotEnvValue(v string) (string, error) {
	if v == "" {
		return "", nil
	}
	switch v[0] {
	case '"':
		end := closingQuote(v)
		if end < 0 {
			return "", fmt.Errorf("unterminated double-quoted value")
		}
		s, err := strconv.Unquote(v[:end+1])
		if err != nil {
			return "", fmt.Errorf("invalid escape in double-quoted value")
		}
		return s, trailing(v[end+1:])
	case '\'':
		end := strings.IndexByte(v[1:], '\'')
		if end < 0 {
			return "", fmt.Errorf("unterminated single-quoted value")
		}
		return v[1 : end+1], trailing(v[end+2:])
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v), nil
}

// closingQuote returns the index of the double quote that ends v, skipping
// backslash escapes, or -1.
func closingQuote(v string) int {
	for i := 1; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

func trailing(rest string) error {
	rest = strings.TrimSpace(rest)
	if rest != "" && rest[0] != '#' {
		return fmt.Errorf("unexpected text after the quoted value")
	}
	return nil
}
