package fake

import (
	"fmt"
	"testing"

	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// The column names a wire front end describes come from the select list.
func TestSelectColumns(t *testing.T) {
	for _, c := range []struct{ sql, want string }{
		{oraclesql.ProbeServer().SQL, "[CURRENT_SCHEMA SESSION_USER DB_VERSION CHARSET NCHAR_CHARSET]"},
		{oraclesql.DescribeTable("S", "T").SQL, "[COLUMN_NAME DATA_TYPE DATA_LENGTH CHAR_LENGTH CHAR_USED DATA_PRECISION DATA_SCALE NULLABLE COMMENTS PK_POSITION JSON_CHECKS IDENTITY_COLUMN DEFAULT_ON_NULL DEFAULT_LENGTH VIRTUAL_COLUMN HIDDEN_COLUMN IDENTITY_GENERATION PART_KEY_POSITION DEPENDENTS]"},
		{oraclesql.ProbeLongIdentifiers().SQL, "[" + repeatX(table.MaxBytesShort+1) + "]"},
		{"SELECT 1 FROM DUAL", "[1]"},
		{"SELECT A, 'x, y' AS B, NVL(C, ',') FROM T", "[A B NVL(C, ',')]"},
	} {
		if got := fmt.Sprint(selectColumns(c.sql)); got != c.want {
			t.Errorf("%.50q: %s, want %s", c.sql, got, c.want)
		}
	}
}

func repeatX(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'X'
	}
	return string(b)
}

// Statement classifies SQL text the way the renderer marks it.
func TestWireStatementKinds(t *testing.T) {
	for _, c := range []struct {
		sql   string
		query bool
		kind  oraclesql.StatementKind
	}{
		{"BEGIN\n  NULL;\nEND;", false, oraclesql.KindPLSQL},
		{`CREATE TABLE "S"."T" ("A" NUMBER)`, false, oraclesql.KindDDL},
		{`COMMENT ON COLUMN "S"."T"."A" IS 'x'`, false, oraclesql.KindDDL},
		{`MERGE INTO "S"."T" TGT USING (SELECT 1 FROM DUAL) SRC ON (1 = 1)`, false, oraclesql.KindDML},
		{`LOCK TABLE "S"."T" IN EXCLUSIVE MODE NOWAIT`, false, oraclesql.KindDML},
		{"SELECT 1 FROM DUAL", true, oraclesql.KindQuery},
	} {
		if got := Statement(c.sql, 0, c.query).Kind; got != c.kind {
			t.Errorf("%.40q: %s, want %s", c.sql, got, c.kind)
		}
	}
	st := Statement(oraclesql.DescribeTable("S", "T").SQL, 4, true)
	var labels []string
	for _, b := range st.Binds {
		labels = append(labels, b.Column)
	}
	if fmt.Sprint(labels) != "[owner table owner table]" {
		t.Errorf("describe binds labelled %v", labels)
	}
	if st := Statement(oraclesql.DescribeTable("", "T").SQL, 2, true); st.Binds[0].Column != "table" || st.Binds[1].Column != "table" {
		t.Errorf("describe in the current schema: binds %v", st.Binds)
	}
}
