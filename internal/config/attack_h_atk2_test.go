package config

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestAttackDotEnvDifferential compares parseDotEnv with python-dotenv
// 1.2.2's dotenv_values on generated .env texts (an exploration harness of
// the h-atk2 attack; it skips unless TARGET_ORACLE_ATTACK_DOTENV_CASES
// names a file of cases written by a generator running python-dotenv:
// [{"text": …, "values": [[k, v]…], "warned": bool}], process environment
// P=penv, Q="q env"). A case python-dotenv warns about (it skips the line)
// and parseDotEnv refuses is not a mismatch.
func TestAttackDotEnvDifferential(t *testing.T) {
	path := os.Getenv("TARGET_ORACLE_ATTACK_DOTENV_CASES")
	if path == "" {
		t.Skip("set TARGET_ORACLE_ATTACK_DOTENV_CASES")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Text   string      `json:"text"`
		Values [][2]string `json:"values"`
		Warned bool        `json:"warned"`
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, c := range cases {
		got, err := parseDotEnv([]byte(c.Text), []string{"P=penv", "Q=q env"})
		if err != nil {
			if !c.Warned {
				bad++
				if bad < 40 {
					t.Errorf("%q: error %v; python-dotenv %q", c.Text, err, c.Values)
				}
			}
			continue
		}
		var order []string
		last := map[string]string{}
		for _, kv := range got {
			k, v, _ := strings.Cut(kv, "=")
			if _, ok := last[k]; !ok {
				order = append(order, k)
			}
			last[k] = v
		}
		var pairs [][2]string
		for _, k := range order {
			pairs = append(pairs, [2]string{k, last[k]})
		}
		if c.Warned {
			continue // python-dotenv skipped a line parseDotEnv took
		}
		if len(pairs) != len(c.Values) || (len(pairs) > 0 && !equalPairs(pairs, c.Values)) {
			bad++
			if bad < 40 {
				t.Errorf("%q: got %q; python-dotenv %q", c.Text, pairs, c.Values)
			}
		}
	}
	t.Logf("%d cases, %d mismatches", len(cases), bad)
}

func equalPairs(a, b [][2]string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestAttackDotEnvWhitespaceAsPythonDotenv (finding): python-dotenv 1.2.2
// (which dotenv.go says it follows, and which Meltano reads .env with)
// takes any white space its regular expressions' \s matches — a tab after
// "export", a form feed, a vertical tab, a no-break space U+00A0 pasted
// from a web page — and a lone CR ends a line. parseDotEnv takes only
// space and tab, and only "\n" (or "\r\n"): "export\tA=1" is refused
// ("line 1: expected KEY=value"), "\u00a0A=1" sets a variable
// "\u00a0A" (so a TARGET_ORACLE_PASSWORD line so pasted is silently not
// the setting), "A=1\rB=2" sets A to "1\rB=2". Expected values are
// dotenv.dotenv_values(stream=io.StringIO(text)) of python-dotenv 1.2.2.
// Reproduction: printf 'export\tTARGET_ORACLE_DEFAULT_TARGET_SCHEMA=CCC\n' > .env;
// target-oracle --config ENV --dry-run < in.singer → exit 2.
func TestAttackDotEnvWhitespaceAsPythonDotenv(t *testing.T) {
	// was: t.Skip("finding: .env white space other than space/tab (export<TAB>, U+00A0, \\f, \\v) and a lone CR are not read as python-dotenv 1.2.2 reads them")
	for _, c := range []struct{ text, want string }{
		{"export\tA=1\n", "A=1"},
		{"\u00a0A=1\n", "A=1"},
		{"\fA=1\n", "A=1"},
		{"A\v=1\n", "A=1"},
		{"A=1\rB=2\n", "A=1,B=2"},
	} {
		got, err := parseDotEnv([]byte(c.text), nil)
		if err != nil || strings.Join(got, ",") != c.want {
			t.Errorf("%q: %q, %v; python-dotenv 1.2.2: %s", c.text, got, err, c.want)
		}
	}
}

// TestAttackDuplicateKeysInsideObjectSettings (finding, silent wrong
// setting): a setting given twice at the top of one file is refused
// ("batch_size_rows is given twice with different values", exit 2), as
// SPEC §3 says, but inside an object setting a repeated key is taken
// silently, and not even the same way: stream_overrides
// {"s":{"load_method":"overwrite"},"s":{"load_method":"append-only"}}
// applies the first (overwrite: the table is replaced, states held),
// table_name_mappings {"s":"TA","s":"TB"} the last (TB), and
// {"s":{"load_method":"upsert","load_method":"overwrite"}} the last.
// Reproduction: target-oracle --dry-run --config dup.json (either
// object) → exit 0; the log says states are held (load_method is
// overwrite) although the last text says append-only.
func TestAttackDuplicateKeysInsideObjectSettings(t *testing.T) {
	// was: t.Skip("finding: a key repeated inside stream_overrides/table_name_mappings is taken silently (first wins in one, last in the other) while a repeated top-level setting is refused")
	for _, text := range []string{
		`{"stream_overrides":{"s":{"load_method":"overwrite"},"s":{"load_method":"append-only"}}}`,
		`{"table_name_mappings":{"s":"TA","s":"TB"}}`,
		`{"stream_overrides":{"s":{"load_method":"upsert","load_method":"overwrite"}}}`,
	} {
		p := t.TempDir() + "/c.json"
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		c, _, err := Load(Sources{ConfigArgs: []string{p}})
		if err == nil {
			t.Errorf("%s: accepted (load_method of s %q, table %q); want the repeated key refused as at the top level", text, c.ForStream("s").LoadMethod, c.TableNameMappings["s"])
		}
	}
}
