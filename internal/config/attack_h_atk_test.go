package config

import (
	"strings"
	"testing"
)

// TestIntegerTextNotRoundedThroughFloat (found by an attack): parseInt falls back to
// strconv.ParseFloat for decimal text ParseInt refuses, and checks
// integrality on the float64, so a non-integer whose fraction is below
// float64's resolution passes as an integer, and the fraction check
// (kindFraction) compares the rounded float with 1.
//
// Reproduction:
//
//	echo '{"batch_size_rows": 2.0000000000000000001}' > bs.json
//	target-oracle --dry-run --config bs.json --input three-records.singer   # exit 0, batches 2 (size 2)
//	TARGET_ORACLE_PORT=1521.00000000000000001 ... --config ENV               # port 1521
//	echo '{"delete_missing_max_fraction": 1.00000000000000001}'              # accepted, though above 1
//
// 1.5 and 1.000001 are refused ("expected an integer from 1 to ..."); the
// same kind of value with more zeros is not. Each should be a
// configuration error naming the setting.
func TestIntegerTextNotRoundedThroughFloat(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  []string
		doc  string
		key  string
	}{
		{"json batch_size_rows", nil, `{"batch_size_rows": 2.0000000000000000001}`, "batch_size_rows"},
		{"env port", []string{"TARGET_ORACLE_PORT=1521.00000000000000001"}, `{}`, "TARGET_ORACLE_PORT"},
		{"json fraction above 1", nil, `{"delete_missing_max_fraction": 1.00000000000000001}`, "delete_missing_max_fraction"},
		{"env fraction above 1", []string{"TARGET_ORACLE_DELETE_MISSING_MAX_FRACTION=1.00000000000000001"}, `{}`, "TARGET_ORACLE_DELETE_MISSING_MAX_FRACTION"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{tc.doc}
			var c *Config
			var err error
			if tc.env != nil {
				c, _, err = loadEnvOnly(t, tc.env)
			} else {
				c, _, err = loadJSON(t, nil, args...)
			}
			if err == nil {
				t.Fatalf("accepted (batch_size_rows %d, port %d, fraction %v); want a configuration error naming %s", c.BatchSizeRows, c.Port, c.DeleteMissingMaxFraction, tc.key)
			}
			if msg := configError(t, err, ""); !strings.Contains(msg, tc.key) {
				t.Errorf("error %q does not name %s", msg, tc.key)
			}
		})
	}
}

// loadEnvOnly loads the settings from the environment only (--config ENV).
func loadEnvOnly(t *testing.T, env []string) (*Config, *Report, error) {
	t.Helper()
	return Load(Sources{ConfigArgs: []string{"ENV"}, Environ: env, WorkDir: t.TempDir()})
}

// parseInt and parseFraction decide on the decimal text, never on a
// rounded float64.
func TestParseIntAndFractionExact(t *testing.T) {
	ints := map[string]any{"1e3": int64(1000), "10.0": int64(10), "-5": int64(-5), "+7": int64(7), "1.5e1": int64(15),
		"0.0e0": int64(0), "120e-1": int64(12), "1.5": nil, "2.0000000000000000001": nil, "1e19": nil, "1e-1": nil,
		"0x10": nil, "1_0": nil, "1e99999": nil, "": nil, "9223372036854775807": int64(9223372036854775807)}
	for in, want := range ints {
		n, ok := parseInt(in)
		if (want == nil) == ok || (ok && n != want) {
			t.Errorf("parseInt(%q) = %d, %v; want %v", in, n, ok, want)
		}
	}
	fracs := map[string]any{"0": 0.0, "1": 1.0, "1.0": 1.0, ".5": 0.5, "5e-1": 0.5, "10e-1": 1.0, "-0": 0.0,
		"1e-10000": 0.0, "1.00000000000000001": nil, "-0.1": nil, "1.5": nil, "2": nil, "Inf": nil, "0x1p-1": nil}
	for in, want := range fracs {
		f, ok := parseFraction(in)
		if (want == nil) == ok || (ok && f != want) {
			t.Errorf("parseFraction(%q) = %v, %v; want %v", in, f, ok, want)
		}
	}
}

// TestParallelismAliasComparesText (found by an attack): the PipelineWise alias
// parallelism maps 0 and -1 ("automatic") to max_parallelism 4
// (docs/settings.md), and integer settings take any integral JSON number
// (1e3, 10.0), but the alias compares the text: {"parallelism": 0},
// -1, "0" and "-1" load with max_parallelism 4, while -0 and -1.0 are
// refused with `parallelism: expected an integer from 1 to 64, got -1.0`
// (-1 is not from 1 to 64 either, yet accepted). Reproduction:
// echo '{"parallelism":-1.0}' > p.json; target-oracle --dry-run --config p.json < /dev/null
func TestParallelismAliasComparesText(t *testing.T) {
	for _, doc := range []string{`{"parallelism": -0}`, `{"parallelism": -1.0}`, `{"parallelism": 0.0}`, `{"parallelism": "-0"}`, `{"parallelism": -1e0}`, `{"parallelism": 0}`, `{"parallelism": "-1"}`} {
		c, _, err := loadJSON(t, nil, doc)
		if err != nil {
			t.Errorf("%s: %v; want max_parallelism 4 as for 0 and -1", doc, err)
			continue
		}
		if c.MaxParallelism != 4 {
			t.Errorf("%s: max_parallelism %d, want 4", doc, c.MaxParallelism)
		}
	}
}

// TestParallelismAliasOtherValues: values the alias does not map pass
// through as max_parallelism values: 8.0 is 8, 2.5 and 65 are refused.
func TestParallelismAliasOtherValues(t *testing.T) {
	if c, _, err := loadJSON(t, nil, `{"parallelism": 8.0}`); err != nil || c.MaxParallelism != 8 {
		t.Errorf("parallelism 8.0: %v; want max_parallelism 8", err)
	}
	for _, doc := range []string{`{"parallelism": 2.5}`, `{"parallelism": 65}`, `{"parallelism": -2}`} {
		if _, _, err := loadJSON(t, nil, doc); err == nil || !strings.Contains(err.Error(), "parallelism") {
			t.Errorf("%s: %v; want a configuration error naming parallelism", doc, err)
		}
	}
}
