package oracle_test

import (
	"context"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// --plan's engine reads the catalog and refuses every change.
func TestReadOnlyEngine(t *testing.T) {
	db := fake.New(fake.Options{Schema: schemaName, Now: clock})
	eng := newEngine(t, db, oracle.Options{ReadOnly: true}, oraclesql.Options{})
	if _, err := eng.Session(context.Background(), "s"); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("Session on a read-only engine: %v", err)
	}
	if tb, err := eng.Describe(context.Background(), schemaName, "NO_SUCH_TABLE"); err != nil || tb != nil {
		t.Fatalf("Describe: %v %v", tb, err)
	}
}
