package oraclesql

import (
	"fmt"
	"strings"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

// notThisRun is the condition of the rows a run did not write
// (delete_missing, SPEC §6.4): compared with <>, never a time, and NULL
// (rows from before the column existed) counts as another run's. The run
// id is placeholder :n; soft adds "not deleted yet".
func notThisRun(run, deleted string, n int, soft bool) string {
	q := table.Quote(run)
	cond := "(" + q + " <> " + placeholder(n) + " OR " + q + " IS NULL)"
	if soft {
		cond += " AND " + table.Quote(deleted) + " IS NULL"
	}
	return cond
}

// pruneColumns checks the columns a prune needs and returns the types of
// the run id and deleted-at columns.
func pruneColumns(d *engine.DeleteMissing) (run, deleted table.Type, err error) {
	t := d.Table
	if err := checkNames(t, d.RunColumn, d.DeletedColumn); err != nil {
		return run, deleted, err
	}
	rc := t.Column(d.RunColumn)
	if rc == nil || rc.Type.Kind != table.KindVarchar {
		return run, deleted, &UnsupportedError{Table: t.QualifiedName(), What: fmt.Sprintf("run id column %q is missing or not a VARCHAR2", d.RunColumn)}
	}
	if d.Hard {
		return rc.Type, deleted, nil
	}
	dc := t.Column(d.DeletedColumn)
	if dc == nil {
		return run, deleted, &UnsupportedError{Table: t.QualifiedName(), What: fmt.Sprintf("deleted-at column %q is missing", d.DeletedColumn)}
	}
	return rc.Type, dc.Type, nil
}

// deleteMissing is the one set-based statement of a prune:
//
//	DELETE FROM t WHERE ("_SDC_RUN_ID" <> :1 OR "_SDC_RUN_ID" IS NULL)
//	UPDATE t SET "_SDC_DELETED_AT" = :1 WHERE ("_SDC_RUN_ID" <> :2 OR "_SDC_RUN_ID" IS NULL) AND "_SDC_DELETED_AT" IS NULL
func (r *Renderer) deleteMissing(d *engine.DeleteMissing) ([]Statement, error) {
	rt, dt, err := pruneColumns(d)
	if err != nil {
		return nil, err
	}
	run := Bind{Column: d.RunColumn, Type: rt, Source: Fixed, Value: d.RunID}
	if d.Hard {
		return []Statement{{
			SQL:   "DELETE FROM " + tableName(d.Table) + " WHERE " + notThisRun(d.RunColumn, "", 1, false),
			Binds: []Bind{run},
			Kind:  KindDML,
		}}, nil
	}
	return []Statement{{
		SQL: "UPDATE " + tableName(d.Table) + " SET " + table.Quote(d.DeletedColumn) + " = " + bindExpr(dt, 1) +
			" WHERE " + notThisRun(d.RunColumn, d.DeletedColumn, 2, true),
		Binds: []Bind{{Column: d.DeletedColumn, Type: dt, Source: Fixed, Value: d.At}, run},
		Kind:  KindDML,
	}}, nil
}

// PruneCount is the query that counts, before a prune, the table's rows
// and the rows the prune would change (delete_missing_max_fraction):
//
//	SELECT COUNT(*), COUNT(CASE WHEN <the prune's condition> THEN 1 END) FROM t
func PruneCount(d *engine.DeleteMissing) (Statement, error) {
	rt, _, err := pruneColumns(d)
	if err != nil {
		return Statement{}, err
	}
	return Statement{
		SQL: "SELECT COUNT(*), COUNT(CASE WHEN " + notThisRun(d.RunColumn, d.DeletedColumn, 1, !d.Hard) +
			" THEN 1 END) FROM " + tableName(d.Table),
		Binds: []Bind{{Column: d.RunColumn, Type: rt, Source: Fixed, Value: d.RunID}},
		Kind:  KindQuery,
	}, nil
}

// keepKeys is the array-bound UPDATE that marks the rows of refused
// records' keys as written by the run, one execution per key:
//
//	UPDATE t SET "_SDC_RUN_ID" = :1 WHERE "K1" = :2 AND …
func (r *Renderer) keepKeys(k *engine.KeepKeys) ([]Statement, error) {
	t := k.Table
	if err := checkNames(t, append([]string{k.RunColumn}, k.KeyColumns...)...); err != nil {
		return nil, err
	}
	if len(k.Rows) == 0 {
		return nil, nil
	}
	rc := t.Column(k.RunColumn)
	if rc == nil || len(k.KeyColumns) == 0 {
		return nil, &UnsupportedError{Table: t.QualifiedName(), What: fmt.Sprintf("keep keys without run id column %q or key columns", k.RunColumn)}
	}
	binds := []Bind{{Column: k.RunColumn, Type: rc.Type, Source: Fixed, Value: k.RunID}}
	var where []string
	for i, name := range k.KeyColumns {
		c := t.Column(name)
		if c == nil {
			return nil, &UnsupportedError{Table: t.QualifiedName(), What: fmt.Sprintf("key column %q, which the table does not have", name)}
		}
		binds = append(binds, Bind{Column: name, Type: c.Type, Source: FromRow, Index: i})
		where = append(where, table.Quote(name)+" = "+bindExpr(c.Type, len(binds)))
	}
	return []Statement{{
		SQL:   "UPDATE " + tableName(t) + " SET " + table.Quote(k.RunColumn) + " = " + placeholder(1) + " WHERE " + strings.Join(where, " AND "),
		Binds: binds,
		Kind:  KindDML,
		Rows:  RowsOf(engine.RowUpsert),
	}}, nil
}
