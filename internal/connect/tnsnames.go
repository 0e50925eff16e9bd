package connect

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// tnsNames is a parsed tnsnames.ora: connect descriptors by alias.
//
// go-ora v2.9.0 cannot resolve TNS aliases, so the target does it: an
// alias becomes the (DESCRIPTION=…) text that go-ora then sends to the
// listener as its connect data.
type tnsNames struct {
	path     string
	entries  map[string]string // upper-case alias -> compact descriptor
	aliases  []string          // as written, in file order
	warnings []string
}

// lookup returns the descriptor of alias, compared case-insensitively as
// Oracle Net does.
func (t *tnsNames) lookup(alias string) (string, bool) {
	d, ok := t.entries[strings.ToUpper(alias)]
	return d, ok
}

// readTNSNames reads and parses dir/tnsnames.ora.
func readTNSNames(dir string) (*tnsNames, error) {
	path := filepath.Join(dir, "tnsnames.ora")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	t, err := parseTNSNames(string(data), path)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// parseTNSNames parses the text of a tnsnames.ora. It understands what
// Oracle's own files and Autonomous Database wallets contain: '#'
// comments, entries spread over many lines, nested parentheses, double-
// quoted values (which may hold '(' ')' ',' '#'), several aliases for one
// descriptor ("a, b = (…)"), and IFILE lines, which are not followed (a
// warning says so). A value that is not parenthesised (an Easy Connect
// string) runs to the end of its line. The first entry for an alias wins;
// later ones are reported as warnings.
func parseTNSNames(text, path string) (*tnsNames, error) {
	t := &tnsNames{path: path, entries: map[string]string{}}
	s := scanner{text: text, line: 1}
	for {
		s.skipSpaceAndComments()
		if s.eof() {
			return t, nil
		}
		line := s.line
		names, err := s.names()
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		value, err := s.value()
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		t.add(names, value, line)
	}
}

func (t *tnsNames) add(names []string, value string, line int) {
	for _, n := range names {
		if strings.EqualFold(n, "IFILE") {
			t.warnings = append(t.warnings, fmt.Sprintf(
				"%s:%d: IFILE %s is not followed; copy its entries into this file if you need them", t.path, line, value))
			continue
		}
		key := strings.ToUpper(n)
		if _, dup := t.entries[key]; dup {
			t.warnings = append(t.warnings, fmt.Sprintf("%s:%d: alias %s is defined again; the first definition is used", t.path, line, n))
			continue
		}
		t.entries[key] = value
		t.aliases = append(t.aliases, n)
	}
}

// known lists the aliases, sorted, for an error message.
func (t *tnsNames) known() string {
	a := append([]string(nil), t.aliases...)
	sort.Strings(a)
	if len(a) == 0 {
		return "none"
	}
	return strings.Join(a, ", ")
}

// scanner walks a tnsnames.ora text, counting lines for messages.
type scanner struct {
	text string
	pos  int
	line int
}

func (s *scanner) eof() bool { return s.pos >= len(s.text) }

func (s *scanner) next() byte {
	c := s.text[s.pos]
	s.pos++
	if c == '\n' {
		s.line++
	}
	return c
}

// skipSpaceAndComments skips white space and '#' comments.
func (s *scanner) skipSpaceAndComments() {
	for !s.eof() {
		switch c := s.text[s.pos]; {
		case c == '#':
			s.skipLine()
		case isSpace(c):
			s.next()
		default:
			return
		}
	}
}

// isSpace reports ASCII white space as strings.TrimSpace sees it, so that a
// form feed before '(' cannot turn a descriptor into a bare value.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'
}

func (s *scanner) skipLine() {
	for !s.eof() && s.text[s.pos] != '\n' {
		s.pos++
	}
}

// names reads "alias[, alias…] =" and returns the aliases.
func (s *scanner) names() ([]string, error) {
	start := s.pos
	for !s.eof() && s.text[s.pos] != '=' {
		if c := s.text[s.pos]; c == '(' || c == ')' || c == '\n' || c == '#' {
			return nil, fmt.Errorf("expected \"alias = descriptor\", found %q", strings.TrimSpace(s.text[start:s.pos+1]))
		}
		s.next()
	}
	if s.eof() {
		return nil, fmt.Errorf("expected '=' after %q", strings.TrimSpace(s.text[start:]))
	}
	list := s.text[start:s.pos]
	s.next() // '='
	var names []string
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "" || strings.ContainsAny(n, " \t\"") {
			return nil, fmt.Errorf("invalid alias list %q", strings.TrimSpace(list))
		}
		names = append(names, n)
	}
	return names, nil
}

// value reads a parenthesised descriptor (to its matching ')') or a bare
// value (to the end of the line) and returns it compacted.
func (s *scanner) value() (string, error) {
	for !s.eof() && s.text[s.pos] != '\n' && isSpace(s.text[s.pos]) {
		s.next()
	}
	if s.eof() || s.text[s.pos] == '\n' || s.text[s.pos] == '#' {
		s.skipSpaceAndComments()
		if s.eof() || s.text[s.pos] != '(' {
			return "", fmt.Errorf("missing value after '='")
		}
	}
	if s.text[s.pos] != '(' {
		start := s.pos
		s.skipLine()
		v := s.text[start:s.pos]
		if i := strings.IndexByte(v, '#'); i >= 0 {
			v = v[:i]
		}
		return strings.TrimSpace(v), nil
	}
	return s.descriptor()
}

// descriptor reads a balanced parenthesised expression. Comments are
// dropped, runs of white space become one space (none next to '(' ')'
// '='), quoted strings are kept verbatim.
func (s *scanner) descriptor() (string, error) {
	var b strings.Builder
	depth, startLine := 0, s.line
	space := false
	for !s.eof() {
		c := s.next()
		switch {
		case c == '"':
			if err := s.quoted(&b, space); err != nil {
				return "", err
			}
			space = false
			continue
		case c == '#':
			s.skipLine()
			space = true
			continue
		case isSpace(c):
			space = true
			continue
		}
		if !strings.ContainsRune("()=", rune(c)) {
			separate(&b, space)
		}
		space = false
		b.WriteByte(c)
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return b.String(), nil
			}
		}
	}
	return "", fmt.Errorf("unbalanced parentheses in the entry starting on line %d", startLine)
}

// quoted copies a double-quoted string (the opening quote already read).
func (s *scanner) quoted(b *strings.Builder, space bool) error {
	separate(b, space)
	b.WriteByte('"')
	for !s.eof() {
		c := s.next()
		b.WriteByte(c)
		if c == '"' {
			return nil
		}
	}
	return fmt.Errorf("unterminated quoted string")
}

// separate writes the one space that stands for skipped white space,
// unless it would follow '(' or '='.
func separate(b *strings.Builder, space bool) {
	if !space || b.Len() == 0 {
		return
	}
	if last := b.String()[b.Len()-1]; last != '(' && last != '=' {
		b.WriteByte(' ')
	}
}
