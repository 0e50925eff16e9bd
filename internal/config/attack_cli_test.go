package config

import (
	"strings"
	"testing"
)

// TestEnvIntegerIsDecimalText (found by an attack): docs/settings.md says environment integers
// are read "as decimal text", yet parseInt falls back to strconv.ParseFloat,
// which takes Go literal syntax: digit separators and hexadecimal floats.
// TARGET_ORACLE_PORT=0x5F1p0 loaded as port 1521 while TARGET_ORACLE_PORT=0x10
// was refused; both are now configuration errors naming the variable.
func TestEnvIntegerIsDecimalText(t *testing.T) {
	for _, env := range []string{
		"TARGET_ORACLE_PORT=1_521",
		"TARGET_ORACLE_PORT=0x5F1p0",
		"TARGET_ORACLE_BATCH_SIZE_ROWS=1_000",
		"TARGET_ORACLE_DELETE_MISSING_MAX_FRACTION=0x1p-2",
	} {
		t.Run(env, func(t *testing.T) {
			c, _, err := loadJSON(t, []string{env})
			if err == nil {
				t.Fatalf("%s accepted (port %d, batch_size_rows %d, fraction %v); want a configuration error", env, c.Port, c.BatchSizeRows, c.DeleteMissingMaxFraction)
			}
			name, _, _ := strings.Cut(env, "=")
			configError(t, err, name)
		})
	}
}
