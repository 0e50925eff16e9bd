package table

import (
	"strings"
	"testing"
)

// TestGeneratedTableNameAvoidsReservedPrefix (found by an attack): SPEC §5.1 says the
// prefixes SYS_ and ORA$ "are treated as collisions", and FitName,
// SchemaName and a cut table name (suffixed) honour it, but TableName
// returns a generated name that fits the limit as it is: stream
// "ora$ptt_x" is table ORA$PTT_X (Oracle refuses a permanent table named
// with the private temporary table prefix, ORA-32463), "sys_orders" is
// SYS_ORDERS, while a 150-byte stream "sys_…" becomes "_SYS_…_<hash>".
// Same prefix, two rules, depending only on the name's length.
//
// Reproduction:
//
//	printf '{"type":"SCHEMA","stream":"ora$ptt_x","schema":{"type":"object","properties":{"id":{"type":"integer"}}},"key_properties":["id"]}\n' |
//	  target-oracle --dry-run --dry-run-dump d   # statements.sql: CREATE TABLE "DRY_RUN"."ORA$PTT_X", CONSTRAINT "ORA$PTT_X_PK"
func TestGeneratedTableNameAvoidsReservedPrefix(t *testing.T) {
	long := "sys_" + strings.Repeat("s", 150)
	cut, err := TableName(long, &Options{IdentifierUpper: true})
	if err != nil || !strings.HasPrefix(cut, "_SYS_") {
		t.Fatalf("TableName(long sys_ stream) = %q, %v; the cut name avoids the prefix", cut, err)
	}
	for _, stream := range []string{"ora$ptt_x", "sys_orders", "SYS-x"} {
		got, err := TableName(stream, &Options{IdentifierUpper: true})
		if err != nil {
			t.Fatal(err)
		}
		if reservedName(got) {
			t.Errorf("TableName(%q) = %q: starts with a reserved prefix (SPEC §5.1: treated as a collision)", stream, got)
		}
	}
	// The schema follows the rule already.
	if got := SchemaName("sys_x", true, 128); reservedName(got) {
		t.Errorf("SchemaName(sys_x) = %q", got)
	}
}
