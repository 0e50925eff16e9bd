package oracle

import (
	"strings"

	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// SQL TODO: what the engine needs from oraclesql and works around here.
// Nothing in this file builds SQL text; it only selects among the
// renderer's statements. Each item should move into oraclesql.
//
//  1. FinishMigration restores the column comment from the table it is
//     given, but when the engine finds an orphaned marker column in the
//     catalog the old column (and its comment) is gone, so the engine does
//     not know the property path the comment must name. A wrong comment
//     would make later runs match the column to nothing (§5.1), so the
//     engine drops the COMMENT statements and the column is matched by
//     name afterwards. Wanted: the marker column carries the comment of
//     the column it replaces (COMMENT ON the marker in Migrate), or a
//     Statement field that says which statements restore a comment.
//  2. A marker name that had to be cut and hashed (column names near the
//     identifier limit) cannot be traced back to its column once the old
//     column is gone. Wanted: the same marker comment as in 1, naming the
//     column.
//  3. NOT NULL and primary key membership of the migrated column are not
//     in the catalog after SET UNUSED … CASCADE CONSTRAINTS; a migration
//     killed between SET UNUSED and the end of FinishMigration comes back
//     nullable and, for a key column, without its primary key.

// withoutComments drops the COMMENT ON statements of FinishMigration (item
// 1 above).
func withoutComments(stmts []oraclesql.Statement) []oraclesql.Statement {
	out := stmts[:0:0]
	for _, st := range stmts {
		if st.Kind == oraclesql.KindDDL && strings.HasPrefix(st.SQL, "COMMENT ON ") {
			continue
		}
		out = append(out, st)
	}
	return out
}
