package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tablepkg "github.com/target-oracle/target-oracle/internal/table"
)

// TestScratchPrefixesMatchTable: the prefixes config refuses in mappings
// are the ones package table keeps generated table names off.
func TestScratchPrefixesMatchTable(t *testing.T) {
	if VerifyPrefix != tablepkg.VerifyPrefix || BenchmarkPrefix != tablepkg.BenchmarkPrefix || !slices.Equal(ScratchPrefixes, tablepkg.ScratchPrefixes) {
		t.Errorf("config %q differs from table %q", ScratchPrefixes, tablepkg.ScratchPrefixes)
	}
}

// TestScratchPrefixRefused: no mapping may name a table like the scratch
// tables of --verify and --benchmark (SPEC §2): a configuration error.
func TestScratchPrefixRefused(t *testing.T) {
	for _, tc := range []struct{ settings, want string }{
		{`{"table_name_mappings":{"orders":"TARGET_ORACLE$VERIFY_0123abcd"}}`, `stream "orders"`},
		{`{"table_name_mappings":{"orders":"target_oracle$bench_x"}}`, "scratch tables"},
		{`{"table_prefix":"target_oracle$verify_"}`, "table_prefix"},
		{`{"table_prefix":"TARGET_ORACLE$"}`, "scratch tables"},
	} {
		p := filepath.Join(t.TempDir(), "c.json")
		if err := os.WriteFile(p, []byte(tc.settings), 0o600); err != nil {
			t.Fatal(err)
		}
		_, _, err := Load(Sources{ConfigArgs: []string{p}, WorkDir: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want one containing %q", tc.settings, err, tc.want)
		}
	}
	for _, ok := range []string{`{"table_name_mappings":{"orders":"TARGET_ORACLE_VERIFY"}}`, `{"table_prefix":"TARGET_"}`} {
		p := filepath.Join(t.TempDir(), "c.json")
		if err := os.WriteFile(p, []byte(ok), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, _, err := Load(Sources{ConfigArgs: []string{p}, WorkDir: t.TempDir()}); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}
