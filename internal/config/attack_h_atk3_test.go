package config

import (
	"slices"
	"testing"
)

// Differential of parseDotEnv against python-dotenv 1.2.2 (dotenv_values,
// interpolate=True) over generated texts (h-atk3): 10 of 3000 texts where
// parseDotEnv succeeded gave other values. Two causes below.

// TestAttackDotEnvKeyWithoutValueAfterBinding: "A=1\nA\n".
// Reproduce: python3 -c 'import io,dotenv;print(dotenv.dotenv_values(stream=io.StringIO("A=1\nA\n")))'
// prints {'A': None}: the later key alone replaces the value (last wins),
// so Meltano's .env has no A. parseDotEnv keeps A=1 from the line above.
func TestAttackDotEnvKeyWithoutValueAfterBinding(t *testing.T) {
	// was: t.Skip("finding: a key alone (no =) after KEY=value keeps the earlier value; python-dotenv's last binding (None) wins, A unset")
	got, err := parseDotEnv([]byte("A=1\nA\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(got, "A=1") {
		t.Fatalf("parseDotEnv = %q, python-dotenv: A has no value (None)", got)
	}
}

// TestAttackDotEnvBareKeyStartingWithQuote: "'B.=export\n".
// Reproduce: python-dotenv logs "could not parse statement starting at
// line 1" and sets nothing (a key starting with ' must be a quoted key
// '...'). parseDotEnv sets the variable "'B." = "export"; the same with
// "' \n'A'=x\n" (sets A=x where python-dotenv's error swallows both lines,
// as a quoted key may span lines there). Other lines python-dotenv cannot
// parse are refused by parseDotEnv (an error naming the line).
func TestAttackDotEnvBareKeyStartingWithQuote(t *testing.T) {
	// was: t.Skip("finding: a bare key starting with ' (unterminated quoted key) is accepted as a key containing a quote; python-dotenv cannot parse the line")
	for _, text := range []string{"'B.=export\n", "' \n'A'=x\n"} {
		got, err := parseDotEnv([]byte(text), nil)
		if err == nil && len(got) != 0 {
			t.Errorf("parseDotEnv(%q) = %q, want an error (python-dotenv: could not parse)", text, got)
		}
	}
}
