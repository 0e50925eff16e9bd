package connect

import (
	"strings"
	"testing"
)

func TestParseTNSNames(t *testing.T) {
	text := `# comment at the top
A, b_2 ,c.example.com=(DESCRIPTION=(ADDRESS=(HOST=h)(PORT=1))(CONNECT_DATA=(SERVICE_NAME=s)))
  # indented comment
multi =
  (DESCRIPTION =   # trailing comment
    (ADDRESS = (PROTOCOL = TCP) (HOST = h2) (PORT = 1521) )
    (CONNECT_DATA = (SERVICE_NAME = s2))
    (SECURITY = (MY_WALLET_DIRECTORY = "/path with (parens) # and hash"))
  )
ifile=/other/tnsnames.ora
bare = host:1/svc # comment
A = (DESCRIPTION=(ADDRESS=(HOST=dup)(PORT=1))(CONNECT_DATA=(SERVICE_NAME=dup)))
`
	tn, err := parseTNSNames(text, "t.ora")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"a":             "(DESCRIPTION=(ADDRESS=(HOST=h)(PORT=1))(CONNECT_DATA=(SERVICE_NAME=s)))",
		"B_2":           "(DESCRIPTION=(ADDRESS=(HOST=h)(PORT=1))(CONNECT_DATA=(SERVICE_NAME=s)))",
		"C.Example.Com": "(DESCRIPTION=(ADDRESS=(HOST=h)(PORT=1))(CONNECT_DATA=(SERVICE_NAME=s)))",
		"MULTI":         `(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=h2)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=s2))(SECURITY=(MY_WALLET_DIRECTORY="/path with (parens) # and hash")))`,
		"bare":          "host:1/svc",
	}
	for alias, d := range want {
		got, ok := tn.lookup(alias)
		if !ok || got != d {
			t.Errorf("lookup(%q) = %q, %v; want %q", alias, got, ok, d)
		}
	}
	if _, ok := tn.lookup("ifile"); ok {
		t.Error("IFILE became an alias")
	}
	if got := tn.known(); got != "A, b_2, bare, c.example.com, multi" {
		t.Errorf("known() = %q", got)
	}
	w := strings.Join(tn.warnings, "\n")
	for _, s := range []string{"t.ora:10: IFILE /other/tnsnames.ora is not followed", "t.ora:12: alias A is defined again"} {
		if !strings.Contains(w, s) {
			t.Errorf("warnings %q lack %q", w, s)
		}
	}
}

func TestParseTNSNamesErrors(t *testing.T) {
	tests := []struct{ text, msg string }{
		{"a = (DESCRIPTION=(ADDRESS=(HOST=h)", "t.ora:1: unbalanced parentheses"},
		{"a =\f(", "t.ora:1: unbalanced parentheses"}, // a form feed is white space, not a bare value
		{"\n\n(DESCRIPTION=(HOST=h))", "t.ora:3: expected \"alias = descriptor\""},
		{"a b = (X=1)", "invalid alias list"},
		{"a =", "missing value"},
		{"a", "expected '='"},
		{`a = (X="unterminated)`, "unterminated quoted string"},
		{" , = (X=1)", "invalid alias list"},
	}
	for _, tt := range tests {
		_, err := parseTNSNames(tt.text, "t.ora")
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%q: error %v, want %q", tt.text, err, tt.msg)
		}
	}
}

func TestReadTNSNamesFixtures(t *testing.T) {
	tn, err := readTNSNames("testdata/adb")
	if err != nil {
		t.Fatal(err)
	}
	if tn.known() != "mydb_high, mydb_low" || len(tn.warnings) != 0 {
		t.Errorf("aliases %s, warnings %q", tn.known(), tn.warnings)
	}
}

// FuzzParseTNSNames: the parser never panics, and every descriptor it
// returns has balanced parentheses outside quotes.
func FuzzParseTNSNames(f *testing.F) {
	for _, s := range []string{
		"a=(DESCRIPTION=(ADDRESS=(HOST=h)(PORT=1))(CONNECT_DATA=(SERVICE_NAME=s)))",
		"a,b = (X = \"q ( ) #\")\n# c\nIFILE=x\nez = h:1/s",
		"a = (", "=", "((", "a = \"", "x=(a=(b=c)) y=(d=e)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		tn, err := parseTNSNames(text, "f.ora")
		if err != nil {
			return
		}
		for alias, d := range tn.entries {
			if !strings.HasPrefix(d, "(") {
				continue
			}
			depth, quoted := 0, false
			for i := 0; i < len(d); i++ {
				switch {
				case d[i] == '"':
					quoted = !quoted
				case quoted:
				case d[i] == '(':
					depth++
				case d[i] == ')':
					depth--
				}
			}
			if depth != 0 || quoted {
				t.Errorf("alias %q: unbalanced descriptor %q", alias, d)
			}
		}
	})
}
